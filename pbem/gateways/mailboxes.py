"""Where mail comes from (IMAP, Maildir, mbox) and how it leaves (SMTP).

Nothing is ever deleted.  A message the gateway has dealt with is marked done, one it could not
deal with is marked failed and stays for the host to look at; both are skipped by later polls
(`--retry-failed` takes the failed ones again).  Marks per mailbox kind:

- IMAP: the keywords `$PbemDone` / `$PbemFailed` (plus `\\Seen` / `\\Flagged`, so a mail client
  shows them).  A server that does not allow keywords gets `\\Seen` / `\\Flagged` alone, and then a
  person reading the mailbox in a client must not mark messages read.
- Maildir: the `S` (seen) and `F` (flagged) info flags, set by renaming the file into cur/.
- mbox: the `R` (read) and `F` (flagged) status flags.

Messages are returned in arrival order: IMAP UID order, the Maildir delivery time, the mbox file
order.  That order decides which of two submissions is the later one.
"""

from __future__ import annotations

import imaplib
import mailbox
import os
import re
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

from pbem.gateways.mailconfig import MailConfig, ServerConfig

DONE = "done"
FAILED = "failed"
KEYWORDS = {DONE: "$PbemDone", FAILED: "$PbemFailed"}
SYSTEM_FLAGS = {DONE: "\\Seen", FAILED: "\\Flagged"}


class MailError(Exception):
    """A mail server could not be reached or refused us; the message says which and why."""


@dataclass(frozen=True)
class RawMail:
    key: str  # the source's own id: an IMAP UID, a Maildir key, an mbox key
    data: bytes


class MailSource(Protocol):
    def fetch(self, retry_failed: bool = False) -> list[RawMail]: ...

    def mark(self, key: str, outcome: str) -> None: ...

    def close(self) -> None: ...


class ImapSource:
    """An IMAP4rev1 mailbox, read with the standard library's imaplib."""

    def __init__(self, server: ServerConfig):
        self.server = server
        try:
            if server.security == "ssl":
                self.conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(server.host, server.port, ssl_context=ssl.create_default_context(),
                                                             timeout=server.timeout)
            else:
                self.conn = imaplib.IMAP4(server.host, server.port, timeout=server.timeout)
                if server.security == "starttls":
                    self.conn.starttls(ssl.create_default_context())
            if server.user:
                self.conn.login(server.user, server.password or "")
            status, data = self.conn.select(_quote(server.mailbox))
            if status != "OK":
                raise MailError(f"IMAP {server.host}: cannot open mailbox {server.mailbox!r}: {_text(data)}")
        except (OSError, imaplib.IMAP4.error) as err:
            raise MailError(f"IMAP {server.host}:{server.port}: {err}") from None
        permanent = " ".join(_text(x) for x in self.conn.untagged_responses.get("PERMANENTFLAGS", []))
        self.keywords = "\\*" in permanent

    def _uid(self, *args: str) -> list[bytes | tuple[bytes, bytes]]:
        try:
            status, data = self.conn.uid(*args)
        except (OSError, imaplib.IMAP4.error) as err:
            raise MailError(f"IMAP {self.server.host}: {args[0]} failed: {err}") from None
        if status != "OK":
            raise MailError(f"IMAP {self.server.host}: {args[0]} failed: {_text(data)}")
        return data  # type: ignore[return-value]

    def fetch(self, retry_failed: bool = False) -> list[RawMail]:
        if self.keywords:
            criteria = ["UNDELETED", "UNKEYWORD", KEYWORDS[DONE]] + ([] if retry_failed else ["UNKEYWORD", KEYWORDS[FAILED]])
        else:
            criteria = ["UNDELETED", "UNSEEN"] + ([] if retry_failed else ["UNFLAGGED"])
        found = self._uid("SEARCH", *criteria)
        uids = sorted({int(u) for u in _text(found[0] if found else b"").split()})
        out = []
        for uid in uids:
            data = self._uid("FETCH", str(uid), "(BODY.PEEK[])")
            body = next((part[1] for part in data if isinstance(part, tuple)), None)
            if body is not None:
                out.append(RawMail(str(uid), body))
        return out

    def mark(self, key: str, outcome: str) -> None:
        flags = [SYSTEM_FLAGS[outcome]] + ([KEYWORDS[outcome]] if self.keywords else [])
        self._uid("STORE", key, "+FLAGS.SILENT", "(" + " ".join(flags) + ")")
        if outcome == DONE and self.keywords:
            self._uid("STORE", key, "-FLAGS.SILENT", f"({KEYWORDS[FAILED]} \\Flagged)")

    def close(self) -> None:
        try:
            self.conn.close()
            self.conn.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


