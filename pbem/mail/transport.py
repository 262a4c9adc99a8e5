"""Sending mail: SMTP (implicit TLS, STARTTLS or plain) and a local Maildir.

Failures come in two classes the outbox acts on:
`TemporaryFailure` (4xx, connection refused, timeout: retry later) and
`PermanentFailure` (5xx: give up). `ConfigFailure` is the permanent kind meaning
"fix the configuration" (login refused, certificate rejected, secret unavailable).
"""

from __future__ import annotations

import contextlib
import os
import smtplib
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Literal, Protocol

from pbem.mail.inbox import CredentialError, ensure_maildir

SecretProvider = Callable[[], str]
Security = Literal["ssl", "starttls", "none"]


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
    ) -> None:
        super().__init__(message)
        self.code = code
        self.refused = refused or {}
        self.delivered = delivered or []


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


def _by_code(code: int, text: str) -> TransportFailure:
    cls = TemporaryFailure if 400 <= code < 500 else PermanentFailure
    return cls(f"{code} {text}", code=code)


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
        cafile: str | None = None,
        local_hostname: str | None = None,
    ) -> None:
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
        self.local_hostname = local_hostname
        self.connections_opened = 0
        self._smtp: smtplib.SMTP | None = None

    def _where(self) -> str:
        return f"SMTP {self.host}:{self.port}"

    def _context(self) -> ssl.SSLContext:
        return self.ssl_context or ssl.create_default_context(cafile=self.cafile)

    # ---- connection

    def _open(self) -> smtplib.SMTP:
        """Connect, EHLO, STARTTLS, log in. Raises TransportFailure subclasses only."""
        smtp: smtplib.SMTP | None = None
        try:
            if self.security == "ssl":
                smtp = smtplib.SMTP_SSL(
                    self.host,
                    self.port,
                    local_hostname=self.local_hostname,
                    timeout=self.timeout,
                    context=self._context(),
                )
            else:
                smtp = smtplib.SMTP(
                    self.host, self.port, local_hostname=self.local_hostname, timeout=self.timeout
                )
            self.connections_opened += 1
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
        if isinstance(e, smtplib.SMTPResponseException):
            return _by_code(e.smtp_code, f"{_decode(e.smtp_error)} ({where} {what})")
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
            f"{self._where()}: recipients refused: {detail}", code=first, refused=codes, delivered=delivered
        )

    def close(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            try:
                smtp.quit()
            except (smtplib.SMTPException, OSError):
                with contextlib.suppress(Exception):
                    smtp.close()

    # ---- sending

    def send(self, message: bytes, mail_from: str, rcpt_to: list[str]) -> None:
        if not rcpt_to:
            raise PermanentFailure("no recipients")
        for attempt in (0, 1):
            fresh = self._smtp is None
            if self._smtp is None:
                self._smtp = self._open()
            smtp = self._smtp
            try:
                refused = smtp.sendmail(mail_from, rcpt_to, message)
            except (smtplib.SMTPServerDisconnected, ConnectionError) as e:
                self._drop()
                if fresh or attempt == 1:
                    raise TemporaryFailure(f"{self._where()}: connection lost while sending: {e}") from e
                continue  # the kept connection had been closed by the server: reopen once
            except smtplib.SMTPRecipientsRefused as e:  # all refused; smtplib has sent RSET
                raise self._refused(e.recipients, []) from e
            except Exception as e:
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
        smtp = self._open()
        with contextlib.suppress(smtplib.SMTPException, OSError):
            smtp.quit()


class MaildirTransport:
    """Writes each message, bytes exactly as given, into a Maildir (tmp/ then new/: atomic).
    The envelope is not recorded: the headers say who it is for."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.box = ensure_maildir(self.path)
        self.last_key: str | None = None

    def send(self, message: bytes, mail_from: str, rcpt_to: list[str]) -> None:
        if not rcpt_to:
            raise PermanentFailure("no recipients")
        try:
            self.last_key = self.box.add(message)
        except OSError as e:
            raise TemporaryFailure(f"cannot write to Maildir {self.path}: {e}") from e

    def close(self) -> None:
        pass
