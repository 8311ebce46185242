{{- define "context-bridge.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "context-bridge.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "context-bridge.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "context-bridge.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "context-bridge.selectorLabels" -}}
app.kubernetes.io/name: {{ include "context-bridge.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "context-bridge.labels" -}}
{{ include "context-bridge.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: context-bridge
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "context-bridge.secretName" -}}
{{- default (include "context-bridge.fullname" .) .Values.secret.existingSecret -}}
{{- end -}}

{{- define "context-bridge.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "context-bridge.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "context-bridge.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/*
The non-secret environment: the providers under their variable names, then `config`
(which may override a provider's variable for settings the chart does not name).
*/}}
{{- define "context-bridge.env" -}}
{{- $p := .Values.providers -}}
{{- $env := dict
  "PORT" (toString .Values.containerPort)
  "VECTOR_PROVIDER" $p.vector
  "EMBEDDING_PROVIDER" $p.embedding
  "RERANK_PROVIDER" $p.rerank
  "LLM_PROVIDER" $p.llm
  "PODIUM_PROVIDER" $p.podium
  "CURRICULUM_PROVIDER" $p.curriculum
  "DATA_DIR" "/data" -}}
{{- range $name, $value := dict
  "QDRANT_URL" $p.qdrant.url
  "EMBEDDING_MODEL" $p.embeddingModel
  "EMBEDDING_DIMENSION" (toString $p.embeddingDimension)
  "OPENAI_BASE_URL" $p.openaiBaseUrl
  "TEI_URL" $p.teiUrl
  "TEI_RERANK_URL" $p.teiRerankUrl
  "LLM_MODEL" $p.llmModel
  "PODIUM_BASE_URL" $p.podiumBaseUrl
  "POCKETBASE_URL" $p.pocketbaseUrl }}
{{- if $value }}{{ $_ := set $env $name $value }}{{ end }}
{{- end }}
{{- /* /data is scratch without a volume: a pod without DATABASE_URL would keep its data there alone. */}}
{{- if not .Values.persistence.enabled }}{{ $_ := set $env "REQUIRE_DATABASE_URL" "true" }}{{ end }}
{{- if .Values.secret.apiKeysAsFile }}{{ $_ := set $env "API_KEYS_FILE" "/etc/context-bridge/api-keys/API_KEYS" }}{{ end }}
{{- range $name, $value := .Values.config }}{{ $_ := set $env $name (toString $value) }}{{ end }}
{{- toYaml $env -}}
{{- end -}}

{{/* The secret keys the pod reads (API_KEYS comes from a file when apiKeysAsFile). */}}
{{- define "context-bridge.secretKeys" -}}
{{- $keys := list -}}
{{- range $name, $_ := .Values.secret.values -}}
{{- if not (and $.Values.secret.apiKeysAsFile (eq $name "API_KEYS")) }}{{ $keys = append $keys $name }}{{ end -}}
{{- end -}}
{{- toJson $keys -}}
{{- end -}}
