"""`make bench`: pbem's figures, each beside a bare floor measured in the same run and beside its target.

Not part of the package that ships (pyproject.toml finds ``pbem*`` only) and not a test: the numbers
depend on the machine; ratios to a floor measured alternately with pbem are what compare across runs.
``python -m bench`` runs every figure, ``python -m bench NAME …`` some of them, ``--quick`` all of them at
small sizes (what tests/test_bench_smoke.py runs).  One module per figure, over `bench.harness`:

1. ``ingest``: durable ingest of stored order mails vs a parse-store-answer floor;
2. and 4. ``imap``: IMAP ingest from Dovecot vs a bare imapclient fetch; round trips per poll;
3. ``smtp``: sending from the outbox vs a bare smtplib loop;
5. ``rss``: the daemon's idle memory;
6. ``pmb``: Pour Ma Belle's resolution by player count for six bot seeds, the worst judged;
7. ``hosting``: a hosting day of 100 games in one database vs the same games alone;
8. ``latency``: ack latency on IMAP IDLE, and pbem's addition over a bare IDLE client;
9. ``hostile``: each reader of untrusted input at 100 KB and at 1 MB;
10. ``turn``: the full engine turn of Pour Ma Belle, CPU and peak memory;
11. ``1626``: a 1626 session's cost per mail, early and late;
12. ``coldstart``: an empty-inbox ``pbem tick`` vs the import floor;
13. ``png``: the PNG level of the board pictures;
14. ``archive``: a live archive's refresh after a published step, at N and 2N steps.

The figures of 2, 3 and 8 need the loopback mail servers (``make bench`` starts a set of its own:
``bash scripts/mail-test-servers.sh run .venv/bin/python -m bench``); without them they are reported
as skipped.
"""

FIGURES: dict[str, str] = {
    "ingest": "bench.ingest",
    "imap": "bench.imap",
    "smtp": "bench.smtp",
    "rss": "bench.rss",
    "hosting": "bench.hosting",
    "latency": "bench.latency",
    "hostile": "bench.hostile",
    "pmb": "bench.pmb",
    "turn": "bench.turn",
    "1626": "bench.mail_1626",
    "coldstart": "bench.coldstart",
    "png": "bench.png",
    "archive": "bench.archive",
}
"""Figure name -> its module, in the order of a full run (the order of the earlier scripts/bench.py)."""
