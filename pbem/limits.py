"""The caps on untrusted input, in one place: how much of a mail, a header, a line or a word pbem reads.

Anyone can write to a game's address, so every reader of mail bytes, headers, order lines, MJ
lines, dates and names stops at one of these caps and works in time proportional to what it
reads (`scripts/hostile.py` feeds each one 1 MB of pathological input; issue #19's target is
at most a second for any input of 1 MB).  What lies beyond a cap is not read: a mail too big to
read is answered « message trop long ou illisible » with its limit, a line too long gets its own
verdict, a number out of its range is answered with the range.  The MJ's guide lists them
(docs/guide-mj.md, « Limites »).
"""

from __future__ import annotations

# --- a mail

MAX_READ_BYTES = 10_000_000
"""A stored mail is read up to this many bytes (its text comes first: a mail with a big attachment
is read as usual): the hard limit, under which ``max_message_bytes`` (config.toml) sets the cap
(`pbem.config.Config.read_bytes`).  The rest is not parsed; if no text was found before the cap, the mail is
answered « message trop long ou illisible ».  Only the text part chosen is decoded: an
attachment costs a byte search, and a 10 MB mail is read in well under a second."""

MAX_HEADER_BYTES = 256_000
"""The header block of a mail is read up to this many bytes (real ones are a few kilobytes,
with every relay's Received and signature lines)."""

MAX_HEADER_CHARS = 16_000
"""One header value is read up to this many characters (after unfolding)."""

MAX_AUTH_RESULTS_CHARS = 16_384
"""An Authentication-Results header longer than this is refused whole by its reader
(`pbem.mail.authresults`), never cut: a cut header could read as another verdict."""

MAX_SUBJECT_CHARS = 500
"""The subject as read (and echoed in the answer's « Re: ») is cut to this many characters."""

MAX_HEADER_VALUES = 50
"""At most this many values of one kept header (the topmost first): Authentication-Results, Received…"""

MAX_ADDRESSES = 200
"""At most this many addresses read from the To, Cc and envelope headers together."""

MAX_REFERENCES = 20
"""At most this many Message-IDs kept from References (the last ones: the thread's nearest mails)."""

MAX_PARTS = 200
"""At most this many MIME parts of a mail are looked at."""

MAX_BOUNDARIES = 60
"""A mail declaring more multipart boundaries than this is too deeply nested to be read (the
standard library's parser checks every line against every open boundary)."""

MAX_DELIMITER_LINES = 1_000
"""A mail with more lines beginning with ``--`` than this has too many MIME parts to be read (a
real one has a few delimiters, a signature line, a quoted separator or two)."""

MAX_TEXT_CHARS = 200_000
"""A plain-text body is read up to this many characters (orders are a few lines)."""

MAX_HTML_CHARS = 500_000
"""An HTML body is read up to this many characters (webmail markup is ten to a hundred times its text,
and what lies beyond is quoted replies, which are dropped anyway)."""

MAX_CHARSET_CHARS = 40
"""A declared charset name longer than this is no charset (the text is decoded as UTF-8, else cp1252)."""

# --- a line, a word, a number

MAX_LINE_CHARS = 500
"""An order line or an MJ command line longer than this is answered « ligne trop longue » and not read."""

MAX_WORD_CHARS = 64
"""A word longer than this is near no name or keyword (no « vouliez-vous dire » is looked for)."""

MAX_KEY_CHARS = 1_000
"""A cache (`pbem.memo`) remembers no call with a text argument longer than this."""

MAX_DIGITS = 9
"""A number written with more digits than this is out of every range (and never converted)."""
