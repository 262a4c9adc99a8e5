"""Two runs of the loopback servers on one machine leave each other alone (`mail-test-servers.sh run`).

Before, a second `make test` (another clone) stopped the first one's servers and wiped its mail: one
directory and fixed ports for all.  Here a second set is started and stopped while this run's servers
hold a mail: the second gets its own directory and ports, removes its directory after, and this run's
servers still answer with the mail still there.
"""

from __future__ import annotations

import os
import smtplib
import subprocess
import uuid
from pathlib import Path

import pytest
from helpers import make_mail

pytestmark = pytest.mark.mail

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "mail-test-servers.sh"


def test_a_second_set_of_servers_gets_its_own_place_and_leaves_ours_alone(mail_env):
    subject = f"isolation {uuid.uuid4()}"
    mail_env.deliver("p39", make_mail("x@pbem.test", "hello", subject=subject, to=mail_env.addr("p39")))
    # the environment of another clone's `make test`: none of this run's server variables
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MAIL_") and k not in ("MAILSVC_DIR", "PORT_OFFSET")}
    show = 'echo "$MAILSVC_DIR $MAIL_IMAP_PORT $MAIL_SMTP_PORT $MAIL_LMTP_PORT"; exit 7'
    done = subprocess.run(["bash", str(SCRIPT), "run", "bash", "-c", show], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 7, done.stderr  # the command's own exit status
    other_dir, *ports = done.stdout.split()
    assert Path(other_dir) != mail_env.svc_dir and Path(other_dir).parent == Path("/tmp")
    assert not Path(other_dir).exists()  # made for that run, removed after it
    ours = {mail_env.imap_port, mail_env.imaps_port, mail_env.smtp_port, mail_env.lmtp_port,
            mail_env.submission_port, mail_env.submissions_port}
    assert not ours & {int(p) for p in ports}
    # ours still run, with their mail
    with mail_env.imap("p39") as c:
        c.select_folder("INBOX", readonly=True)
        assert c.search(["SUBJECT", subject])
    with smtplib.SMTP(mail_env.host, mail_env.smtp_port, timeout=10) as s:
        assert s.noop()[0] == 250
