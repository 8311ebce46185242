#!/usr/bin/env bash
# The release the way production installs it, without Docker: a clean copy of the tree goes
# through the Dockerfile's build stage (npm ci, build, prune dev dependencies); a folder with
# only what the runtime stage's `COPY --from=build` lines take then boots with the image's
# CMD under NODE_ENV=production and one API key, and must answer readiness, the image's
# HEALTHCHECK and `POST /context` (and, with a bad environment, exit 1 naming each variable). A runtime import of a dev dependency, a file the runtime
# stage forgets, or a production default that refuses to boot fails here, not in a cluster.
#   scripts/release-check.sh            # the working tree (tracked and untracked, not ignored)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/cb-release.XXXXXX)
pid=
cleanup() {
  local status=$?
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
log() { echo "release-check: $*" >&2; }

mkdir -p "$work/tree" "$work/build" "$work/runtime" "$work/data"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' | tar --null -T - -cf -) |
  tar -xf - -C "$work/tree"
# The build stage sees only what its own COPY lines take from the tree.
for path in $(awk '/^FROM .* AS build/{b=1;next} /^FROM /{b=0} b && /^COPY / && !/--from/ {for (i=2;i<NF;i++) print $i}' "$root/Dockerfile"); do
  cp -a "$work/tree/$path" "$work/build/$path"
done

log "build stage: npm ci, build, prune"
cd "$work/build"
npm ci --no-audit --no-fund >"$work/npm-ci.log" 2>&1 || { cat "$work/npm-ci.log"; exit 1; }
if grep -q EBADENGINE "$work/npm-ci.log"; then
  grep -A3 EBADENGINE "$work/npm-ci.log" | head -20 >&2
  log "npm ci warned about engines on Node $(node --version)"
  exit 1
fi
npm run build >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
npm prune --omit=dev --no-audit --no-fund >"$work/prune.log" 2>&1 || { cat "$work/prune.log"; exit 1; }

log "runtime stage: only what the Dockerfile copies"
copied=$(grep -E '^COPY --from=build ' "$root/Dockerfile" | awk '{print $3}')
for path in $copied; do
  rel=${path#/app/}
  mkdir -p "$work/runtime/$(dirname "$rel")"
  cp -a "$work/build/$rel" "$work/runtime/$rel"
done
cmd=$(grep -E '^CMD ' "$root/Dockerfile" | sed 's/^CMD //')
mapfile -t argv < <(node -e 'for (const a of JSON.parse(process.argv[1])) console.log(a)' "$cmd")

# A bad environment: the process exits non-zero at once, naming each variable, and never
# echoes a value (a pasted plaintext key, a password in a URL).
plain="sk-release-check-$RANDOM$RANDOM"
password="pw-release-check-$RANDOM$RANDOM"
cd "$work/runtime"
set +e
env -i PATH="$PATH" HOME="$work" NODE_ENV=production DATA_DIR="$work/data" \
  API_KEYS="$plain" DATABASE_URL="mysql://svc:$password@db/x" PORT=abc \
  timeout 60 "${argv[@]}" >"$work/bad-env.log" 2>&1
status=$?
set -e
if [ "$status" != 1 ] || ! grep -q '^  - API_KEYS: ' "$work/bad-env.log" ||
  ! grep -q '^  - DATABASE_URL: ' "$work/bad-env.log" || ! grep -q '^  - PORT: ' "$work/bad-env.log"; then
  cat "$work/bad-env.log" >&2
  log "a bad environment exited $status without naming API_KEYS, DATABASE_URL and PORT"
  exit 1
fi
if grep -q -e "$plain" -e "$password" "$work/bad-env.log"; then
  log "the boot error echoed a secret value"
  exit 1
fi
log "a bad environment exits 1 naming each variable, no value echoed"

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
key="release-check-$RANDOM$RANDOM"
digest=$(printf '%s' "$key" | sha256sum | cut -d' ' -f1)
log "boot: NODE_ENV=production ${argv[*]} on port $port"
cd "$work/runtime"
env -i PATH="$PATH" HOME="$work" NODE_ENV=production PORT="$port" DATA_DIR="$work/data" \
  API_KEYS="release-check:$digest" "${argv[@]}" >"$work/service.log" 2>&1 &
pid=$!

base="http://127.0.0.1:$port"
for _ in $(seq 1 240); do
  if curl -fsS "$base/health/ready" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then tail -n 40 "$work/service.log" >&2; log "the service exited"; exit 1; fi
  sleep 0.5
done
curl -fsS "$base/health/ready" >/dev/null || { tail -n 40 "$work/service.log" >&2; log "not ready"; exit 1; }

# The image's HEALTHCHECK, as Docker would run it.
healthcheck=$(grep -A1 '^HEALTHCHECK' "$root/Dockerfile" | tail -1 | sed 's/^ *CMD //')
mapfile -t probe < <(node -e 'for (const a of JSON.parse(process.argv[1])) console.log(a)' "$healthcheck")
PORT="$port" "${probe[@]}" || { log "HEALTHCHECK failed"; exit 1; }

body='{"transcript":"where is my order","contact_uid":"ctc_release_check","call_id":"call_release_check"}'
status=$(curl -s -o "$work/context.json" -w '%{http_code}' "$base/context" \
  -H 'content-type: application/json' -H "authorization: Bearer $key" -d "$body")
[ "$status" = 200 ] || { cat "$work/context.json" >&2; log "POST /context answered $status"; exit 1; }
unauthorised=$(curl -s -o /dev/null -w '%{http_code}' "$base/context" -H 'content-type: application/json' -d "$body")
[ "$unauthorised" = 401 ] || { log "POST /context without a key answered $unauthorised"; exit 1; }
log "ok: Node $(node --version), /health/ready, HEALTHCHECK, /context 200 with the key and 401 without"
