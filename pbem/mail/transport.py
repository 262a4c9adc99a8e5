"""Sending mail: SMTP (implicit TLS, STARTTLS or plain) and a local Maildir.

Failures come in two classes the outbox acts on:
`TemporaryFailure` (4xx, connection refused, timeout: retry later) and
`PermanentFailure` (5xx: give up). `ConfigFailure` is the permanent kind meaning
"fix the configuration" (login refused, certificate rejected, secret unavailable).
A failure's `scope` says whether it concerns the server (every mail waits) or only
this mail's recipients (the others can go).

A mail whose envelope or headers are not ASCII (``josé@exemple.fr``) is sent with
SMTPUTF8 when the server offers it; otherwise it fails permanently with that reason.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from pbem.mail.inbox import ensure_maildir
from pbem.mail.secrets import CredentialError

if TYPE_CHECKING:
    import smtplib
    import ssl

# smtplib and ssl are loaded by the `SmtpTransport` methods that use them, for speed: a cron's pass on a
# Maildir outbox never does, and TLS is a good part of its start (issue #24).  No circle is dodged: they
# are the standard library.

SecretProvider = Callable[[], str]
Security = Literal["ssl", "starttls", "none"]
Scope = Literal["server", "mail"]


class TransportFailure(Exception):
    """Base of sending failures.

    `code` is the SMTP reply code when there is one. `refused` maps recipients the server
    refused to (code, text). `delivered` lists recipients the server accepted in the same
    transaction: a caller retrying must not send to them again.
    """

    def __init__(
        self,
        message: str,
        code: int | None = None,
        refused: dict[str, tuple[int, str]] | None = None,
        delivered: list[str] | None = None,
        *,
        scope: Scope | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.refused = refused or {}
        self.delivered = delivered or []
        self.scope: Scope = scope or ("mail" if self.refused else "server")
        """``server``: the server is down, closing or stalled, every mail waits; ``mail``: only this one."""


class TemporaryFailure(TransportFailure):
    """Retry later: 4xx reply, connection refused or dropped, timeout."""


class PermanentFailure(TransportFailure):
    """Give up: 5xx reply on sender, recipient or data."""


class ConfigFailure(PermanentFailure):
    """Permanent and a configuration error: authentication refused, TLS certificate
    rejected, AUTH/STARTTLS unsupported, credentials unavailable."""


class Transport(Protocol):
    def send(self, message: bytes, mail_from: str, rcpt_to: list[str]) -> None: ...
    def close(self) -> None: ...


def _decode(resp: bytes | str) -> str:
    return resp.decode("utf-8", "replace") if isinstance(resp, bytes) else str(resp)


def _by_code(code: int, text: str, scope: Scope = "server") -> TransportFailure:
    cls = TemporaryFailure if 400 <= code < 500 else PermanentFailure
    return cls(f"{code} {text}", code=code, scope=scope)


def _scope_of(e: smtplib.SMTPResponseException) -> Scope:
    """Only a permanent refusal of DATA concerns this mail alone (its size or content): the sender is the
    same for every mail, a temporary DATA failure is the server's trouble, and so is anything at connection."""
    import smtplib

    if isinstance(e, smtplib.SMTPDataError) and e.smtp_code >= 500 and e.smtp_code != 521:
        return "mail"
    return "server"


def needs_smtputf8(message: bytes, mail_from: str, rcpt_to: list[str]) -> str | None:
    """The first non-ASCII address of the envelope, or ``"headers"``, when only SMTPUTF8 can carry the mail."""
    for addr in (mail_from, *rcpt_to):
        if not addr.isascii():
            return addr
    if not message.isascii():
        head = message.split(b"\r\n\r\n", 1)[0]
        if not head.isascii():
            return "headers"
    return None


