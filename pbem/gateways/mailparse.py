"""Reading orders out of an email as players really send them.

Mail clients wrap what the player typed in many layers: HTML-only bodies, quoted replies,
signatures, several attachments, charsets that lie.  This module turns one raw message into an
`IncomingMail`: who sent it, which game and power the subject names, and the candidate orders
texts (YAML attachments first, else the body with the quoting and signature removed).  It never
raises on a malformed message: whatever cannot be read becomes an empty field the caller reports.

Subject convention (case-insensitive; the tag may be anywhere, e.g. after "Re:"):

    [pbem GAME-ID] orders POWER        orders (or standing orders) for POWER in game GAME-ID
    [pbem GAME-ID] POWER               the same
    [pbem GAME-ID]                     the power is taken from the orders' `power:` line
"""

from __future__ import annotations

import email
import email.policy
import html
import re
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage, Message
from email.utils import getaddresses, parsedate_to_datetime


SUBJECT_TAG = re.compile(r"\[\s*pbem\s+([A-Za-z0-9][A-Za-z0-9._-]*)\s*\]\s*(.*)", re.IGNORECASE)
_ORDERS_KEYS = re.compile(r"^(game|power|round|purchase|repair|combat_move|battles|noncombat_move|place|standing_orders)\s*:",
                          re.IGNORECASE)
_QUOTE_HEADER = re.compile(
    r"^\s*(On\s.+wrote:|Le\s.+a\s+écrit\s*:|Am\s.+schrieb.*:|El\s.+escribió:|-{2,}\s*Original Message\s*-{2,}|_{10,}|"
    r"-{2,}\s*Forwarded message\s*-{2,}|From:\s.+)\s*$", re.IGNORECASE)
_YAML_KEY = re.compile(r"^[A-Za-z_][\w .-]*:(\s|$)")
_YAML_SUFFIXES = (".yaml", ".yml", ".txt")
_YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
MAX_ORDERS_BYTES = 256 * 1024


@dataclass(frozen=True)
class OrdersText:
    """One candidate orders text and the name the validator's messages will point at."""

    filename: str
    text: str


@dataclass(frozen=True)
class IncomingMail:
    """What the gateway needs from one message."""

    message_id: str
    sender: str  # the bare address, lower-cased; "" if the From header is unreadable
    subject: str
    game_id: str | None
    power_hint: str | None
    candidates: tuple[OrdersText, ...]
    date: datetime | None
    problems: tuple[str, ...]  # what could not be read (bad attachment charset, too large, ...)
    automatic: bool = False  # a bounce, an auto-reply or list mail: never answered, to avoid mail loops
    references: str = ""
    auth_results: tuple[str, ...] = ()  # the Authentication-Results headers, topmost first
    signature: str | None = None  # an SSH signature of the orders, pasted under them or attached (.sig)

    def orders_for(self, power: str | None) -> list[OrdersText]:
        """The candidates, those naming `power` first when the subject gives one."""
        if power is None or len(self.candidates) < 2:
            return list(self.candidates)
        key = re.compile(rf"^power\s*:\s*['\"]?{re.escape(power)}['\"]?\s*$", re.IGNORECASE | re.MULTILINE)
        return sorted(self.candidates, key=lambda c: 0 if key.search(c.text) else 1)


SIGNATURE_BLOCK = re.compile(r"-----BEGIN SSH SIGNATURE-----\s.*?-----END SSH SIGNATURE-----", re.S)


def split_signature(text: str) -> tuple[str, str | None]:
    """Orders text and the SSH signature pasted under it (None if there is none): `pbem.gateways.mailauth`
    checks it."""
    found = SIGNATURE_BLOCK.search(text)
    if not found:
        return text, None
    return text[: found.start()], found.group(0).replace("\r\n", "\n") + "\n"


