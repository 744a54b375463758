#!/usr/bin/env bash
# The web app's whole check, for .ci/run: install exactly, type-check, lint, unit tests, build
# (with the size budget), then the browser checks. Pass `--base URL` to run the browser checks
# against a running `houserules serve` instead of the mock server.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] && [ -z "${CHROMIUM:-}" ]; then
  echo "web: /usr/bin/chromium is missing: apt-get update && apt-get install -y chromium" >&2
  exit 1
fi
npm ci --no-audit --no-fund
npm run check
npm run lint
npm test
npm run build
node scripts/e2e.mjs "$@"
