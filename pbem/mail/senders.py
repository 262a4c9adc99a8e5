"""Who may we answer, and is the sender who they claim to be?

Loop guards (`is_automatic`): bounces, auto-replies, mailing lists and our own
mail never get an answer.  Authentication (`auth_verdict`): the topmost
Authentication-Results, when our own receiving server wrote it (read by
`pbem.mail.authresults`), with From alignment and its DMARC verdict.
Per-player passwords (`check_password`).  No game rules, no database.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache

from pbem.mail import authresults
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
    dmarc: str = "none"
    """The receiving server's own DMARC result (``fail`` refuses the mail whatever DKIM and SPF say)."""


_DOMAIN = re.compile(r"[\w-]+(?:\.[\w-]+)+")


def _domain(value: str) -> str:
    """The domain of ``local@domain``, ``@domain`` or ``domain``, lower-case; ``""`` if it does not look like one."""
    return _bare_domain(value.rpartition("@")[2])


def _bare_domain(value: str) -> str:
    """``value`` lower-case if it is a domain name (``header.d``), else ``""``."""
    domain = value.strip().rstrip(".").lower()
    return domain if _DOMAIN.fullmatch(domain) else ""


def domains_align(a: str, b: str) -> bool:
    """Relaxed alignment: same domain, or one a subdomain of the other (no public-suffix list: both need a dot)."""
    if not a or not b or "." not in a or "." not in b:
        return False
    return a == b or a.endswith("." + b) or b.endswith("." + a)


def _signed_domain(item: authresults.Result) -> str:
    """The one domain a DKIM result vouches for: ``header.d`` (``header.i`` only without it); ``""`` if several."""
    signed = item.values("header.d")
    domains = {_bare_domain(v) for v in signed} if signed else {_domain(v) for v in item.values("header.i")}
    return domains.pop() if len(domains) == 1 else ""


def _envelope_domain(item: authresults.Result) -> str:
    domains = {_domain(v) for v in item.values("smtp.mailfrom")}
    return domains.pop() if len(domains) == 1 else ""


def _verdict_of(results: tuple[authresults.Result, ...], method: str,
                domain_of: Callable[[authresults.Result], str], from_domain: str) -> str:
    verdict = "none"
    for item in results:
        if item.method != method:
            continue
        if item.result != "pass":
            if verdict == "none":
                verdict = "fail"
            continue
        if domains_align(domain_of(item), from_domain):
            return "pass"
        verdict = "unaligned"
    return verdict


@lru_cache(maxsize=64)
def _trusted(ids: tuple[str, ...]) -> frozenset[str]:
    """The trusted authserv-ids as compared (a mailbox's list, the same for every mail)."""
    return frozenset(t.strip().lower() for t in ids)


_SHOWN_ID = re.compile(r"[A-Za-z0-9._-]{1,100}")


def topmost_header(mail: IncomingMail) -> tuple[authresults.Header | None, str]:
    """The topmost Authentication-Results header read, or None and why (there is none, it does not read).

    `auth_verdict` believes nothing else; `pbem doctor` shows who wrote it.
    """
    values = mail.headers.get("authentication-results", ())
    if not values:
        return None, "no Authentication-Results header"
    try:
        return authresults.parse(values[0]), ""
    except authresults.AuthResError as e:
        return None, f"topmost Authentication-Results unreadable: {e}"


def shown_authserv(authserv_id: str) -> str:
    """An authserv-id as it may be shown in a log or a mail (it may come from a forger): a domain-like name or ``?``."""
    return authserv_id if _SHOWN_ID.fullmatch(authserv_id) else "?"


def auth_verdict(mail: IncomingMail, trusted_authserv_ids: Collection[str], require: str) -> AuthVerdict:
    """Check ``require`` (``none``, ``dkim``, ``spf``, ``dkim_or_spf``) against our server's Authentication-Results.

    Only the topmost header counts, and only when its authserv-id is trusted: the server that
    delivers to the mailbox adds its header on top of every other, so any header below it (with
    whatever id) may have been written by the sender.  The header is read by `authresults`
    (RFC 8601; a header that does not read is refused).  A DMARC ``fail`` refuses the mail.
    DKIM passes when a passing signature's ``header.d`` (or, without one, ``header.i``) aligns
    with the From domain; SPF when ``smtp.mailfrom`` aligns.  Raises ValueError for an unknown ``require``.
    """
    if require not in REQUIREMENTS:
        raise ValueError(
            f"unknown authentication requirement {require!r}; expected one of {sorted(REQUIREMENTS)}"
        )
    if require == "none":
        return AuthVerdict(True, "no authentication required")
    header, problem = topmost_header(mail)
    if header is None:
        return AuthVerdict(False, problem)
    trusted = _trusted(tuple(trusted_authserv_ids))
    if header.authserv_id not in trusted:
        shown = shown_authserv(header.authserv_id)
        return AuthVerdict(False, f"topmost Authentication-Results written by {shown}, not by a trusted server "
                                  f"(trusted_authserv: {', '.join(sorted(trusted))})")
    from_domain = _domain(mail.from_addr)
    if not from_domain:
        return AuthVerdict(False, "no From address")
    dkim = _verdict_of(header.results, "dkim", _signed_domain, from_domain)
    spf = _verdict_of(header.results, "spf", _envelope_domain, from_domain)
    dmarc_results = [r.result for r in header.results if r.method == "dmarc"]
    dmarc = "fail" if "fail" in dmarc_results else (dmarc_results[0] if dmarc_results else "none")
    if dmarc == "fail":
        return AuthVerdict(False, f"dmarc=fail dkim={dkim} spf={spf} (DMARC failed)", dkim, spf, dmarc)
    wanted = {"dkim": dkim == "pass", "spf": spf == "pass", "dkim_or_spf": dkim == "pass" or spf == "pass"}
    ok = wanted[require]
    reason = f"dkim={dkim} spf={spf} ({require} {'satisfied' if ok else 'required'})"
    return AuthVerdict(ok, reason, dkim, spf, dmarc)


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
