#!/usr/bin/env bash
# The cluster's PostgreSQL in the foreground (deploy/supervisord.conf): a cluster in
# DIR on 127.0.0.1:PORT with one database, "arcade", made on first start.
# Usage: cluster-postgres.sh DIR PORT. Debian's server refuses root: as root it runs
# as postgres. The postmaster replaces this script, so supervisord's signals reach it.
set -euo pipefail
dir=$(realpath -m "$1"); port=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || bin=$(dirname "$(command -v postgres)")
owner=()
if [ "$(id -u)" = 0 ]; then
    owner=(setpriv --reuid=postgres --regid=postgres --init-groups --)
    mkdir -p "$dir" && chown postgres:postgres "$dir"
fi
if [ ! -f "$dir/data/PG_VERSION" ]; then
    "${owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
    echo "CREATE DATABASE arcade" | "${owner[@]}" "$bin/postgres" --single -D "$dir/data" postgres >/dev/null
fi
echo "PostgreSQL on 127.0.0.1:$port (database arcade)"
exec "${owner[@]}" "$bin/postgres" -D "$dir/data" -p "$port" -k "$dir" \
    -c listen_addresses=127.0.0.1 -c log_min_messages=warning
