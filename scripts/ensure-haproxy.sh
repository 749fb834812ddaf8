#!/usr/bin/env bash
# The cluster (make cluster) and its test put Debian's HAProxy in front of the
# web processes. The package installs in seconds; apt starts a system service
# we do not use (the cluster runs its own in the foreground), so it is stopped.
set -euo pipefail
if command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's haproxy for the cluster" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
    service haproxy stop >/dev/null 2>&1 || true
    exit 0
fi
echo "haproxy is missing and this user cannot install it; install haproxy" >&2
exit 1
