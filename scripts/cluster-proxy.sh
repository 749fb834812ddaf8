#!/usr/bin/env bash
# The cluster's reverse proxy (the Procfile's "proxy"): deploy/haproxy.cfg with
# its ports filled in, HAProxy in the foreground on 127.0.0.1:PROXY_PORT in
# front of WEB_COUNT web processes on WEB_PORT, WEB_PORT + 1, ...
set -euo pipefail
: "${PROXY_PORT:?PROXY_PORT (the cluster's public port) is not set}"
: "${WEB_PORT:?WEB_PORT (the first web process's port) is not set}"
WEB_COUNT="${WEB_COUNT:-2}"
here="$(cd "$(dirname "$0")/.." && pwd)"
servers=""
for ((i = 0; i < WEB_COUNT; i++)); do
    servers+="    server web$((i + 1)) 127.0.0.1:$((WEB_PORT + i)) cookie w$((i + 1))"$'\n'
done
config="${TMPDIR:-/tmp}/arcade-haproxy-$PROXY_PORT.cfg"  # one per cluster, rewritten each start
while IFS= read -r line; do
    case "$line" in
    @SERVERS@) printf '%s' "$servers" ;;
    *) printf '%s\n' "${line//@PROXY_PORT@/$PROXY_PORT}" ;;
    esac
done <"$here/deploy/haproxy.cfg" >"$config"
haproxy="$(command -v haproxy || echo /usr/sbin/haproxy)"
"$haproxy" -c -q -f "$config"
exec "$haproxy" -db -f "$config"
