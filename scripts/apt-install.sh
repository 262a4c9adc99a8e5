#!/usr/bin/env bash
# scripts/apt-install.sh PKG... - install Debian packages for `make venv`, `make test` and `make bench`,
# waiting instead of failing when something else uses apt or dpkg.
#
# - Our own runs (two `make test` in two clones at once) take turns on a lock file; the one that comes
#   second finds the packages installed and installs nothing.
# - Another apt (unattended-upgrades, an admin) holding the dpkg lock or the package lists lock: apt-get
#   waits for the dpkg lock (DPkg::Lock::Timeout) and `apt-get update` is tried again while the lists are
#   locked, for APT_WAIT_SECONDS at most (default 1800).
# - The packages' init scripts are kept from starting system-wide services (a Dovecot on 143/993).
# Output goes to a log; on failure its end is shown. Must run as root.
set -euo pipefail

APT_WAIT_SECONDS=${APT_WAIT_SECONDS:-1800}
APT_RETRY_SECONDS=${APT_RETRY_SECONDS:-5}        # between two tries while another apt holds a lock
LOCK=${PBEM_APT_LOCK:-/tmp/pbem-apt.lock}
POLICY_RC=${PBEM_POLICY_RC:-/usr/sbin/policy-rc.d}  # (the tests point these two elsewhere)

[ $# -gt 0 ] || { echo "usage: $0 PKG..." >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "need root to install $*: run 'sudo apt-get install $*' and try again" >&2; exit 1; }

exec 9>>"$LOCK"
if ! flock -n 9; then
  echo "[apt] another pbem run is installing packages: waiting for it" >&2
  flock -w "$APT_WAIT_SECONDS" 9 || { echo "[apt] still busy after ${APT_WAIT_SECONDS}s: giving up" >&2; exit 1; }
fi

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]; }
need=()
for p in "$@"; do installed "$p" || need+=("$p"); done
[ ${#need[@]} -eq 0 ] && exit 0

log=$(mktemp /tmp/pbem-apt.XXXXXX.log)
started=$SECONDS
apt_get() {  # apt-get "$@", again while another apt holds a lock it does not wait for by itself
  local rc
  while :; do
    rc=0
    DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout="$APT_WAIT_SECONDS" "$@" >>"$log" 2>&1 || rc=$?
    [ $rc = 0 ] && return 0
    if tail -5 "$log" | grep -qE 'Could not get lock|Unable to lock|is another process using it' &&
       [ $((SECONDS - started)) -lt "$APT_WAIT_SECONDS" ]; then
      [ -n "${said_wait:-}" ] || { echo "[apt] another apt or dpkg is running: waiting for it" >&2; said_wait=1; }
      sleep "$APT_RETRY_SECONDS"
      continue
    fi
    return $rc
  done
}

made_policy=0
if [ ! -e "$POLICY_RC" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$POLICY_RC"; chmod 755 "$POLICY_RC"; made_policy=1
fi
trap 'if [ $made_policy = 1 ]; then rm -f "$POLICY_RC"; fi' EXIT
echo "[apt] apt-get install ${need[*]}" >&2
rc=0
{ apt_get update && apt_get install -y --no-install-recommends "${need[@]}"; } || rc=$?
if [ $rc != 0 ]; then
  tail -20 "$log" >&2
  echo "[apt] apt-get failed (see $log)" >&2
  exit $rc
fi
rm -f "$log"
