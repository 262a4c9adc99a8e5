from __future__ import annotations

# ---------------------------------------------------------------- mail servers (scripts/mail-test-servers.sh)
# `make test` starts Dovecot + an SMTP sink on loopback and exports their ports (env.sh).
# Tests needing them are marked `mail`, live in tests/integration/, and FAIL (never skip)
# when the servers are not configured.
import base64
import hashlib
import hmac
import json
import os
import smtplib
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from imapclient import IMAPClient

# ---------------------------------------------------------------- Hypothesis: no wall-clock limits
# Hypothesis' default 200 ms deadline per example, and its "too slow" health check, time examples on the
# wall clock: on a loaded machine (two suites side by side, other jobs) a property test failed for being
# slow, not wrong.  Every property test of the suite inherits this profile (an explicit @settings keeps
# its own max_examples and inherits the rest); the bounds on time live in `make bench`.
settings.register_profile("pbem", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pbem")

_MAIL_VARS = (
    "MAIL_HOST MAIL_IMAP_PORT MAIL_IMAPS_PORT MAIL_IMAPS_CAFILE MAIL_SMTP_PORT MAIL_LMTP_PORT "
    "MAIL_SINK_MAILDIR MAIL_DOMAIN MAIL_PASSWORD MAIL_USERS_FILE MAIL_DOVECOT_CONF"
).split()


@dataclass(frozen=True)
class MailEnv:
    host: str
    imap_port: int
    imaps_port: int
    cafile: str
    smtp_port: int
    lmtp_port: int
    submission_port: int
    submissions_port: int
    sink_maildir: str
    domain: str
    password: str
    users_file: str
    dovecot_conf: str

    @property
    def svc_dir(self) -> Path:
        return Path(self.dovecot_conf).parent

    def addr(self, user: str) -> str:
        return user if "@" in user else f"{user}@{self.domain}"

    def mailbox_toml(self, user: str = "game", password_env: str = "MAIL_PASSWORD", folder: str = "INBOX") -> str:
        """The ``[mailbox]`` section of a config that reads ``user``'s box over implicit TLS."""
        return f"""[mailbox]
kind = "imap"
host = "{self.host}"
port = {self.imaps_port}
security = "ssl"
cafile = "{self.cafile}"
user = "{self.addr(user)}"
password_env = "{password_env}"
folder = "{folder}"
"""

    def imap(self, user: str) -> IMAPClient:
        """A logged-in plain-IMAP client (caller closes it: `with env.imap(u) as c:`)."""
        c = IMAPClient(self.host, port=self.imap_port, ssl=False, timeout=10)
        c.login(self.addr(user), self.password)
        return c

    def oauth2_token(self, user: str, *, lifetime: int = 3600, forged: bool = False) -> str:
        """An OAuth2 access token for ``user`` that the test Dovecot accepts (an HS256 JWT checked locally).

        ``lifetime`` < 0 gives an expired token, ``forged`` one signed with another key.
        """
        key_file = os.environ.get("MAIL_OAUTH2_KEY_FILE")
        if not key_file:
            pytest.fail("MAIL_OAUTH2_KEY_FILE unset: start the servers with scripts/mail-test-servers.sh")
        key = b"not the server's key" if forged else base64.b64decode(Path(key_file).read_text().strip())
        now = int(time.time())
        issued = min(now, now + lifetime - 60)

        def b64(data: bytes) -> str:
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
        body = b64(json.dumps({"sub": self.addr(user), "iat": issued, "nbf": issued, "exp": now + lifetime}).encode())
        signature = b64(hmac.new(key, f"{head}.{body}".encode(), hashlib.sha256).digest())
        return f"{head}.{body}.{signature}"

    def deliver(self, user: str, raw: bytes, mail_from: str = "sender@example.org") -> None:
        """Deliver into the user's INBOX through Dovecot's LMTP (as an MTA would)."""
        with smtplib.LMTP(self.host, self.lmtp_port) as lmtp:
            lmtp.sendmail(mail_from, [self.addr(user)], raw)

    def clear(self, user: str, folder: str = "INBOX") -> None:
        """Empty a folder (INBOX) or delete it (others); also deletes pbem-test-* folders."""
        with self.imap(user) as c:
            for _flags, _delim, name in c.list_folders():
                if name != "INBOX" and (name == folder or name.startswith("pbem-test")):
                    c.delete_folder(name)
            c.select_folder("INBOX")
            uids = c.search(["ALL"])
            if uids:
                c.delete_messages(uids)
                c.expunge()

    def restart_dovecot(self) -> None:
        script = Path(__file__).resolve().parents[1] / "scripts" / "mail-test-servers.sh"
        env = dict(os.environ, MAILSVC_DIR=str(self.svc_dir))
        subprocess.run(["bash", str(script), "restart-dovecot"], check=True, env=env, capture_output=True)

    def sink_fail(self, spec: str | None) -> None:
        """Make the SMTP sink answer e.g. "451" (to RCPT) or "550 data"; None heals it."""
        path = self.svc_dir / "sink.fail"
        if spec is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(spec + "\n")


@pytest.fixture(scope="session")
def mail_env() -> MailEnv:
    missing = [v for v in _MAIL_VARS if not os.environ.get(v)]
    if missing:
        pytest.fail(
            f"mail test servers not configured ({', '.join(missing)} unset): run via `make test`, or "
            "`bash scripts/mail-test-servers.sh run .venv/bin/pytest tests/...` (servers of its own for that run)",
            pytrace=False,
        )
    e = os.environ
    if e["MAIL_HOST"] not in ("127.0.0.1", "::1", "localhost"):
        pytest.fail(f"MAIL_HOST={e['MAIL_HOST']} is not loopback: tests only talk to local test servers")
    return MailEnv(
        host=e["MAIL_HOST"],
        imap_port=int(e["MAIL_IMAP_PORT"]),
        imaps_port=int(e["MAIL_IMAPS_PORT"]),
        cafile=e["MAIL_IMAPS_CAFILE"],
        smtp_port=int(e["MAIL_SMTP_PORT"]),
        lmtp_port=int(e["MAIL_LMTP_PORT"]),
        submission_port=int(e.get("MAIL_SUBMISSION_PORT", "10587")),
        submissions_port=int(e.get("MAIL_SUBMISSIONS_PORT", "10465")),
        sink_maildir=e["MAIL_SINK_MAILDIR"],
        domain=e["MAIL_DOMAIN"],
        password=e["MAIL_PASSWORD"],
        users_file=e["MAIL_USERS_FILE"],
        dovecot_conf=e["MAIL_DOVECOT_CONF"],
    )


# ---------------------------------------------------------------- end of mail servers section


# ---------------------------------------------------------------- the demo's games, played once per session


@pytest.fixture(scope="session")
def demo_games(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Every game of `pbem demo`, played once (by mail, as the demo plays them) and kept open for reading:
    the golden set, the pictures, the archive and the by-mail tests of the same games share it
    (`recorded.DemoGames`).  Tests must only read them."""
    from recorded import play_demos

    games = play_demos(tmp_path_factory.mktemp("demo"))
    yield games
    games.close()


@pytest.fixture(scope="session")
def recorded_games(demo_games):  # type: ignore[no-untyped-def]
    """Whole games played by mail as `pbem demo` plays them (Intrigue, Pour Ma Belle, 1626), kept open for reading."""
    return {name: demo_games.games[name] for name in ("intrigue", "pmb", "1626")}


@pytest.fixture(scope="session")
def archives(recorded_games, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """`pbem archive` of each recorded game: {game: Archive}."""
    from pbem.archive import build

    root = tmp_path_factory.mktemp("archives")
    return {name: build(d.engine, d.game_id, root / name) for name, d in recorded_games.items()}


# ---------------------------------------------------------------- running in parallel (pytest-xdist)
# `make test` runs the suite on two workers (-n 2 --dist loadgroup).  Tests that share something a worker
# makes once go to one worker as one group: the loopback mail servers' mailboxes (every `mail` test: they
# clear and fill the same users), the demo's games (a session fixture, played once per worker that asks).
SHARED_FIXTURE_GROUPS = {"demo_games": "demo", "recorded_games": "demo", "archives": "demo"}


def xdist_group_of(item: pytest.Item) -> str | None:
    if item.get_closest_marker("mail") is not None:
        return "mail"
    for name in getattr(item, "fixturenames", ()):
        if name in SHARED_FIXTURE_GROUPS:
            return SHARED_FIXTURE_GROUPS[name]
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the marks (it names each test's group in its node id)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks each test of a shared group with its xdist_group (a test may also name one itself).  Each group
    is one unit of work for one worker; xdist hands out the largest units first."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            name = xdist_group_of(item)
            if name is not None:
                item.add_marker(pytest.mark.xdist_group(name))


@pytest.hookimpl(trylast=True)  # after xdist has written each test's group into its node id
def pytest_collection_finish(session: pytest.Session) -> None:
    """On an xdist worker with --dist loadgroup, every grouped test must carry its group in its node id (that
    is how xdist hands a group to one worker).  A pytest that drops it (9.2 with xdist 3.8) would spread the
    mail tests over both workers, where they stop and clear each other's servers: stop at once instead."""
    if not getattr(session.config.option, "loadgroup", False):  # (set on the workers of --dist loadgroup)
        return
    lost = [item.nodeid for item in session.items
            if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid.rsplit("]", 1)[-1]]
    if lost:
        raise pytest.UsageError(f"pytest-xdist could not group {len(lost)} tests (e.g. {lost[0]}): this pytest and "
                                "pytest-xdist do not work together with --dist loadgroup; see pyproject.toml")


def pytest_configure(config: pytest.Config) -> None:
    """The known case of the above, said before any worker starts: pytest 9.2 with pytest-xdist 3.8 or older."""
    if config.getoption("dist", "no") != "loadgroup" or hasattr(config, "workerinput"):
        return
    import xdist

    if pytest.version_tuple[:2] >= (9, 2) and tuple(int(x) for x in xdist.__version__.split(".")[:2]) <= (3, 8):
        raise pytest.UsageError(f"pytest {pytest.__version__} with pytest-xdist {xdist.__version__} loses the test "
                                "groups of --dist loadgroup (pytest-dev/pytest-xdist#1386): install the versions "
                                "pyproject.toml asks for (make venv), or run without -n")