def decode_bytes(raw: bytes, declared: str | None) -> str:
    """Text from bytes: a UTF-8 BOM or valid UTF-8 wins over a declared charset (mail clients often
    declare one and send another), then the declared charset, then Windows-1252, which never fails."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8", "replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if declared:
        try:
            return raw.decode(declared)
        except (LookupError, ValueError):  # unknown, or a name no codec takes ("utf-8\x00")
            pass
    return raw.decode("cp1252", "replace")


def clean_text(text: str) -> str:
    """Normalise line ends and the invisible characters rich-text editors insert into YAML."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for bad, good in (("\u00a0", " "), ("\u200b", ""), ("\ufeff", ""), ("\u2028", "\n"), ("\t", "  ")):
        text = text.replace(bad, good)
    return "\n".join(line.rstrip() for line in text.split("\n"))


class _Html2Text:
    """A small HTML to text conversion: block elements become line breaks, entities decoded."""

    _BLOCK = re.compile(r"<\s*(br|/p|p|/div|div|/li|li|/tr|tr|/h\d|h\d|/pre|pre|/blockquote)\b[^>]*>", re.IGNORECASE)
    _DROP = re.compile(r"<\s*(style|script|head)\b.*?<\s*/\s*\1\s*>", re.IGNORECASE | re.DOTALL)
    _QUOTE = re.compile(r"<\s*blockquote\b.*?<\s*/\s*blockquote\s*>", re.IGNORECASE | re.DOTALL)
    _TAG = re.compile(r"<[^>]*>")

    @classmethod
    def convert(cls, markup: str) -> str:
        text = cls._DROP.sub("", markup)
        text = cls._QUOTE.sub("\n", text)  # quoted replies in HTML mail
        text = re.sub(r"\r?\n", " ", text) if "<pre" not in text.lower() else text
        text = cls._BLOCK.sub("\n", text)
        text = cls._TAG.sub("", text)
        return html.unescape(text)


def html_to_text(markup: str) -> str:
    return _Html2Text.convert(markup)


def strip_quotes_and_signature(text: str) -> str:
    """The part the sender wrote: stop at a signature ("-- "), a reply header or quoted lines."""
    out: list[str] = []
    for line in text.split("\n"):
        if line in ("-- ", "--") or _QUOTE_HEADER.match(line):
            break
        if line.lstrip().startswith(">"):
            continue
        out.append(line)
    return "\n".join(out)


def orders_from_body(text: str) -> str | None:
    """The YAML in a body: from the first line that starts an orders file to the end of what was written."""
    lines = strip_quotes_and_signature(clean_text(text)).split("\n")
    for i, line in enumerate(lines):
        if _ORDERS_KEYS.match(line):
            block = [line]
            for following in lines[i + 1:]:
                # prose after the orders ("Thanks, Anna") ends them: an unindented line that is no YAML key
                if following and not following[0].isspace() and not following.startswith(("#", "-", "...")) \
                        and not _YAML_KEY.match(following):
                    break
                block.append(following)
            while block and not block[-1].strip():
                block.pop()
            return "\n".join(block) + "\n"
    return None


def _is_yaml_attachment(part: Message) -> bool:
    filename = (part.get_filename() or "").lower()
    return filename.endswith(_YAML_SUFFIXES) or part.get_content_type() in _YAML_TYPES


def _safe_name(name: str) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name.replace("\\", "/").rsplit("/", 1)[-1]).strip("-.")
    return name[:80] or "attachment.yaml"


def _header(msg: Message, name: str) -> str:
    """A header as text whatever it holds: with raw 8-bit bytes (an unencoded non-ASCII file name,
    a raw date), the standard library hands back a Header object, not a str."""
    value = msg.get(name)
    if value is None:
        return ""
    try:
        return str(value)
    except Exception:  # noqa: BLE001 -- a header nobody can read is an empty one
        return ""


