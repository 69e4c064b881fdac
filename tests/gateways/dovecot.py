"""A private Dovecot IMAP server for the mail tests: the server hosts actually run.

Started from Debian's `dovecot-imapd` (which `.ci/system-packages` installs) with a configuration
of its own in a temporary directory: IMAP only, on 127.0.0.1 and a free port, plain-text login
from a passwd file, Maildir storage. It offers the same small interface as the test suite's own
IMAP server (`port`, `mailbox.deliver`, `mailbox.mails`, `mailbox.flags_of`, `stop`), so the
same scenarios run against both.
"""

from __future__ import annotations

import imaplib
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


def why_not_available() -> str | None:
    """None when a private Dovecot can be started here, else the reason the tests skip."""
    if shutil.which("dovecot") is None:
        return "dovecot is not installed (Debian: apt-get install dovecot-imapd; .ci/system-packages does it as root)"
    if os.geteuid() != 0:
        return "a private dovecot needs root here (its login processes switch to the dovecot users)"
    for user in ("dovecot", "dovenull", "nobody"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            return f"the system user {user!r} that dovecot needs does not exist"
    return None


@dataclass
class _Stored:
    uid: int
    flags: set[str]


class _DovecotMailbox:
    def __init__(self, server: "DovecotServer"):
        self.server = server

    def _connect(self) -> imaplib.IMAP4:
        conn = imaplib.IMAP4("127.0.0.1", self.server.port, timeout=10)
        conn.login(self.server.user, self.server.password)
        conn.select("INBOX")
        return conn

    def deliver(self, data: bytes) -> int:
        conn = self._connect()
        try:
            status, answer = conn.append("INBOX", None, None, data)
            assert status == "OK", answer
            found = re.search(rb"APPENDUID \d+ (\d+)", answer[0] or b"")
            return int(found.group(1)) if found else 0
        finally:
            conn.logout()

    @property
    def mails(self) -> list[_Stored]:
        conn = self._connect()
        try:
            status, data = conn.uid("FETCH", "1:*", "(FLAGS)")
        finally:
            conn.logout()
        out = []
        for item in data or []:
            if not item:
                continue
            line = item.decode() if isinstance(item, bytes) else item[0].decode()
            uid = re.search(r"UID (\d+)", line)
            flags = re.search(r"FLAGS \(([^)]*)\)", line)
            if uid:
                out.append(_Stored(int(uid.group(1)), set(flags.group(1).split()) if flags else set()))
        return sorted(out, key=lambda m: m.uid)

    def flags_of(self, uid: int) -> set[str]:
        return next((m.flags for m in self.mails if m.uid == uid), set())


class DovecotServer:
    """One private Dovecot instance; `start()` waits until it answers, `stop()` ends it."""

    def __init__(self, user: str, password: str):
        self.user, self.password = user, password
        # not under pytest's 0700 temp tree: the mail processes run as `nobody` and must reach it
        self.root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        self.root.chmod(0o755)
        self.port = _free_port()
        self.mailbox = _DovecotMailbox(self)
        self.config = self.root / "dovecot.conf"

    def start(self) -> "DovecotServer":
        root = self.root
        for sub in ("run", "state", "mail", "home"):
            (root / sub).mkdir()
        nobody = pwd.getpwnam("nobody")
        for sub in ("mail", "home"):
            os.chown(root / sub, nobody.pw_uid, nobody.pw_gid)
        (root / "passwd").write_text(f"{self.user}:{{PLAIN}}{self.password}\n")
        self.config.write_text(f"""\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{root}/mail/%u
first_valid_uid = 1
default_internal_user = dovecot
default_internal_group = dovecot
default_login_user = dovenull
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={nobody.pw_uid} gid={nobody.pw_gid} home={root}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
}}
service anvil {{
  chroot =
}}
""")
        # the daemon keeps its standard streams: never a pipe, or this call would wait for it to end
        with open(root / "start.log", "wb") as log:
            started = subprocess.run(["dovecot", "-c", str(self.config)], stdin=subprocess.DEVNULL, stdout=log,
                                     stderr=log, timeout=30)
        if started.returncode != 0:
            raise RuntimeError(f"dovecot did not start: {(root / 'start.log').read_text(errors='replace').strip()}")
        deadline = time.monotonic() + 15
        while True:
            try:
                conn = imaplib.IMAP4("127.0.0.1", self.port, timeout=2)
                conn.login(self.user, self.password)
                conn.logout()
                return self
            except (OSError, imaplib.IMAP4.error):
                if time.monotonic() > deadline:
                    log = (root / "dovecot.log").read_text(errors="replace") if (root / "dovecot.log").exists() else ""
                    self.stop()
                    raise RuntimeError(f"dovecot did not answer on port {self.port}:\n{log[-2000:]}") from None
                time.sleep(0.2)

    def stop(self) -> None:
        subprocess.run(["doveadm", "-c", str(self.config), "stop"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=30)
        shutil.rmtree(self.root, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
