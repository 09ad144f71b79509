#!/usr/bin/env bash
# Browser tests. Uses Debian's chromium because these machines cannot download Playwright's
# browsers (`npx playwright install` fails offline); installs it on first use when root.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ ! -x "$chromium" ]]; then
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "test-e2e: $chromium is missing. Install it as root (apt-get install -y chromium) or set CHROMIUM_PATH." >&2
    exit 1
  fi
  echo "test-e2e: installing chromium from Debian..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

export NEXT_TELEMETRY_DISABLED=1
exec npx playwright test "$@"