def unflow(text: str, delsp: bool) -> str:
    """RFC 3676 format=flowed: a line ending in a space continues on the next (with DelSp=yes the
    space itself was added by the client and goes); a leading space was stuffed and goes too.
    Quoted lines (">") are kept as they are."""
    out: list[str] = []
    pending = ""
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if line.startswith(">") or line == "-- ":
            if pending:
                out.append(pending)
                pending = ""
            out.append(line)
            continue
        if line.endswith(" "):
            pending += line[:-1] if delsp else line
            continue
        out.append(pending + line)
        pending = ""
    if pending:
        out.append(pending)
    return "\n".join(out)


#: transfer-decoding defects after which a body may have lost or garbled lines
_LOSSY = ("InvalidBase64PaddingDefect", "InvalidBase64CharactersDefect", "InvalidBase64LengthDefect",
          "InvalidMultipartContentTransferEncodingDefect")


def _lossy(part: Message) -> str:
    """Why the decoded text of a part may not be whole ("" when it is)."""
    names = [type(d).__name__ for d in getattr(part, "defects", [])]
    bad = [n for n in names if n in _LOSSY]
    cte = _header(part, "Content-Transfer-Encoding").strip().lower()
    if cte == "quoted-printable":
        try:
            payload = part.get_payload(decode=False)
        except Exception:  # noqa: BLE001 -- the standard library decodes with the declared charset, whatever it is
            payload = None
        if isinstance(payload, str) and re.search(r"=(?![0-9A-Fa-f]{2}|\r?\n|$)", payload, re.MULTILINE):
            bad.append("a broken quoted-printable escape")
    return ", ".join(bad)


def _part_text(part: Message) -> str:
    try:
        payload = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001 -- an undecodable part is an empty one; _lossy says why
        payload = b""
    raw = payload if isinstance(payload, bytes) else b""
    try:
        charset = part.get_content_charset()
    except Exception:  # noqa: BLE001
        charset = None
    text = decode_bytes(raw, charset)
    if part.get_content_type() == "text/plain" and part.get_param("format", "").lower() == "flowed":
        text = unflow(text.replace("\r\n", "\n").replace("\r", "\n"), part.get_param("delsp", "").lower() == "yes")
    return text


