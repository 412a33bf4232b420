#!/usr/bin/env bash
# Local dev/test infrastructure without Docker: PostgreSQL + Kafka (one broker, or three with KAFKA_CLUSTER=3).
# Usage: infra.sh up | down [--clean]   (--clean also wipes the Kafka data dir)
# `up` prints DATABASE_URL=... and KAFKA_BROKERS=... on stdout (all progress on stderr), so
# `eval "$(infra/scripts/infra.sh up)"` or `infra/scripts/infra.sh up > .env` both work.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

case "${1:-}" in
  up)
    "$here/postgres.sh" start >&2
    brokers="$("$here/kafka.sh" start)"
    echo "DATABASE_URL=$("$here/postgres.sh" url)"
    echo "$brokers"
    ;;
  down)
    "$here/kafka.sh" stop ${2:+"$2"}
    "$here/postgres.sh" stop
    ;;
  *) echo "usage: $0 up | down [--clean]" >&2; exit 2 ;;
esac