class MaildirSource:
    """A local Maildir (for a host whose MTA delivers there).

    A message is marked the way the Maildir specification says: by renaming its file into cur/
    with the info flags after ":2," (S seen, F flagged). The file itself is never rewritten, so
    nothing of the message can be lost or changed by marking it."""

    def __init__(self, path: Path):
        if not (path / "cur").is_dir() and not (path / "new").is_dir():
            raise MailError(f"{path} is not a Maildir (no cur/ or new/)")
        self.path = path
        self.box = mailbox.Maildir(path, factory=None, create=False)

    def fetch(self, retry_failed: bool = False) -> list[RawMail]:
        found = []
        for key in self.box.iterkeys():
            flags = set(self._flags(self._file(key).name))
            if "S" in flags or ("F" in flags and not retry_failed) or "T" in flags:
                continue
            found.append((self._file(key).stat().st_mtime, key))
        return [RawMail(key, self._file(key).read_bytes()) for _, key in sorted(found)]

    def _file(self, key: str) -> Path:
        for sub in ("new", "cur"):
            directory = self.path / sub
            for name in sorted(directory.iterdir()) if directory.is_dir() else ():
                if name.name.split(":", 1)[0] == key:
                    return name
        raise MailError(f"{self.path}: message {key} is gone")

    @staticmethod
    def _flags(name: str) -> str:
        return name.split(":2,", 1)[1] if ":2," in name else ""

    def mark(self, key: str, outcome: str) -> None:
        current = self._file(key)
        flags = set(self._flags(current.name))
        if outcome == DONE:
            flags.discard("F")
            flags.add("S")
        else:
            flags.add("F")
        target = self.path / "cur" / f"{key}:2,{''.join(sorted(flags))}"
        try:
            os.rename(current, target)
        except OSError as err:
            raise MailError(f"{self.path}: cannot mark message {key}: {err}") from None

    def close(self) -> None:
        self.box.close()


class MboxSource:
    """A local mbox file, locked while read and rewritten."""

    def __init__(self, path: Path):
        if not path.is_file():
            raise MailError(f"no mbox file at {path}")
        self.box = mailbox.mbox(path, create=False)
        self.box.lock()

    def fetch(self, retry_failed: bool = False) -> list[RawMail]:
        out = []
        for key in self.box.iterkeys():
            flags = self.box.get_message(key).get_flags()
            if "R" in flags or ("F" in flags and not retry_failed) or "D" in flags:
                continue
            out.append(RawMail(str(key), self.box.get_bytes(key)))
        return out

    def mark(self, key: str, outcome: str) -> None:
        msg = self.box.get_message(key)
        if outcome == DONE:
            msg.remove_flag("F")
            msg.add_flag("RO")
        else:
            msg.add_flag("F")
        self.box[key] = msg  # type: ignore[index]
        self.box.flush()

    def close(self) -> None:
        try:
            self.box.flush()
        finally:
            self.box.unlock()
            self.box.close()


def open_source(config: MailConfig) -> MailSource:
    if config.imap is not None:
        return ImapSource(config.imap)
    if config.maildir is not None:
        return MaildirSource(config.maildir)
    if config.mbox is not None:
        return MboxSource(config.mbox)
    raise MailError(f"{config.source}: no incoming mailbox configured (incoming: imap, maildir or mbox)")


class SmtpSender:
    """Sends mail through the configured SMTP server, one connection per batch."""

    def __init__(self, server: ServerConfig | None):
        self.server = server
        self.conn: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        server = self.server
        if server is None:
            raise MailError("no smtp server configured: the gateway cannot reply")
        try:
            if server.security == "ssl":
                conn: smtplib.SMTP = smtplib.SMTP_SSL(server.host, server.port, timeout=server.timeout,
                                                      context=ssl.create_default_context())
            else:
                conn = smtplib.SMTP(server.host, server.port, timeout=server.timeout)
                if server.security == "starttls":
                    conn.starttls(context=ssl.create_default_context())
            if server.user:
                conn.login(server.user, server.password or "")
        except (OSError, smtplib.SMTPException) as err:
            raise MailError(f"SMTP {server.host}:{server.port}: {err}") from None
        return conn

    def send(self, message: EmailMessage) -> None:
        if self.conn is None:
            self.conn = self._connect()
        try:
            self.conn.send_message(message)
        except smtplib.SMTPServerDisconnected:
            self.conn = self._connect()  # idle servers hang up between messages: once more
            try:
                self.conn.send_message(message)
            except (OSError, smtplib.SMTPException) as err:
                raise MailError(f"SMTP: sending {message['Subject']!r} failed: {err}") from None
        except (OSError, smtplib.SMTPException) as err:
            raise MailError(f"SMTP: sending {message['Subject']!r} to {message['To']} failed: {err}") from None

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self.conn = None


def _quote(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_.\-/]+", name) else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _text(value: object) -> str:
    if isinstance(value, list):
        return " ".join(_text(v) for v in value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)
