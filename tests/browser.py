"""A headless Chromium driven through chromedriver's WebDriver API (plain HTTP on loopback, standard library only).

Uses Debian's ``chromium`` and ``chromium-driver`` (installed by ``make test``, scripts/browser-test-deps.sh);
no tool downloads a browser.  Chromium runs with a fresh profile and without background networking:
the network here is closed, and the pages under test fetch nothing from elsewhere anyway.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--window-size=1280,1600"]


def missing() -> str | None:
    """Why the browser cannot run here (None: it can)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).is_file():
            return f"{path} is missing: `make test` installs Debian's chromium and chromium-driver"
    return None


class Browser:
    """One chromedriver and one Chromium session; `close` ends both (only the processes started here)."""

    def __init__(self, profile: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.driver = subprocess.Popen([CHROMEDRIVER, f"--port={port}", "--allowed-ips=127.0.0.1"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                if self._call("GET", "/status")["value"].get("ready"):
                    break
            except (urllib.error.URLError, ConnectionError):
                pass
            if time.monotonic() > deadline or self.driver.poll() is not None:
                self.driver.terminate()
                raise RuntimeError("chromedriver did not start")
            time.sleep(0.2)
        caps = {"browserName": "chrome", "goog:loggingPrefs": {"browser": "ALL"},
                "goog:chromeOptions": {"binary": CHROMIUM, "args": [*FLAGS, f"--user-data-dir={profile}"]}}
        self.session = self._call("POST", "/session", {"capabilities": {"alwaysMatch": caps}})["value"]["sessionId"]
        self.profile = profile

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:  # loopback only: the driver started above
                return json.loads(r.read())
        except urllib.error.HTTPError as e:  # the driver says why in its body
            raise RuntimeError(f"chromedriver {method} {path}: {e.code} {e.read()[:800]!r}") from None

    def _session(self, method: str, path: str, body: Any = None) -> Any:
        return self._call(method, f"/session/{self.session}{path}", body)["value"]

    def open(self, url: str) -> None:
        self._session("POST", "/url", {"url": url})

    def run(self, script: str) -> Any:
        return self._session("POST", "/execute/sync", {"script": script, "args": []})

    def console(self) -> list[dict[str, Any]]:
        """The browser's log entries since the last call (console messages, failed loads)."""
        entries: list[dict[str, Any]] = self._session("POST", "/se/log", {"type": "browser"})
        return entries

    def screenshot(self, path: Path) -> None:
        import base64

        path.write_bytes(base64.b64decode(self._session("GET", "/screenshot")))

    def close(self) -> None:
        try:
            self._call("DELETE", f"/session/{self.session}")
        finally:
            self.driver.terminate()
            try:
                self.driver.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.driver.kill()
            shutil.rmtree(self.profile, ignore_errors=True)
