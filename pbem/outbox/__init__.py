"""The durable outbox: a mail composed once, queued with a stable Message-ID, sent until it goes.

* `compose`: a `Letter` into its bytes and its Message-ID, and into its row of the queue (`queue`);
* `batch`: the engine's letters and "message done" marks, written at once or held until the batch of
  mail being processed ends (`Outgoing`);
* `sending`: the queued bytes sent, with retries (`send_due`), and failed mail queued again (`retry`).

The queue's rows are the store's (`pbem.store.outbox`).
"""

from pbem.outbox.compose import (
           KINDS,
           Attachment,
           Letter,
           compose,
           compose_slow,
           message_id,
           outbox_item,
           queue,
)
from pbem.outbox.sending import RetryPolicy, retry, send_due
from pbem.sendreport import SendReport

__all__ = ["KINDS", "Attachment", "Letter", "RetryPolicy", "SendReport", "compose", "compose_slow", "message_id",
           "outbox_item", "queue", "retry", "send_due"]
