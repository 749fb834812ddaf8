#!/usr/bin/env bash
# The storage tests and make cluster need PostgreSQL's server binaries (initdb,
# pg_ctl). Debian's package installs them under /usr/lib/postgresql/N/bin; apt's
# own cluster is not used: tests and the cluster start a throwaway one on loopback.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's postgresql for the storage tests and the cluster" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    exit 0
fi
echo "PostgreSQL is missing and this user cannot install it; install postgresql" >&2
exit 1
