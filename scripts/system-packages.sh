#!/usr/bin/env bash
# The Debian packages the test suites need, installed when missing (as root; otherwise it
# names what is missing and which suites need it):
#   redis-server                           the coalescer's and the rate limiter's Redis suites
#   chromium                               the widget's and the inspector's browser suites
#   postgresql-15, postgresql-server-dev-15 the e2e-postgres project (pgvector builds from vendor/)
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 ||
    { apt-get update >/dev/null && apt-get install -y --no-install-recommends "$@" >/dev/null; }
}

need() { # <command> <package> <suites>
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = "0" ]; then
    apt_install "$2"
  else
    echo "$1 is missing (Debian package $2, needed by $3); install it as root" >&2
  fi
}

need redis-server redis-server "the Redis suites"
need chromium chromium "the browser suites"
if [ "$(id -u)" = "0" ]; then
  bash scripts/pg-test-server.sh install
else
  bash scripts/pg-test-server.sh install 2>/dev/null ||
    echo "postgresql-15 with pgvector is missing (the e2e-postgres suites); run 'bash scripts/system-packages.sh' as root" >&2
fi
