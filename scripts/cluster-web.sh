#!/usr/bin/env bash
# One web process of the cluster (deploy/supervisord.conf's web programs):
# number N listens on WEB_PORT + N with its own data folder, CLUSTER_DIR/webN, as
# a web process on a host of its own would. The exec keeps supervisord's signals
# for gunicorn's master.
set -euo pipefail
n=$1
export ARCADE_DATA_DIR="$CLUSTER_DIR/web$n"
mkdir -p "$ARCADE_DATA_DIR"
exec python -m webapp --port "$((WEB_PORT + n))"
