"""A small but real IMAP4rev1 server for the tests: one user, one INBOX, over a TCP socket.

It speaks the part of RFC 3501 that a mail client polling a mailbox uses -- CAPABILITY, LOGIN,
SELECT, UID SEARCH (ALL, SEEN/UNSEEN, FLAGGED/UNFLAGGED, KEYWORD/UNKEYWORD, DELETED/UNDELETED),
UID FETCH (UID, FLAGS, BODY.PEEK[], BODY[], RFC822), UID STORE (+/-FLAGS[.SILENT]), NOOP, CLOSE,
LOGOUT -- so the gateway's imaplib client is tested against the protocol, not a mock.  It binds
to 127.0.0.1 on an ephemeral port, times idle connections out and shuts itself down after
`lifetime` seconds even if a test forgets to.
"""

from __future__ import annotations

import re
import socketserver
import threading
from dataclasses import dataclass, field


@dataclass
class StoredMail:
    uid: int
    data: bytes
    flags: set[str] = field(default_factory=set)


class Mailbox:
    """The INBOX, shared by every connection; `deliver` is what an MTA's local delivery does."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.mails: list[StoredMail] = []
        self.next_uid = 1

    def deliver(self, data: bytes) -> int:
        with self.lock:
            uid = self.next_uid
            self.next_uid += 1
            self.mails.append(StoredMail(uid, data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")))
            return uid

    def flags_of(self, uid: int) -> set[str]:
        with self.lock:
            return set(next(m.flags for m in self.mails if m.uid == uid))


_TOKEN = re.compile(rb'"((?:[^"\\]|\\.)*)"|(\()|(\))|([^\s()"]+)')


def _tokens(line: bytes) -> list[bytes]:
    out: list[bytes] = []
    for quoted, open_, close, atom in _TOKEN.findall(line):
        if open_:
            out.append(b"(")
        elif close:
            out.append(b")")
        elif atom:
            out.append(atom)
        else:
            out.append(re.sub(rb"\\(.)", rb"\1", quoted))
    return out


def _uid_set(spec: str, uids: list[int]) -> set[int]:
    top = max(uids, default=0)
    wanted: set[int] = set()
    for part in spec.split(","):
        if ":" in part:
            a, b = part.split(":")
            lo, hi = sorted((top if a == "*" else int(a), top if b == "*" else int(b)))
            wanted |= {u for u in uids if lo <= u <= hi}
        else:
            wanted.add(top if part == "*" else int(part))
    return wanted & set(uids)


class _Handler(socketserver.StreamRequestHandler):
    server: ImapServer
    timeout = 10

    def send(self, text: str | bytes) -> None:
        self.wfile.write(text if isinstance(text, bytes) else text.encode())
        self.wfile.flush()

    def handle(self) -> None:
        self.authenticated = False
        self.selected = False
        self.send("* OK [CAPABILITY IMAP4rev1] pbem test IMAP ready\r\n")
        while True:
            try:
                line = self.rfile.readline(65536)
            except OSError:
                return
            if not line:
                return
            parts = line.rstrip(b"\r\n").split(b" ", 2)
            if len(parts) < 2:
                self.send("* BAD what?\r\n")
                continue
            tag = parts[0].decode()
            command = parts[1].decode().upper()
            args = parts[2] if len(parts) > 2 else b""
            if command == "UID":
                sub, _, rest = args.partition(b" ")
                command, args = "UID " + sub.decode().upper(), rest
            try:
                if not self.dispatch(tag, command, args):
                    return
            except (ValueError, IndexError, StopIteration) as err:
                self.send(f"{tag} BAD {err}\r\n")

    def dispatch(self, tag: str, command: str, args: bytes) -> bool:
        box = self.server.mailbox
        if command == "CAPABILITY":
            self.send(f"* CAPABILITY IMAP4rev1\r\n{tag} OK CAPABILITY completed\r\n")
        elif command == "NOOP":
            self.send(f"{tag} OK NOOP completed\r\n")
        elif command == "LOGOUT":
            self.send(f"* BYE logging out\r\n{tag} OK LOGOUT completed\r\n")
            return False
        elif command == "LOGIN":
            user, password = (t.decode() for t in _tokens(args)[:2])
            if (user, password) != (self.server.user, self.server.password):
                self.send(f"{tag} NO [AUTHENTICATIONFAILED] invalid credentials\r\n")
            else:
                self.authenticated = True
                self.send(f"{tag} OK LOGIN completed\r\n")
        elif not self.authenticated:
            self.send(f"{tag} NO log in first\r\n")
        elif command in ("SELECT", "EXAMINE"):
            name = _tokens(args)[0].decode()
            if name.upper() != "INBOX":
                self.send(f"{tag} NO no mailbox {name}\r\n")
                return True
            self.selected = True
            with box.lock:
                count = len(box.mails)
            permanent = "\\Seen \\Flagged \\Deleted \\Answered \\Draft" + (" \\*" if self.server.keywords else "")
            self.send(f"* {count} EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY 1] ok\r\n* OK [UIDNEXT {box.next_uid}] ok\r\n"
                      f"* FLAGS (\\Seen \\Flagged \\Deleted \\Answered \\Draft)\r\n"
                      f"* OK [PERMANENTFLAGS ({permanent})] ok\r\n{tag} OK [READ-WRITE] SELECT completed\r\n")
        elif not self.selected:
            self.send(f"{tag} NO select a mailbox first\r\n")
        elif command == "CLOSE":
            self.selected = False
            self.send(f"{tag} OK CLOSE completed\r\n")
        elif command == "UID SEARCH":
            self.send(f"* SEARCH {' '.join(str(u) for u in self.search(_tokens(args)))}\r\n{tag} OK SEARCH completed\r\n")
        elif command == "UID FETCH":
            self.fetch(tag, args)
        elif command == "UID STORE":
            self.store(tag, args)
        else:
            self.send(f"{tag} BAD unsupported command {command}\r\n")
        return True

    def search(self, tokens: list[bytes]) -> list[int]:
        words = [t.decode() for t in tokens if t not in (b"(", b")")]
        tests = []
        i = 0
        while i < len(words):
            w = words[i].upper()
            if w in ("KEYWORD", "UNKEYWORD"):
                kw = words[i + 1]
                tests.append((lambda f, kw=kw: kw in f) if w == "KEYWORD" else (lambda f, kw=kw: kw not in f))
                i += 2
                continue
            simple = {"ALL": lambda f: True, "SEEN": lambda f: "\\Seen" in f, "UNSEEN": lambda f: "\\Seen" not in f,
                      "FLAGGED": lambda f: "\\Flagged" in f, "UNFLAGGED": lambda f: "\\Flagged" not in f,
                      "DELETED": lambda f: "\\Deleted" in f, "UNDELETED": lambda f: "\\Deleted" not in f}
            if w not in simple:
                raise ValueError(f"unsupported search key {w}")
            tests.append(simple[w])
            i += 1
        with self.server.mailbox.lock:
            return [m.uid for m in self.server.mailbox.mails if all(t(m.flags) for t in tests)]

    def _seq(self, uid: int) -> int:
        return next(i for i, m in enumerate(self.server.mailbox.mails, 1) if m.uid == uid)

    def fetch(self, tag: str, args: bytes) -> None:
        spec, _, items = args.partition(b" ")
        wanted = items.decode().upper()
        box = self.server.mailbox
        with box.lock:
            chosen = [m for m in box.mails if m.uid in _uid_set(spec.decode(), [x.uid for x in box.mails])]
            for m in chosen:
                out = [f"UID {m.uid}".encode()]
                if "BODY[]" in wanted or "BODY.PEEK[]" in wanted or "RFC822" in wanted:
                    if "BODY.PEEK" not in wanted:
                        m.flags.add("\\Seen")
                    name = "RFC822" if "RFC822" in wanted and "BODY" not in wanted else "BODY[]"
                    out.append(f"{name} {{{len(m.data)}}}\r\n".encode() + m.data)
                if "FLAGS" in wanted:
                    out.insert(1, f"FLAGS ({' '.join(sorted(m.flags))})".encode())
                self.send(f"* {self._seq(m.uid)} FETCH (".encode() + b" ".join(out) + b")\r\n")
        self.send(f"{tag} OK FETCH completed\r\n")

    def store(self, tag: str, args: bytes) -> None:
        tokens = _tokens(args)
        spec, mode = tokens[0].decode(), tokens[1].decode().upper()
        flags = {t.decode() for t in tokens[2:] if t not in (b"(", b")")}
        box = self.server.mailbox
        with box.lock:
            for m in box.mails:
                if m.uid not in _uid_set(spec, [x.uid for x in box.mails]):
                    continue
                if not self.server.keywords:
                    flags = {f for f in flags if f.startswith("\\")}
                if mode.startswith("+"):
                    m.flags |= flags
                elif mode.startswith("-"):
                    m.flags -= flags
                else:
                    m.flags = set(flags)
                if not mode.endswith(".SILENT"):
                    self.send(f"* {self._seq(m.uid)} FETCH (UID {m.uid} FLAGS ({' '.join(sorted(m.flags))}))\r\n")
        self.send(f"{tag} OK STORE completed\r\n")


class ImapServer(socketserver.ThreadingTCPServer):
    """Serves one Mailbox on 127.0.0.1:<ephemeral>; `start()` runs it in a daemon thread."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, user: str, password: str, *, keywords: bool = True, lifetime: float = 120.0):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.user, self.password, self.keywords = user, password, keywords
        self.mailbox = Mailbox()
        self.port = self.server_address[1]
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._timer = threading.Timer(lifetime, self.stop)
        self._timer.daemon = True

    def start(self) -> ImapServer:
        self._thread.start()
        self._timer.start()
        return self

    def stop(self) -> None:
        self._timer.cancel()
        self.shutdown()
        self.server_close()