class SmtpTransport:
    """One SMTP connection kept open across sends, reopened lazily when dropped."""

    def __init__(
        self,
        host: str,
        port: int,
        security: Security = "starttls",
        user: str | None = None,
        password_provider: SecretProvider | None = None,
        oauth2_token_provider: SecretProvider | None = None,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = 30,
        *,
        connect_timeout: float | None = None,
        cafile: str | None = None,
        local_hostname: str | None = None,
    ) -> None:
        """``connect_timeout`` bounds the TCP connection and the greeting (default: ``timeout``); ``timeout``
        bounds every later command's answer (a stalled server costs at most that per command)."""
        if security not in ("ssl", "starttls", "none"):
            raise ValueError(f"security must be 'ssl', 'starttls' or 'none', not {security!r}")
        if (password_provider or oauth2_token_provider) and not user:
            raise ValueError("a password or token needs a user")
        self.host, self.port, self.security = host, port, security
        self.user = user
        self.password_provider = password_provider
        self.oauth2_token_provider = oauth2_token_provider
        self.ssl_context = ssl_context
        self.cafile = cafile
        self.timeout = timeout
        self.connect_timeout = timeout if connect_timeout is None else connect_timeout
        self.local_hostname = local_hostname
        self.connections_opened = 0
        self._smtp: smtplib.SMTP | None = None

    def _where(self) -> str:
        return f"SMTP {self.host}:{self.port}"

    def _context(self) -> ssl.SSLContext:
        import ssl

        return self.ssl_context or ssl.create_default_context(cafile=self.cafile)

    # ---- connection

    def _open(self) -> smtplib.SMTP:
        """Connect, EHLO, STARTTLS, log in. Raises TransportFailure subclasses only."""
        import smtplib

        smtp: smtplib.SMTP | None = None
        try:
            if self.security == "ssl":
                smtp = smtplib.SMTP_SSL(
                    self.host,
                    self.port,
                    local_hostname=self.local_hostname,
                    timeout=self.connect_timeout,
                    context=self._context(),
                )
            else:
                smtp = smtplib.SMTP(
                    self.host, self.port, local_hostname=self.local_hostname, timeout=self.connect_timeout
                )
            self.connections_opened += 1
            if smtp.sock is not None:
                smtp.sock.settimeout(self.timeout)
            smtp.timeout = self.timeout  # STARTTLS wraps the socket again with this one
            smtp.ehlo()
            if self.security == "starttls":
                smtp.starttls(context=self._context())
                smtp.ehlo()
            self._login(smtp)
            return smtp
        except Exception as e:
            if smtp is not None:
                with contextlib.suppress(Exception):
                    smtp.close()
            err = self._translate(e, "connect")
            if err is e:
                raise
            raise err from e

    def _login(self, smtp: smtplib.SMTP) -> None:
        if self.user is None:
            return
        if self.oauth2_token_provider is not None:
            token = self.oauth2_token_provider()
            auth_string = f"user={self.user}\x01auth=Bearer {token}\x01\x01"

            def xoauth2(challenge: bytes | None = None) -> str:
                # a failed XOAUTH2 gets a 334 JSON challenge, answered by an empty line
                return auth_string if challenge is None else ""

            smtp.auth("XOAUTH2", xoauth2)
        elif self.password_provider is not None:
            smtp.login(self.user, self.password_provider())

    def _translate(self, e: Exception, what: str) -> Exception:
        import smtplib
        import ssl

        where = self._where()
        if isinstance(e, TransportFailure):
            return e
        if isinstance(e, CredentialError):
            return ConfigFailure(f"{where}: credentials unavailable: {e}")
        if isinstance(e, smtplib.SMTPAuthenticationError):
            text = _decode(e.smtp_error)
            if 400 <= e.smtp_code < 500:
                return TemporaryFailure(
                    f"{where}: login failed temporarily: {e.smtp_code} {text}", code=e.smtp_code
                )
            return ConfigFailure(
                f"{where}: login refused for {self.user}: {e.smtp_code} {text}", code=e.smtp_code
            )
        if isinstance(e, smtplib.SMTPNotSupportedError):
            return ConfigFailure(f"{where}: {what}: server does not support it: {e}")
        if isinstance(e, ssl.SSLCertVerificationError):
            return ConfigFailure(f"{where}: TLS certificate rejected: {e.verify_message or e}")
        if isinstance(e, smtplib.SMTPRecipientsRefused):
            return self._refused(e.recipients, [])
        if isinstance(e, UnicodeError):  # defence: a non-ASCII byte the checks before sending did not see
            return PermanentFailure(f"{where} {what}: cannot be encoded for SMTP: {e}", scope="mail")
        if isinstance(e, smtplib.SMTPResponseException):
            return _by_code(e.smtp_code, f"{_decode(e.smtp_error)} ({where} {what})", _scope_of(e))
        if isinstance(e, smtplib.SMTPServerDisconnected | OSError):
            return TemporaryFailure(f"{where} {what}: {type(e).__name__}: {e}")
        if isinstance(e, smtplib.SMTPException):
            return TemporaryFailure(f"{where} {what}: {type(e).__name__}: {e}")
        return e

    def _refused(self, refused: dict[str, tuple[int, bytes]], delivered: list[str]) -> TransportFailure:
        codes = {r: (code, _decode(text)) for r, (code, text) in refused.items()}
        detail = "; ".join(f"{r}: {c} {t}" for r, (c, t) in codes.items())
        temporary = any(400 <= c < 500 for c, _t in codes.values())
        cls = TemporaryFailure if temporary else PermanentFailure
        first = next(iter(codes.values()))[0] if codes else None
        return cls(
            f"{self._where()}: recipients refused: {detail}", code=first, refused=codes, delivered=delivered,
            scope="server" if any(c == 421 for c, _t in codes.values()) else "mail",
        )

    def close(self) -> None:
        import smtplib

        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            try:
                smtp.quit()
            except (smtplib.SMTPException, OSError):
                with contextlib.suppress(Exception):
                    smtp.close()

    # ---- sending

    def send(self, message: bytes, mail_from: str, rcpt_to: list[str]) -> None:
        import smtplib

        if not rcpt_to:
            raise PermanentFailure("no recipients", scope="mail")
        utf8 = needs_smtputf8(message, mail_from, rcpt_to)
        for attempt in (0, 1):
            fresh = self._smtp is None
            if self._smtp is None:
                self._smtp = self._open()
            smtp = self._smtp
            options: list[str] = []
            if utf8 is not None:
                if not smtp.has_extn("smtputf8"):
                    what = "its headers are" if utf8 == "headers" else f"the address {utf8} is"
                    raise PermanentFailure(
                        f"{self._where()} does not offer SMTPUTF8, and {what} not ASCII: this mail cannot be sent "
                        "through this server (a player must register with an ASCII address)", scope="mail")
                options = ["SMTPUTF8"]
            else:
                smtp.command_encoding = "ascii"  # a previous SMTPUTF8 transaction left it at utf-8
            try:
                refused = smtp.sendmail(mail_from, rcpt_to, message, mail_options=options)
            except (smtplib.SMTPServerDisconnected, ConnectionError) as e:
                self._drop()
                if "timed out" in str(e):  # smtplib reports a read timeout as a lost connection
                    raise TemporaryFailure(f"{self._where()}: no answer within {self.timeout:g} s") from e
                if fresh or attempt == 1:
                    raise TemporaryFailure(f"{self._where()}: connection lost while sending: {e}") from e
                continue  # the kept connection had been closed by the server: reopen once
            except smtplib.SMTPRecipientsRefused as e:  # all refused; smtplib has sent RSET
                raise self._refused(e.recipients, []) from e
            except Exception as e:
                if isinstance(e, OSError) and not isinstance(e, smtplib.SMTPException):
                    self._drop()  # a stalled or broken connection is never reused
                    if isinstance(e, TimeoutError):
                        raise TemporaryFailure(f"{self._where()}: no answer within {self.timeout:g} s") from e
                    raise TemporaryFailure(f"{self._where()}: {type(e).__name__}: {e}") from e
                err = self._translate(e, "send")
                if not isinstance(err, TransportFailure):
                    self._drop()
                    raise
                if err.code is None or err.code == 421:
                    self._drop()  # state unknown, or the server is closing: next send starts afresh
                raise err from e
            if refused:
                delivered = [r for r in rcpt_to if r not in refused]
                raise self._refused(refused, delivered)
            return

    def _drop(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            with contextlib.suppress(Exception):
                smtp.close()

    def check_login(self) -> None:
        """For `pbem doctor`: connect, EHLO, (STARTTLS), log in, QUIT. Sends nothing."""
        import smtplib

        smtp = self._open()
        with contextlib.suppress(smtplib.SMTPException, OSError):
            smtp.quit()


def clean_maildir_tmp(path: str | os.PathLike[str], stale_seconds: float) -> int:
    """Remove the files of a Maildir's tmp/ not modified for ``stale_seconds`` (half-written by a killed process);
    returns how many went.  Only plain files, never through a link."""
    cutoff = time.time() - stale_seconds
    removed = 0
    try:
        entries = list(os.scandir(Path(path) / "tmp"))
    except OSError:
        return 0
    for entry in entries:
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < cutoff:
                os.unlink(entry.path)
                removed += 1
        except OSError:  # gone meanwhile, or not ours to remove: the next pass tries again
            continue
    return removed


class MaildirTransport:
    """Writes each message, bytes exactly as given, into a Maildir (tmp/ then new/: atomic).
    The envelope is not recorded: the headers say who it is for.

    A process killed while writing leaves a half-written file in tmp/ (never in new/): opening
    the transport removes those older than ``stale_seconds`` (a write takes milliseconds; the
    Maildir convention allows removing them after 36 hours, this outbox is pbem's own).
    """

    def __init__(self, path: str | os.PathLike[str], *, stale_seconds: float = 3600) -> None:
        self.path = Path(path)
        self.box = ensure_maildir(self.path)
        self.last_key: str | None = None
        self.removed_stale = self.clean_tmp(stale_seconds)

    def clean_tmp(self, stale_seconds: float) -> int:
        """Remove the files of tmp/ not modified for ``stale_seconds``; returns how many went."""
        return clean_maildir_tmp(self.path, stale_seconds)

    def send(self, message: bytes, mail_from: str, rcpt_to: list[str]) -> None:
        if not rcpt_to:
            raise PermanentFailure("no recipients", scope="mail")
        try:
            self.last_key = self.box.add(message)
        except OSError as e:
            raise TemporaryFailure(f"cannot write to Maildir {self.path}: {e}") from e

    def close(self) -> None:
        pass
