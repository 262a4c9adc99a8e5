#!/usr/bin/env bash
# scripts/browser-test-deps.sh - install Debian's headless browser for the archive tests
# (tests/test_archive_browser.py drives /usr/bin/chromium through /usr/bin/chromedriver).
# `make test` runs it before pytest, as it runs scripts/mail-test-servers.sh for Dovecot.
# Only Debian's packages: no tool downloads a browser of its own.
set -euo pipefail
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && exit 0
[ "$(id -u)" = 0 ] || { echo "chromium and chromium-driver are missing: run 'sudo apt-get install chromium chromium-driver'" >&2; exit 1; }
echo "[browser] apt-get install chromium chromium-driver" >&2
log=$(mktemp)
{ DEBIAN_FRONTEND=noninteractive apt-get update -q &&
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium chromium-driver; } >"$log" 2>&1 \
  || { tail -20 "$log" >&2; echo "[browser] apt-get failed (see $log)" >&2; exit 1; }
rm -f "$log"
