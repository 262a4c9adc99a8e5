#!/usr/bin/env bash
# scripts/browser-test-deps.sh - install Debian's headless browser for the archive tests
# (tests/test_archive_browser.py drives /usr/bin/chromium through /usr/bin/chromedriver).
# `make test` runs it before pytest, as it runs scripts/mail-test-servers.sh for Dovecot.
# Only Debian's packages: no tool downloads a browser of its own.  scripts/apt-install.sh waits for
# another apt or dpkg, and for another pbem run installing the same, instead of failing.
set -euo pipefail
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && exit 0
[ "$(id -u)" = 0 ] || { echo "chromium and chromium-driver are missing: run 'sudo apt-get install chromium chromium-driver'" >&2; exit 1; }
bash "$(dirname "$0")/apt-install.sh" chromium chromium-driver || { echo "[browser] installing chromium failed" >&2; exit 1; }