def parse_mail(raw: bytes) -> IncomingMail:
    """Everything the gateway needs from a raw RFC 5322 message; never raises on bad input."""
    problems: list[str] = []
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    subject = _header_text(_header(msg, "Subject"))
    addresses = getaddresses([_header_text(str(v)) for v in msg.get_all("From", [])])
    sender = addresses[0][1].strip().lower() if addresses and "@" in addresses[0][1] else ""
    message_id = _header(msg, "Message-ID").strip().replace("\n", "").replace("\r", "")
    try:
        date = parsedate_to_datetime(_header(msg, "Date")) if _header(msg, "Date") else None
    except (TypeError, ValueError, IndexError):
        date = None
    game_id = power_hint = None
    tag = SUBJECT_TAG.search(subject)
    if tag:
        game_id = tag.group(1).lower()
        rest = re.sub(r"^(standing\s+orders|orders|standing)\b", "", tag.group(2).strip(), flags=re.IGNORECASE).strip(" :-")
        power_hint = rest or None
    candidates: list[OrdersText] = []
    plain: list[str] = []
    markup: list[str] = []
    unreadable: list[str] = []  # orders found but not readable whole: refused with what was read
    body_lossy: list[str] = []
    signature: str | None = None
    for part in msg.walk():
        if part.is_multipart():
            continue
        disposition = _header(part, "Content-Disposition").lower()
        if _is_yaml_attachment(part) and (part.get_filename() or "attachment" in disposition or part.get_content_type() in _YAML_TYPES):
            payload = part.get_payload(decode=True)
            if not isinstance(payload, bytes) or len(payload) > MAX_ORDERS_BYTES:
                problems.append(f"attachment {part.get_filename() or '(unnamed)'} is empty or larger than {MAX_ORDERS_BYTES // 1024} KiB; ignored")
                continue
            lossy = _lossy(part)
            if lossy:
                shown = decode_bytes(payload, None)[:2000]
                unreadable.append(f"the attachment {part.get_filename() or '(unnamed)'} could not be decoded whole ({lossy}), "
                                  f"so lines of it may be missing; this much was read:\n{shown}")
                continue
            text = clean_text(decode_bytes(payload, part.get_content_charset()))
            text, sig = split_signature(text)
            signature = signature or sig
            if _ORDERS_KEYS.search(text) or re.search(r"^\s*(power|game)\s*:", text, re.IGNORECASE | re.MULTILINE):
                candidates.append(OrdersText(_safe_name(part.get_filename() or "orders.yaml"), text if text.endswith("\n") else text + "\n"))
            continue
        if (part.get_filename() or "").lower().endswith(".sig"):
            payload = part.get_payload(decode=True)
            found = split_signature(decode_bytes(payload, None) if isinstance(payload, bytes) else "")[1]
            signature = signature or found
            continue
        if "attachment" in disposition:
            continue  # pictures, vCards, signatures (.p7s/.asc) and the like
        if part.get_content_type() in ("text/plain", "text/html"):
            text = _part_text(part)  # decoding first: the standard library records its defects then
            lossy = _lossy(part)
            if lossy:
                body_lossy.append(lossy)
            (plain if part.get_content_type() == "text/plain" else markup).append(text)
    if not candidates:
        body = "\n".join(plain) if plain else "\n".join(html_to_text(m) for m in markup)
        body, sig = split_signature(clean_text(body))
        signature = signature or sig
        found = orders_from_body(body)
        if body_lossy:
            unreadable.append(f"the message body could not be decoded whole ({', '.join(body_lossy)}), so lines of the "
                              f"orders may be missing; this much was read:\n{(found or body)[:2000]}")
        elif found is not None:
            candidates.append(OrdersText("message body", found))
    problems.extend(unreadable)
    references = " ".join(_header(msg, "References").split() + ([message_id] if message_id else []))
    auth_results = tuple(str(v) for v in msg.get_all("Authentication-Results", []) or [])
    return IncomingMail(message_id, sender, subject, game_id, power_hint, tuple(candidates), date, tuple(problems),
                        is_automatic(msg, sender), references, auth_results, signature)


def is_automatic(msg: Message, sender: str) -> bool:
    """RFC 3834, section 2: never answer automatic mail or mailing lists, which could start a mail
    loop: Auto-Submitted other than "no", Precedence bulk/junk/list, the List-* headers (RFC 2369,
    2919), Microsoft's and other auto-reply markers, a null return path, system senders."""
    auto = (_header(msg, "Auto-Submitted") or "no").strip().lower()
    precedence = _header(msg, "Precedence").strip().lower()
    listed = any(msg.get(h) is not None for h in ("List-Id", "List-Post", "List-Unsubscribe", "List-Help"))
    suppress = _header(msg, "X-Auto-Response-Suppress").strip().lower()
    return (not auto.startswith("no") or precedence in ("bulk", "junk", "list", "auto_reply") or listed
            or bool(msg.get("X-Autoreply")) or bool(msg.get("X-Autorespond")) or suppress in ("all", "oof", "autoreply")
            or _header(msg, "Return-Path").strip() == "<>"
            or sender.split("@")[0] in ("mailer-daemon", "postmaster", "noreply", "no-reply"))


def _header_text(value: str) -> str:
    """A header decoded from RFC 2047 words, tolerating unknown charsets."""
    from email.errors import HeaderParseError
    from email.header import decode_header

    out = []
    try:
        for chunk, charset in decode_header(str(value)):
            out.append(decode_bytes(chunk, charset) if isinstance(chunk, bytes) else chunk)
    except (ValueError, LookupError, HeaderParseError):  # e.g. an encoded word of broken base64
        return str(value)
    return re.sub(r"\s+", " ", "".join(out)).strip()


def reply_subject(subject: str) -> str:
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def new_message() -> EmailMessage:
    return EmailMessage(policy=email.policy.SMTP)
