#!/usr/bin/env bash
# Browser tests need a Chromium. Playwright cannot download its own build on
# these machines, so prefer Debian's package; fall back to Playwright's download
# where that works.
set -euo pipefail
PYTHON=${PYTHON:-python3}
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's chromium for the browser tests" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    exit 0
fi
echo "no chromium found and not root: trying playwright's own download" >&2
"$PYTHON" -m playwright install chromium
