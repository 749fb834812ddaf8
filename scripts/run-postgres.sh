#!/usr/bin/env bash
# make cluster's PostgreSQL: a throwaway cluster in DIR on 127.0.0.1:PORT with one
# database, "arcade", run in the foreground until honcho stops it.
# Usage: run-postgres.sh DIR PORT. Debian's server refuses root: as root it runs as postgres.
set -euo pipefail
dir=$(realpath -m "$1"); port=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
[ -f "$dir/data/PG_VERSION" ] || as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
as_owner "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/log" \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >/dev/null
trap 'as_owner "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null; exit 0' INT TERM
as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres arcade 2>/dev/null || true
echo "PostgreSQL on 127.0.0.1:$port (database arcade)"
while as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null; do sleep 2; done
