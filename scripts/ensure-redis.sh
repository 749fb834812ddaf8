#!/usr/bin/env bash
# The cluster (make cluster) and its test need a real redis-server. Debian's
# package installs in seconds; apt does not start it, the cluster starts its own
# on a loopback port.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's redis-server for the cluster" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    exit 0
fi
echo "redis-server is missing and this user cannot install it; install redis-server" >&2
exit 1
