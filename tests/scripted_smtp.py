"""A loopback SMTP server whose faults a test scripts: reply codes, dropped connections, stalls.

The shared sink (`scripts/mail-test-servers.sh`) answers one injected code per command; the
fault campaign needs more: a server that drops the connection, stalls before answering, offers
SMTPUTF8 or not.  This one speaks enough SMTP for smtplib (EHLO/HELO, MAIL, RCPT, DATA, RSET,
NOOP, QUIT), listens on 127.0.0.1 only, and keeps every accepted message (in memory, and in a
Maildir when given one, for a server run as its own process).

Faults are rules ``(stage, action)``: stage ``connect`` (before the greeting), ``ehlo``,
``mail``, ``rcpt`` (or ``rcpt=<address>`` for one recipient), ``data`` (after the message is
received) or ``any``; action a reply code
(``421``, ``451``, ``550``...), ``drop`` (close the connection without a word) or ``stall:S``
(wait S seconds, then go on).  They are set with `set_faults`, or read from ``fault_file`` at
every command when the server runs in another process (one rule a line: ``data 451``).

    python tests/scripted_smtp.py PORT MAILDIR FAULT_FILE [--smtputf8]
"""

from __future__ import annotations

import mailbox
import socket
import socketserver
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

STAGES = ("connect", "ehlo", "mail", "rcpt", "data", "any")


