"""scripts/apt-install.sh waits for another apt instead of failing (two `make test` at once, unattended-upgrades).

The real apt-get and dpkg-query are replaced by stand-ins on PATH: an apt-get that says another process holds
its lock a given number of times, then works, and records what it was asked.  Nothing is installed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "apt-install.sh"

APT_GET = """#!/bin/sh
# stand-in: refuse with a lock message while $STUB_DIR/busy holds a number above 0, then work
echo "$*" >> "$STUB_DIR/calls"
n=$(cat "$STUB_DIR/busy" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ]; then
  echo $((n - 1)) > "$STUB_DIR/busy"
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
  exit 100
fi
if [ -e "$STUB_DIR/broken" ]; then echo "E: Unable to locate package nosuch" >&2; exit 100; fi
exit 0
"""


def _run(tmp_path: Path, *, busy: int, broken: bool = False, wait: int = 60) -> tuple[subprocess.CompletedProcess[str],
                                                                                        list[str]]:
    stubs = tmp_path / "bin"
    stubs.mkdir(exist_ok=True)
    (stubs / "apt-get").write_text(APT_GET)
    (stubs / "dpkg-query").write_text("#!/bin/sh\nexit 1\n")  # nothing is installed
    for stub in stubs.iterdir():
        stub.chmod(0o755)
    (tmp_path / "busy").write_text(str(busy))
    if broken:
        (tmp_path / "broken").touch()
    env = dict(os.environ, PATH=f"{stubs}:{os.environ['PATH']}", STUB_DIR=str(tmp_path), APT_WAIT_SECONDS=str(wait),
               APT_RETRY_SECONDS="0.05", PBEM_APT_LOCK=str(tmp_path / "apt.lock"),
               PBEM_POLICY_RC=str(tmp_path / "policy-rc.d"))
    done = subprocess.run(["bash", str(SCRIPT), "chromium", "chromium-driver"], env=env, capture_output=True,
                          text=True, timeout=120)
    calls = (tmp_path / "calls").read_text().splitlines() if (tmp_path / "calls").exists() else []
    assert not (tmp_path / "policy-rc.d").exists()  # what it put there to keep services down, it took away
    return done, calls


def test_it_waits_while_another_apt_holds_the_lock_then_installs(tmp_path):
    done, calls = _run(tmp_path, busy=3)
    assert done.returncode == 0, done.stderr
    assert "another apt or dpkg is running: waiting for it" in done.stderr
    assert [c.split()[-1] for c in calls] == ["update"] * 4 + ["chromium-driver"]
    assert calls[-1].endswith("install -y --no-install-recommends chromium chromium-driver")
    assert all("DPkg::Lock::Timeout=60" in c for c in calls)  # and apt-get itself waits for dpkg's lock


def test_another_failure_is_not_waited_for(tmp_path):
    done, calls = _run(tmp_path, busy=0, broken=True)
    assert done.returncode != 0 and "apt-get failed" in done.stderr and "Unable to locate package" in done.stderr
    assert len(calls) == 1


def test_it_gives_up_after_apt_wait_seconds(tmp_path):
    done, calls = _run(tmp_path, busy=10**6, wait=1)
    assert done.returncode != 0 and "Could not get lock" in done.stderr
    assert 1 < len(calls) < 10**6
