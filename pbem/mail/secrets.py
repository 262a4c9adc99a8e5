"""The secrets a mailbox logs in with (a password or an OAuth2 token), read when needed: from an environment
variable, or from a command's output (a password manager, a token-refresh helper); never kept in the config."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable
from typing import Protocol

SecretProvider = Callable[[], str]


class CredentialError(Exception):
    """A password or token could not be obtained (missing variable, failing command)."""


def password_from_env(var: str) -> SecretProvider:
    """A provider reading the secret from environment variable `var` at each login."""

    def provide() -> str:
        value = os.environ.get(var)
        if not value:
            raise CredentialError(f"environment variable {var} is not set or empty")
        return value

    return provide


def password_from_command(cmd: str, timeout: float = 30.0) -> SecretProvider:
    """A provider running `cmd` (split with shlex, no shell) at each login; its stdout, stripped,
    is the secret. Works for OAuth2 access tokens too (e.g. a token-refresh helper)."""
    args = shlex.split(cmd)
    if not args:
        raise CredentialError("empty password command")

    def provide() -> str:
        try:
            done = subprocess.run(args, capture_output=True, timeout=timeout, check=False)
        except FileNotFoundError as e:
            raise CredentialError(f"password command {args[0]!r} not found") from e
        except subprocess.TimeoutExpired as e:
            raise CredentialError(f"password command {args[0]!r} timed out after {timeout:g}s") from e
        except OSError as e:
            raise CredentialError(f"password command {args[0]!r} could not run: {e}") from e
        if done.returncode != 0:
            err = done.stderr.decode("utf-8", "replace").strip().splitlines()
            tail = f": {err[-1]}" if err else ""
            raise CredentialError(
                f"password command {args[0]!r} failed with exit code {done.returncode}{tail}"
            )
        value = done.stdout.decode("utf-8", "replace").strip()
        if not value:
            raise CredentialError(f"password command {args[0]!r} printed nothing")
        return value

    return provide


class SecretSourceLike(Protocol):
    """Where a secret comes from (`pbem.config.SecretSource`): an environment variable or a command."""

    @property
    def env(self) -> str | None: ...
    @property
    def command(self) -> str | None: ...


def secret_provider(source: SecretSourceLike | None) -> SecretProvider | None:
    """A provider for a configured secret (read when needed), or None when nothing is configured."""
    if source is None:
        return None
    if source.env:
        return password_from_env(source.env)
    if source.command:
        return password_from_command(source.command)
    return None
