#!/usr/bin/env bash
# Runs a command with TMPDIR on a RAM disk (/dev/shm), in a directory of its own removed afterwards, when the
# RAM disk is a tmpfs that allows programs to run and has room; else runs it with TMPDIR unchanged.
#
# Why: the suite's temporary files (SQLite databases, Maildirs, archives) are fsynced thousands of times, as pbem
# does for real games; on a disk that is a third of some tests' time, on tmpfs it costs nothing. Only where the
# files are changes: the same code runs, with the same fsyncs.  RAM_TMP=none (or another directory) overrides.
set -euo pipefail
ram=${RAM_TMP:-/dev/shm}
need_kb=$((2 * 1024 * 1024))  # a whole run writes about 100 MB; leave room for Chromium's own use of /dev/shm

usable() {
  [ -d "$ram" ] && [ -w "$ram" ] || return 1
  [ "$(stat -f -c %T "$ram" 2>/dev/null)" = tmpfs ] || return 1
  [ "$(df -Pk "$ram" | awk 'NR == 2 { print $4 }')" -ge "$need_kb" ] || return 1
  return 0
}

if [ "$ram" != none ] && usable; then
  dir=$(mktemp -d "$ram/pbem-test.XXXXXX")
  trap 'rm -rf "$dir"' EXIT
  chmod 755 "$dir"  # others may go through it, as through /tmp (the units' tests check a dedicated user's way)
  # some tests run programs they write (a built wheel's venv): a noexec mount would fail them, so check
  printf '#!/bin/sh\nexit 0\n' >"$dir/probe" && chmod +x "$dir/probe"
  if "$dir/probe" 2>/dev/null; then
    rm -f "$dir/probe"
    export TMPDIR=$dir
    echo "ram-tmp: temporary files in $dir (RAM_TMP=none keeps them on disk)" >&2
  fi
fi
"$@"
