"""Who may we answer, and is the sender who they claim to be?

Loop guards (`is_automatic`): bounces, auto-replies, mailing lists and our own
mail never get an answer.  Authentication (`auth_verdict`): the
Authentication-Results our own receiving server added, with From alignment.
Per-player passwords (`check_password`).  No game rules, no database.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from pbem.mail.reading import IncomingMail, normalise_address

# --- loop guards ---

_BOUNCE_LOCALPARTS = frozenset({"mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon"})
_BOUNCE_NAMES = re.compile(
    r"^(?:mail delivery (?:subsystem|system|service)|microsoft outlook)$", re.IGNORECASE
)
_BOUNCE_SUBJECT = re.compile(
    r"^(?:undeliver(?:ed|able)\b|delivery status notification|mail delivery failed|returned mail\b"
    r"|non remis\b|message non remis|[ée]chec de (?:la )?(?:remise|distribution))",
    re.IGNORECASE,
)
_VACATION_SUBJECT = re.compile(
    r"^(?:r[ée]ponse\s+automatique|automatic\s+reply|auto[- ]?reply|autoreply|auto\s*:|out\s+of\s+(?:the\s+)?office"
    r"|message\s+d['’]absence|absent(?:e)?\s+du\s+bureau|absence\s*(?::|$|\(|-)|abwesenheitsnotiz"
    r"|(?:je\s+suis\s+)?en\s+cong[ée]s?\s*(?::|$))",
    re.IGNORECASE,
)
_SUBJECT_PREFIX = re.compile(r"^\s*(?:(?:re|tr|fwd?|aw)\s*:\s*)+", re.IGNORECASE)


def _base_address(addr: str) -> str:
    """``local+tag@domain`` -> ``local@domain``."""
    local, at, domain = normalise_address(addr).rpartition("@")
    return f"{local.partition('+')[0]}@{domain}" if at else normalise_address(addr)


@lru_cache(maxsize=64)
def _own(addresses: tuple[str, ...]) -> frozenset[str]:
    """Our own addresses as compared (the same for every mail)."""
    return frozenset(_base_address(a) for a in addresses)


def is_automatic(mail: IncomingMail, own_addresses: Collection[str]) -> str | None:
    """Why we must not answer this mail (``"category: detail"``), or None for a human sender.

    Categories: ``own`` (our own mail), ``bounce``, ``auto-reply``, ``list``.
    """
    own = _own(tuple(own_addresses))
    if mail.headers.get("x-pbem-game") or mail.headers.get("x-pbem-kind"):
        return "own: X-PBEM header"
    if mail.from_addr and _base_address(mail.from_addr) in own:
        return "own: sent from our address"

    return_path = mail.header("return-path").strip()
    if "return-path" in mail.headers and return_path.strip("<> ") == "":
        return "bounce: empty Return-Path"
    local = mail.from_addr.rpartition("@")[0]
    if local in _BOUNCE_LOCALPARTS or (not local and mail.from_name.lower() in _BOUNCE_LOCALPARTS):
        return f"bounce: sent by {local or mail.from_name.lower()}"
    if _BOUNCE_NAMES.match(mail.from_name):
        return "bounce: mail delivery system"
    content_type = mail.header("content-type").lower()
    if content_type.startswith("multipart/report"):
        return "bounce: multipart/report"
    if "x-failed-recipients" in mail.headers:
        return "bounce: X-Failed-Recipients"
    subject = _SUBJECT_PREFIX.sub("", mail.subject)
    if _BOUNCE_SUBJECT.match(subject):
        return "bounce: delivery failure subject"

    auto_submitted = mail.header("auto-submitted").split(";")[0].strip().lower()
    if auto_submitted and auto_submitted != "no":
        return f"auto-reply: Auto-Submitted {auto_submitted}"
    precedence = mail.header("precedence").strip().lower()
    if precedence in {"bulk", "junk", "list", "auto_reply"}:
        return f"auto-reply: Precedence {precedence}"
    for name in ("x-autoreply", "x-autorespond"):
        if name in mail.headers:
            return f"auto-reply: {name}"
    if _VACATION_SUBJECT.match(subject):
        return "auto-reply: vacation subject"

    for name in ("list-id", "list-unsubscribe"):
        if name in mail.headers:
            return f"list: {name}"
    return None


_BULK_LOCALPARTS = re.compile(
    r"^(?:no-?reply|do-?not-?reply|donotreply|ne-?pas-?repondre|notifications?|notify|alerts?|newsletters?|"
    r"news|mailer|bounces?|digest|marketing|campaigns?|info-?lettre)(?:[+._-].*)?$",
    re.IGNORECASE,
)
_BULK_MAILERS = re.compile(r"phpbb|vbulletin|invision|mybb|discourse|xenforo|mailchimp|sendinblue|brevo|mailjet|"
                           r"sendgrid|mailgun|sparkpost|hubspot", re.IGNORECASE)


def is_bulk(mail: IncomingMail) -> str | None:
    """Why a stranger's mail looks sent in bulk (a forum notification, a newsletter, spam), or None.

    Only asked of mail from unknown addresses: a player is answered whatever his mail looks like.
    """
    local = mail.from_addr.rpartition("@")[0]
    if _BULK_LOCALPARTS.match(local):
        return f"bulk: sent from {local}@"
    if mail.header("x-spam-flag").strip().lower() == "yes" or mail.header("x-spam-status").lower().startswith("yes"):
        return "bulk: marked as spam"
    for name in ("feedback-id", "x-campaign", "x-mailjet-campaign"):
        if name in mail.headers:
            return f"bulk: {name}"
    mailer = mail.header("x-mailer")
    if mailer and _BULK_MAILERS.search(mailer):
        return f"bulk: sent by {mailer[:40]}"
    return None


# --- authentication ---

REQUIREMENTS = frozenset({"none", "dkim", "spf", "dkim_or_spf"})


@dataclass(frozen=True)
class AuthVerdict:
    """Whether the sender passed the configured requirement, and why (for logs and the MJ digest)."""

    ok: bool
    reason: str
    dkim: str = "none"
    """``pass`` (aligned with From), ``unaligned``, ``fail`` or ``none``."""
    spf: str = "none"
    """``pass`` (aligned with From), ``unaligned``, ``fail`` or ``none``."""


@dataclass(frozen=True)
class AuthResult:
    """One ``method=result`` of an Authentication-Results header, with its properties (``header.d`` ...)."""

    method: str
    result: str
    props: dict[str, str]


_INNER_COMMENT = re.compile(r"\([^()]*\)")


def _strip_comments(value: str) -> str:
    """Remove RFC 5322 comments (nested parentheses), leaving quoted strings alone."""
    if "(" not in value:
        return value
    if '"' not in value and "\\" not in value:  # the usual header: comments without quotes or escapes
        before = None
        while before != value:  # innermost comments first; a nested one leaves a single space
            before, value = value, _INNER_COMMENT.sub(" ", value)
        return value.split("(", 1)[0]  # an unclosed comment runs to the end
    return _strip_comments_slow(value)


def _strip_comments_slow(value: str) -> str:
    """`_strip_comments` character by character (quoted strings, escapes)."""
    out: list[str] = []
    depth = 0
    quoted = False
    escaped = False
    for char in value:
        if escaped:
            escaped = False
            if depth == 0:
                out.append(char)
            continue
        if char == "\\":
            escaped = True
            if depth == 0:
                out.append(char)
            continue
        if quoted:
            if char == '"':
                quoted = False
            out.append(char)
        elif char == '"' and depth == 0:
            quoted = True
            out.append(char)
        elif char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
            if depth == 0:
                out.append(" ")
        elif depth == 0:
            out.append(char)
    return "".join(out)


def parse_authentication_results(value: str) -> tuple[str, list[AuthResult]]:
    """``"mx.google.com; dkim=pass header.d=x.org; spf=fail ..."`` -> (authserv-id, results)."""
    segments = _strip_comments(value).split(";")  # (split() below drops the blanks around each segment)
    head = segments[0].split()
    authserv_id = head[0].lower() if head else ""
    results: list[AuthResult] = []
    for segment in segments[1:]:
        tokens = segment.split()
        if not tokens:
            continue
        method, eq, result = tokens[0].partition("=")
        if not eq:
            continue
        props: dict[str, str] = {}
        for token in tokens[1:]:
            key, eq, prop = token.partition("=")
            if eq and "." in key:
                props.setdefault(key.lower(), prop.strip('"').lower())
        results.append(AuthResult(method.split("/")[0].lower(), result.lower(), props))
    return authserv_id, results


def _domain(value: str) -> str:
    return value.rpartition("@")[2].strip().strip(".").lower()


def domains_align(a: str, b: str) -> bool:
    """Relaxed alignment: same domain, or one a subdomain of the other (no public-suffix list: both need a dot)."""
    if not a or not b or "." not in a or "." not in b:
        return False
    return a == b or a.endswith("." + b) or b.endswith("." + a)


def _verdict_of(results: list[AuthResult], method: str, keys: tuple[str, ...], from_domain: str) -> str:
    verdict = "none"
    for item in results:
        if item.method != method:
            continue
        if item.result != "pass":
            if verdict == "none":
                verdict = "fail"
            continue
        domains = [_domain(item.props[k]) for k in keys if k in item.props]
        if any(domains_align(d, from_domain) for d in domains):
            return "pass"
        verdict = "unaligned"
    return verdict


@lru_cache(maxsize=64)
def _trusted(ids: tuple[str, ...]) -> frozenset[str]:
    """The trusted authserv-ids as compared (a game's list, the same for every mail)."""
    return frozenset(t.strip().lower() for t in ids)


def auth_verdict(mail: IncomingMail, trusted_authserv_ids: Collection[str], require: str) -> AuthVerdict:
    """Check ``require`` (``none``, ``dkim``, ``spf``, ``dkim_or_spf``) against our server's Authentication-Results.

    Only the topmost header whose authserv-id is trusted counts: the receiving server
    adds its header on top, so a lower one with the same id was written by the sender.
    DKIM passes when a passing signature's ``header.d`` (or ``header.i``) aligns with the
    From domain; SPF when ``smtp.mailfrom`` aligns.  Raises ValueError for an unknown ``require``.
    """
    if require not in REQUIREMENTS:
        raise ValueError(
            f"unknown authentication requirement {require!r}; expected one of {sorted(REQUIREMENTS)}"
        )
    if require == "none":
        return AuthVerdict(True, "no authentication required")
    trusted = _trusted(tuple(trusted_authserv_ids))
    results: list[AuthResult] | None = None
    for header in mail.headers.get("authentication-results", ()):
        authserv_id, parsed = parse_authentication_results(header)
        if authserv_id in trusted:
            results = parsed
            break
    if results is None:
        return AuthVerdict(False, "no Authentication-Results from a trusted server")
    from_domain = _domain(mail.from_addr)
    if not from_domain:
        return AuthVerdict(False, "no From address")
    dkim = _verdict_of(results, "dkim", ("header.d", "header.i"), from_domain)
    spf = _verdict_of(results, "spf", ("smtp.mailfrom",), from_domain)
    wanted = {"dkim": dkim == "pass", "spf": spf == "pass", "dkim_or_spf": dkim == "pass" or spf == "pass"}
    ok = wanted[require]
    reason = f"dkim={dkim} spf={spf} ({require} {'satisfied' if ok else 'required'})"
    return AuthVerdict(ok, reason, dkim, spf)


# --- passwords ---

# (the blanks before the colon and those before the password are taken once: "password" and a million
# spaces were tried every way of sharing them between two \s*)
_PASSWORD_LINE = re.compile(
    r"^\s*+(?:mot\s*+de\s*+passe|mot-de-passe|motdepasse|mdp|password)(?:\s*+:\s*+|\s++)(\S.*)$", re.IGNORECASE
)


def given_password(text: str) -> str | None:
    """The password a mail gives on a ``MOTDEPASSE xxx`` line (the first one), if any."""
    for line in text.split("\n"):
        match = _PASSWORD_LINE.match(line)
        if match:
            return match.group(1).strip()
    return None


def check_password(text: str, expected: str | None) -> tuple[bool, str]:
    """Find ``MOTDEPASSE xxx`` / ``PASSWORD xxx`` lines; return (ok, text without them).

    With ``expected`` None any mail is ok (password lines are still removed, never echoed).
    Otherwise every password line must give ``expected`` exactly, and there must be one.
    """
    kept: list[str] = []
    given: list[str] = []
    for line in text.split("\n"):
        match = _PASSWORD_LINE.match(line)
        if match:
            given.append(match.group(1).strip())
        else:
            kept.append(line)
    rest = "\n".join(kept)
    if expected is None:
        return True, rest
    ok = bool(given) and all(hmac.compare_digest(g.encode(), expected.encode()) for g in given)
    return ok, rest
