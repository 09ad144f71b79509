#!/usr/bin/env bash
# npm test: the whole suite. Unit tests, integration tests through the real route handlers on
# SQLite and on PostgreSQL, then the browser tests in Debian's Chromium. PostgreSQL is
# required: if it is down and cannot be started, the run fails rather than skipping it.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
mkdir -p test-results

pg_ready() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
if ! pg_ready; then
  if command -v pg_ctlcluster >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "test: PostgreSQL is down; starting it"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    for _ in $(seq 1 30); do pg_ready && break; sleep 1; done
  fi
  pg_ready || { echo "test: PostgreSQL is required on 127.0.0.1:5432 (TEST_POSTGRES_URL) and is not reachable" >&2; exit 1; }
fi

status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=$?
PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json bash scripts/test-e2e.sh --reporter=line,json || status=$?

# One closing line for the whole run, counted from the runners' own reports.
node scripts/test-summary.mjs test-results/vitest.json test-results/playwright.json || status=$?
exit $status
