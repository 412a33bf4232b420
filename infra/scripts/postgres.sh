#!/usr/bin/env bash
# Local PostgreSQL for dev and tests, no Docker: reuse a server already on 127.0.0.1:$POSTGRES_PORT,
# else run a private cluster under infra/postgres/run. Creates databases claims and claims_test.
# Usage: postgres.sh start | stop | url
# Env: POSTGRES_PORT (5432), POSTGRES_RUN_DIR (infra/postgres/run: a private cluster's data and log).
# Progress goes to stderr, DATABASE_URL=... to stdout.
set -euo pipefail

run="${POSTGRES_RUN_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/postgres/run}"
pgdata="$run/data"
host=127.0.0.1
port="${POSTGRES_PORT:-5432}"
url="postgres://postgres@$host:$port/claims"

log() { echo "postgres: $*" >&2; }

# Newest server install from the Debian/Ubuntu packages (empty when none).
bindir="$(dirname "$(printf '%s\n' /usr/lib/postgresql/*/bin/postgres | sort -V | tail -n 1)")"
[ -x "$bindir/postgres" ] || bindir=""
# Client tools: the PATH ones, else the server install's.
tool() { if command -v "$1" >/dev/null; then command -v "$1"; elif [ -x "$bindir/$1" ]; then echo "$bindir/$1"; else return 1; fi; }

ready() { local t; t="$(tool pg_isready)" && "$t" -q -h "$host" -p "$port"; }

# initdb and postgres refuse to run as root: run them as the postgres system user instead.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

need_server() {
  if [ -z "$bindir" ]; then
    log "no server answers on $host:$port and no PostgreSQL server is installed (/usr/lib/postgresql/*/bin)."
    log "Install it with:  sudo apt-get install -y postgresql   (or use: docker compose up -d postgres)"
    exit 1
  fi
}

start_own() {
  need_server
  mkdir -p "$run"
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$run"; fi
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    log "initdb $pgdata ($bindir)"
    as_owner "$bindir/initdb" -D "$pgdata" -U postgres --auth=trust --encoding=UTF8 --locale=C >"$run/initdb.log" 2>&1 ||
      { cat "$run/initdb.log" >&2; exit 1; }
  fi
  log "starting cluster on $host:$port (log: $run/postgres.log)"
  # TCP only (no Unix socket): avoids socket-path length limits and /var/run permissions.
  as_owner "$bindir/pg_ctl" -D "$pgdata" -l "$run/postgres.log" -w -t 60 \
    -o "-p $port -c listen_addresses=$host -c unix_socket_directories=''" start >&2 ||
    { tail -n 40 "$run/postgres.log" >&2; exit 1; }
}

create_dbs() {
  local psql db; psql="$(tool psql)"
  for db in claims claims_test; do
    # -w: never prompt; a server that wants a password fails here instead of hanging.
    if [ -z "$("$psql" -X -w -h "$host" -p "$port" -U postgres -d postgres -tAc "select 1 from pg_database where datname = '$db'")" ]; then
      log "creating database $db"
      "$psql" -X -w -q -h "$host" -p "$port" -U postgres -d postgres -c "create database \"$db\""
    fi
  done
}

start() {
  if ready; then log "using the server already answering on $host:$port"; else start_own; fi
  create_dbs
  echo "DATABASE_URL=$url"
}

stop() {
  # Only the cluster this script owns (infra/postgres/run); a server it merely reused is left alone.
  if [ -n "$bindir" ] && [ -d "$pgdata" ] && as_owner "$bindir/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
    log "stopping cluster in $pgdata"
    as_owner "$bindir/pg_ctl" -D "$pgdata" -m fast -w stop >&2
  else
    log "no cluster started by this script is running; nothing to stop"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) echo "$url" ;;
  *) echo "usage: $0 start | stop | url" >&2; exit 2 ;;
esac
