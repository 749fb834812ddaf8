#!/usr/bin/env bash
# Browser tests need a Chromium. Playwright cannot download its own build on
# these machines, so prefer Debian's packages: chromium-headless-shell, which the
# tests drive (Chromium's rendering without the browser around it: a third less CPU
# than the full browser's headless mode), and chromium, which Lighthouse and the
# lab's frame-rate measure drive. Fall back to Playwright's download where that works.
set -euo pipefail
PYTHON=${PYTHON:-python3}
missing=()
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} = 0 ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's ${missing[*]} for the browser tests" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    exit 0
fi
echo "no ${missing[*]} found and not root: trying playwright's own download" >&2
"$PYTHON" -m playwright install chromium
