#!/usr/bin/env bash
# A throwaway Postgres 15 + pgvector for the test suite and benchmarks: the production
# database path (DATABASE_URL) runs on a real server, not only on embedded PGlite.
#
#   scripts/pg-test-server.sh install          # root: Debian postgresql-15 + pgvector from vendor/
#   scripts/pg-test-server.sh run -- <cmd>     # start a cluster, run <cmd> with TEST_DATABASE_URL, always stop
#   scripts/pg-test-server.sh start            # start one; prints "<dir> <url>"
#   scripts/pg-test-server.sh halt|resume <dir>  # stop / restart it on the same port (outage tests)
#   scripts/pg-test-server.sh destroy <dir>    # stop it and delete its files
#   scripts/pg-test-server.sh                  # foreground: start, print the URL, stop on Ctrl-C
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
vendor=${PGVECTOR_TARBALL:-$root/vendor/pgvector-0.8.6.tar.gz}
# The digest of the release as published (vendor/README.md): a tampered tarball never builds.
vendor_sha256=5743dac39fdfa740533cf95e71b033bd5513b71dda194b3cf19464ccbf76f3fb

# initdb refuses to run as root: run the server as the postgres user then.
as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

have_pgvector() {
  [ -x "$pg_bin/pg_ctl" ] && [ -f "$("$pg_bin/pg_config" --sharedir)/extension/vector.control" ]
}

install() {
  if have_pgvector; then
    return 0
  fi
  if [ "$(id -u)" != "0" ]; then
    echo "postgresql-15 with pgvector is missing; run '$0 install' as root" >&2
    exit 1
  fi
  local pkgs=(postgresql-15 postgresql-server-dev-15)
  apt-get install -y --no-install-recommends "${pkgs[@]}" >/dev/null 2>&1 ||
    { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${pkgs[@]}" >/dev/null; }
  echo "$vendor_sha256  $vendor" | sha256sum -c --quiet - ||
    { echo "$vendor: not the pgvector 0.8.6 release (sha256 mismatch)" >&2; exit 1; }
  local build
  build=$(mktemp -d)
  tar xzf "$vendor" -C "$build"
  make -s -C "$build"/pgvector-* PG_CONFIG="$pg_bin/pg_config" >/dev/null
  make -s -C "$build"/pgvector-* PG_CONFIG="$pg_bin/pg_config" install >/dev/null
  rm -rf "$build"
}

free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

pg_start() { # <dir>
  as_owner "$pg_bin/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 30 start >/dev/null
}

start() {
  have_pgvector || { echo "pgvector is not installed: run '$0 install' (root)" >&2; exit 1; }
  local dir port
  dir=$(mktemp -d /tmp/cb-pg.XXXXXX)
  port=$(free_port)
  [ "$(id -u)" = "0" ] && chown postgres "$dir"
  as_owner "$pg_bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 >/dev/null
  # A throwaway cluster: durability off for speed; loopback TCP plus a socket in its own dir.
  cat >>"$dir/data/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
CONF
  pg_start "$dir"
  echo "$dir postgres://postgres@127.0.0.1:$port/postgres"
}

halt() { as_owner "$pg_bin/pg_ctl" -D "$1/data" -m fast -w stop >/dev/null; }
resume() { pg_start "$1"; }

destroy() {
  [ -n "${1:-}" ] && [ -d "$1/data" ] || return 0
  as_owner "$pg_bin/pg_ctl" -D "$1/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$1"
}

run() {
  local url
  # Global, not local: the EXIT trap runs after this function has returned.
  read -r server_dir url < <(start)
  trap 'destroy "$server_dir"' EXIT INT TERM
  echo "throwaway Postgres with pgvector at $url" >&2
  TEST_DATABASE_URL=$url "$@"
}

case "${1:-foreground}" in
  install) install ;;
  start) start ;;
  halt) halt "$2" ;;
  resume) resume "$2" ;;
  destroy) destroy "$2" ;;
  run)
    shift
    [ "${1:-}" = "--" ] && shift
    run "$@"
    ;;
  foreground)
    read -r dir url < <(start)
    trap 'destroy "$dir"' EXIT INT TERM
    echo "DATABASE_URL=$url   (Ctrl-C stops and deletes it)"
    tail -f "$dir/server.log"
    ;;
  *) echo "usage: $0 install | run -- <cmd> | start | halt <dir> | resume <dir> | destroy <dir>" >&2; exit 2 ;;
esac
