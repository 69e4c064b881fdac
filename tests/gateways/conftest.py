"""Real mail servers on 127.0.0.1 for the gateway tests: aiosmtpd for SMTP, a small IMAP4rev1 server.

`mailworld` wires them like a tiny internet: mail sent by SMTP to the adjudicator's address is
delivered into the IMAP INBOX the gateway polls; mail to anyone else lands in that person's
inbox here, where the test reads it.  Both servers are stopped at the end of the test and stop
by themselves after two minutes in any case.
"""

from __future__ import annotations

import email
import email.policy
import smtplib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from tests.gateways.imapserver import ImapServer

aiosmtpd = pytest.importorskip("aiosmtpd")
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

ADJUDICATOR = "orders@league.test"
IMAP_USER, IMAP_PASSWORD = "orders", "imap-secret"
SMTP_USER, SMTP_PASSWORD = "orders", "smtp-secret"


class _EphemeralController(Controller):
    """aiosmtpd's Controller, bound to an ephemeral port: it learns the port before its self-check."""

    def _trigger_server(self) -> None:
        assert self.server is not None
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


@dataclass
class MailWorld:
    imap: ImapServer
    smtp_port: int
    inboxes: dict[str, list[EmailMessage]] = field(default_factory=dict)
    authenticated: list[bool] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, sender: str, subject: str, body: str = "", *, attachments: list[tuple[str, bytes]] = (),  # type: ignore[assignment]
             html: str | None = None, message_id: str | None = None, raw: bytes | None = None) -> None:
        """A player's mail client: plain SMTP to the adjudicator, no login (as from another server)."""
        if raw is None:
            msg = EmailMessage()
            msg["From"] = sender
            msg["To"] = ADJUDICATOR
            msg["Subject"] = subject
            msg["Message-ID"] = message_id or email.utils.make_msgid(domain="players.test")
            if html is not None and not body:
                msg.set_content(html, subtype="html", cte="quoted-printable")
            else:
                msg.set_content(body)
                if html is not None:
                    msg.add_alternative(html, subtype="html", cte="quoted-printable")
            for name, data in attachments:
                msg.add_attachment(data, maintype="application", subtype="x-yaml", filename=name)
            raw = msg.as_bytes()
        raw = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")  # SMTP lines end in CRLF; smtplib leaves bytes alone
        with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=10) as client:
            client.sendmail(sender, [ADJUDICATOR], raw)

    def inbox(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return list(self.inboxes.get(address.lower(), []))

    def config_file(self, directory: Path, games: dict[str, Path], **extra: Any) -> Path:
        import yaml

        data = {
            "from": f"League adjudicator <{ADJUDICATOR}>",
            "incoming": {"imap": {"host": "127.0.0.1", "port": self.imap.port, "security": "plain", "user": IMAP_USER,
                                  "timeout": 10}},
            "smtp": {"host": "127.0.0.1", "port": self.smtp_port, "security": "plain", "user": SMTP_USER, "timeout": 10},
            "games": {k: str(v) for k, v in games.items()},
            "authentication": {"require": "none"},
            **extra,
        }
        path = directory / "mail.yaml"
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        return path


class _Handler:
    def __init__(self, world: MailWorld):
        self.world = world

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        data = envelope.original_content or envelope.content
        for rcpt in envelope.rcpt_tos:
            if rcpt.lower() == ADJUDICATOR:
                self.world.imap.mailbox.deliver(data)
            else:
                msg = email.message_from_bytes(data, policy=email.policy.default)
                with self.world.lock:
                    self.world.inboxes.setdefault(rcpt.lower(), []).append(msg)  # type: ignore[arg-type]
                    self.world.authenticated.append(bool(session.authenticated))
        return "250 OK delivered"


def _authenticator(server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
    ok = isinstance(auth_data, LoginPassword) and (auth_data.login.decode(), auth_data.password.decode()) == (SMTP_USER, SMTP_PASSWORD)
    return AuthResult(success=ok)


@pytest.fixture
def mailworld(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailWorld]:
    """The mail world with the suite's own IMAP server, or with `dovecot` (indirect parameter), the
    server hosts run: `@pytest.mark.parametrize("mailworld", ["builtin", "dovecot"], indirect=True)`."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))  # the outbox of mail of no game
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", IMAP_PASSWORD)
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", SMTP_PASSWORD)
    imap: Any
    if getattr(request, "param", "builtin") == "dovecot":
        from tests.gateways.dovecot import DovecotServer, why_not_available

        reason = why_not_available()
        if reason:
            pytest.skip(f"Dovecot end-to-end test skipped: {reason}")
        imap = DovecotServer(IMAP_USER, IMAP_PASSWORD).start()
    else:
        imap = ImapServer(IMAP_USER, IMAP_PASSWORD).start()
    world = MailWorld(imap, 0)
    controller = _EphemeralController(_Handler(world), hostname="127.0.0.1", port=0, authenticator=_authenticator,
                                      auth_require_tls=False, decode_data=False, ready_timeout=10)
    controller.start()
    world.smtp_port = controller.port
    timer = threading.Timer(120, controller.stop)
    timer.daemon = True
    timer.start()
    try:
        yield world
    finally:
        timer.cancel()
        try:
            controller.stop()
        except (AssertionError, RuntimeError):
            pass
        imap.stop()
