#!/usr/bin/env bash
# make cluster: supervisord in the foreground (deploy/supervisord.conf) running
# HAProxy on PROXY_PORT, WEB_COUNT web processes on WEB_PORT, WEB_PORT + 1, ...,
# an RQ worker pool of WORKERS, Redis on REDIS_PORT and PostgreSQL on PG_PORT,
# all on loopback; whatever exits is started again. Ctrl-C stops it all.
set -euo pipefail
: "${PROXY_PORT:?PROXY_PORT (the cluster's public port) is not set}"
: "${WEB_PORT:?WEB_PORT (the first web process's port) is not set}"
: "${REDIS_PORT:?REDIS_PORT is not set}"
: "${PG_PORT:?PG_PORT is not set}"
here="$(cd "$(dirname "$0")/.." && pwd)"
export WEB_COUNT="${WEB_COUNT:-2}" WORKERS="${WORKERS:-2}"
export PG_DIR="$(realpath -m "${PG_DIR:-$here/test-artifacts/cluster-postgres}")"
# supervisord's log and socket, and each web process's own data folder (web0, web1,
# ...: nothing is shared between web processes but Redis and PostgreSQL)
export CLUSTER_DIR="$(realpath -m "${CLUSTER_DIR:-${TMPDIR:-/tmp}/arcade-cluster-$PROXY_PORT}")"
mkdir -p "$CLUSTER_DIR"
exec supervisord -n -c "$here/deploy/supervisord.conf"