@dataclass
class Received:
    mail_from: str
    rcpt_to: list[str]
    data: bytes
    options: list[str] = field(default_factory=list)


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.request.settimeout(120)

    def reply(self, text: str) -> None:
        self.wfile.write(text.encode() + b"\r\n")
        self.wfile.flush()

    def fault(self, stage: str, also: str = "") -> str:
        """Apply the faults of a stage (and of ``any``, and ``also``: ``rcpt=<address>``): ``go`` on, ``skip``
        the command (answered with a code), or ``end`` the connection (dropped, 421, or any code at connection)."""
        owner = self.server.owner
        for action in owner.actions(stage) + owner.actions("any") + (owner.actions(also) if also else []):
            if action == "drop":
                self.server.owner.count("dropped")
                return "end"
            if action.startswith("stall:"):
                self.server.owner.count("stalled")
                time.sleep(float(action.split(":", 1)[1]))
                continue
            if action[:1] in "45" and action.isdigit():
                self.server.owner.count(f"answered {action}")
                self.reply(f"{action} {'4.3.0 Temporary' if action[0] == '4' else '5.7.1 Permanent'} failure (scripted)")
                return "end" if action == "421" or stage == "connect" else "skip"
        return "go"

    def handle(self) -> None:
        owner = self.server.owner
        owner.count("connections")
        if self.fault("connect") != "go":
            return
        self.reply("220 scripted.test ESMTP")
        mail_from: str | None = None
        options: list[str] = []
        rcpts: list[str] = []
        while True:
            line = self.rfile.readline()
            if not line:
                return
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            verb = text.split(" ", 1)[0].upper()
            stage = {"EHLO": "ehlo", "HELO": "ehlo", "MAIL": "mail", "RCPT": "rcpt"}.get(verb)
            if stage:
                also = f"rcpt={text[8:].strip().strip('<>').lower()}" if stage == "rcpt" else ""
                verdict = self.fault(stage, also)
                if verdict == "end":
                    return
                if verdict == "skip":
                    if stage == "mail":
                        mail_from = None
                    continue
            if verb in ("EHLO", "HELO"):
                extensions = ["8BITMIME", "SIZE 10240000"] + (["SMTPUTF8"] if owner.smtputf8 else [])
                if verb == "HELO":
                    self.reply("250 scripted.test")
                else:
                    self.reply("\r\n".join(["250-scripted.test"] + [f"250-{x}" for x in extensions[:-1]]
                                           + [f"250 {extensions[-1]}"]))
            elif verb == "MAIL":
                args = text[10:].strip()
                addr, _, rest = args.partition(">")
                mail_from, options, rcpts = addr.lstrip("<"), rest.split(), []
                if any(o.upper() == "SMTPUTF8" for o in options) and not owner.smtputf8:
                    self.reply("555 5.5.4 SMTPUTF8 not offered")
                    mail_from = None
                    continue
                if not text.isascii() and not any(o.upper() == "SMTPUTF8" for o in options):
                    self.reply("553 5.6.7 non-ASCII address without SMTPUTF8")
                    mail_from = None
                    continue
                self.reply("250 2.1.0 OK")
            elif verb == "RCPT":
                if mail_from is None:
                    self.reply("503 5.5.1 MAIL first")
                    continue
                rcpts.append(text[8:].strip().strip("<>"))
                self.reply("250 2.1.5 OK")
            elif verb == "DATA":
                if not rcpts:
                    self.reply("503 5.5.1 RCPT first")
                    continue
                self.reply("354 go ahead")
                chunks: list[bytes] = []
                while True:
                    row = self.rfile.readline()
                    if not row:
                        return
                    if row in (b".\r\n", b".\n"):
                        break
                    chunks.append(row[1:] if row.startswith(b"..") else row)
                verdict = self.fault("data")
                if verdict == "end":
                    return
                if verdict == "skip":
                    mail_from, rcpts = None, []
                    continue
                owner.accept(Received(mail_from or "", rcpts, b"".join(chunks), options))
                mail_from, rcpts = None, []
                self.reply("250 2.0.0 accepted")
            elif verb == "RSET":
                mail_from, rcpts = None, []
                self.reply("250 2.0.0 OK")
            elif verb == "NOOP":
                self.reply("250 2.0.0 OK")
            elif verb == "QUIT":
                self.reply("221 2.0.0 bye")
                return
            else:
                self.reply("502 5.5.2 not implemented")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: ScriptedSmtp

    def handle_error(self, request: object, client_address: object) -> None:
        """A client killed mid-session resets its connection: that is the campaign, not an error."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class ScriptedSmtp:
    """The server: `start` it, point `SmtpTransport` at ``127.0.0.1:port``, read `received`, `stop` it."""

    def __init__(self, port: int = 0, *, smtputf8: bool = False, maildir: str | Path | None = None,
                 fault_file: str | Path | None = None) -> None:
        self.smtputf8 = smtputf8
        self.fault_file = Path(fault_file) if fault_file else None
        self.box = mailbox.Maildir(str(maildir), create=True) if maildir else None
        self.received: list[Received] = []
        self.counts: dict[str, int] = {}
        self._faults: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", port), _Handler)
        self._server.owner = self
        self.port = self._server.server_address[1]
        self._thread: threading.Thread | None = None

    def start(self) -> ScriptedSmtp:
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="scripted-smtp", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> ScriptedSmtp:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def set_faults(self, *rules: tuple[str, str]) -> None:
        """Replace the faults: ``("data", "451")``, ``("connect", "drop")``, ``("any", "stall:2")``; none heals."""
        for stage, _action in rules:
            if stage not in STAGES and not stage.startswith("rcpt="):
                raise ValueError(f"unknown stage {stage!r}")
        with self._lock:
            self._faults = list(rules)

    def actions(self, stage: str) -> list[str]:
        rules = self._faults
        if self.fault_file is not None:
            try:
                rules = [(w[0], w[1]) for w in (ln.split() for ln in self.fault_file.read_text().splitlines())
                         if len(w) == 2]
            except OSError:
                rules = []
        return [action for s, action in rules if s == stage]

    def count(self, what: str) -> None:
        with self._lock:
            self.counts[what] = self.counts.get(what, 0) + 1

    def accept(self, item: Received) -> None:
        with self._lock:
            self.received.append(item)
            if self.box is not None:
                self.box.add(item.data)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    port, maildir, fault_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    server = ScriptedSmtp(port, smtputf8="--smtputf8" in sys.argv, maildir=maildir, fault_file=fault_file)
    server.start()
    print(f"scripted SMTP on 127.0.0.1:{server.port}", flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        server.stop()
