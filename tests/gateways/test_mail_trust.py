"""Issue 12, mail: no message blocks the mailbox, no orders are taken with lines lost, no mail loop,
and marking a Maildir message never rewrites it."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.game.game import Game
from pbem.gateways import mail as mail_module
from pbem.gateways.mail import MailGateway
from pbem.gateways.mailconfig import load_mail_config
from pbem.gateways.mailparse import parse_mail, unflow
from tests.gateways.conftest import ADJUDICATOR, MailWorld
from tests.gateways.helpers import PLAYERS, ROUND_ONE, example, make_game

SOVIET, GERMAN = PLAYERS["Soviet Union"], PLAYERS["Germany"]

EIGHT_BIT = (b"From: Ivan <" + SOVIET.encode() + b">\r\nTo: " + ADJUDICATOR.encode() + b"\r\n"
             b"Subject: [pbem demo] orders Soviet Union\r\nDate: Mo\xe9, 25 Nov 2026 10:00:00 +0100\r\n"
             b"Message-ID: <eight-bit@players.test>\r\nMIME-Version: 1.0\r\n"
             b"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nOrders attached.\r\n"
             b"--b\r\nContent-Type: application/x-yaml\r\nContent-Disposition: attachment; filename=\"ordres-\xe9t\xe9.yaml\"\r\n\r\n"
             + example(ROUND_ONE[0]).replace(b"\n", b"\r\n") + b"\r\n--b--\r\n")


def _config(world: MailWorld, tmp_path: Path, game_dir: Path) -> Path:
    return world.config_file(tmp_path, {"demo": game_dir})


@pytest.mark.parametrize("mailworld", ["builtin", "dovecot"], indirect=True)
def test_raw_8bit_headers_neither_crash_nor_block_the_mailbox(mailworld: MailWorld, tmp_path: Path) -> None:
    """An unencoded non-ASCII file name and a raw date: read like any other message."""
    make_game(tmp_path / "game")
    mailworld.send(SOVIET, "", raw=EIGHT_BIT)
    result = MailGateway(load_mail_config(_config(mailworld, tmp_path, tmp_path / "game"))).poll()
    assert [o.status for o in result.outcomes] == ["accepted"]
    mail = parse_mail(EIGHT_BIT)
    assert mail.candidates and mail.sender == SOVIET


@pytest.mark.parametrize("mailworld", ["builtin", "dovecot"], indirect=True)
def test_a_message_the_parser_fails_on_is_answered_set_aside_and_blocks_nothing(
        mailworld: MailWorld, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever breaks on one message, the others are handled, the sender is told, and the next
    poll does not die on the same message again."""
    make_game(tmp_path / "game")
    real = mail_module.parse_mail

    def fragile(raw: bytes):  # type: ignore[no-untyped-def]
        if b"<poison@players.test>" in raw:
            raise AttributeError("'Header' object has no attribute 'lower'")
        return real(raw)

    monkeypatch.setattr(mail_module, "parse_mail", fragile)
    mailworld.send(GERMAN, "[pbem demo] orders Germany", "power: Germany\n", message_id="<poison@players.test>")
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", attachments=[("o.yaml", example(ROUND_ONE[0]))])
    config = load_mail_config(_config(mailworld, tmp_path, tmp_path / "game"))
    result = MailGateway(config).poll()
    assert sorted(o.status for o in result.outcomes) == ["accepted", "failed"]
    assert "could not be read" in mailworld.inbox(GERMAN)[0].get_body(("plain",)).get_content()
    assert MailGateway(config).poll().outcomes == ()  # set aside, not retried for ever


def test_format_flowed_orders_are_joined_again() -> None:
    """RFC 3676: Thunderbird wraps a long line at 72 characters with a trailing space; DelSp=yes
    adds the space itself. Both must give back the line as typed."""
    long_move = "  - {units: 3 infantry, 1 artillery, from: Karelia S.S.R., to: West Russia}"
    # as sent: the client space-stuffs a line that begins with a space (RFC 3676, 4.4)
    flowed = "power: Soviet Union\r\nround: 1\r\ncombat_move:\r\n   - {units: 3 infantry, 1 artillery, from: \r\nKarelia S.S.R., to: West Russia}\r\n"
    assert long_move in unflow(flowed.replace("\r\n", "\n"), delsp=False)
    delsp = flowed.replace("from: \r\nKarelia", "from:  \r\nKarelia")
    msg = EmailMessage()
    msg["From"], msg["Subject"] = SOVIET, "[pbem demo] orders Soviet Union"
    msg.set_content(delsp.replace("\r\n", "\n"))
    msg.replace_header("Content-Type", 'text/plain; charset="utf-8"; format=flowed; delsp=yes')
    mail = parse_mail(msg.as_bytes())
    assert long_move in mail.candidates[0].text


def test_a_body_that_cannot_be_decoded_whole_is_refused_quoting_what_was_read(mailworld: MailWorld, tmp_path: Path) -> None:
    make_game(tmp_path / "game")
    good = base64.b64encode(example(ROUND_ONE[0])).decode()
    broken = good[:40] + "!!" + good[40:-3]  # bad characters and a cut end: lines may be lost
    raw = (f"From: {SOVIET}\r\nTo: {ADJUDICATOR}\r\nSubject: [pbem demo] orders Soviet Union\r\nMessage-ID: <b64@players.test>\r\n"
           "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
           f"{broken}\r\n").encode()
    mailworld.send(SOVIET, "", raw=raw)
    result = MailGateway(load_mail_config(_config(mailworld, tmp_path, tmp_path / "game"))).poll()
    assert [o.status for o in result.outcomes] == ["invalid"]
    answer = mailworld.inbox(SOVIET)[0].get_body(("plain",)).get_content()
    assert "could not be read whole" in answer and "this much was read" in answer
    assert Game(tmp_path / "game").submitted_orders() is None


@pytest.mark.parametrize("header", ["List-Id: <league.lists.test>", "Precedence: bulk", "Auto-Submitted: auto-replied",
                                    "X-Auto-Response-Suppress: All", "Return-Path: <>"])
def test_lists_and_auto_replies_are_never_answered(mailworld: MailWorld, tmp_path: Path, header: str) -> None:
    """RFC 3834: answering these could start a mail loop."""
    make_game(tmp_path / "game")
    name, value = header.split(": ", 1)
    raw = (f"From: {SOVIET}\r\nTo: {ADJUDICATOR}\r\nSubject: [pbem demo] orders Soviet Union\r\n{name}: {value}\r\n"
           "Message-ID: <auto@players.test>\r\n\r\npower: Soviet Union\r\nround: 7\r\n").encode()
    mailworld.send(SOVIET, "", raw=raw)
    result = MailGateway(load_mail_config(_config(mailworld, tmp_path, tmp_path / "game"))).poll()
    assert [o.status for o in result.outcomes] == ["ignored"]
    assert mailworld.inbox(SOVIET) == []


def test_marking_a_maildir_message_renames_it_and_never_rewrites_it(mailworld: MailWorld, tmp_path: Path) -> None:
    """Maildir specification: flags are set by moving the file into cur/ with ":2,FLAGS". A message
    with odd headers (here folded, 8-bit, and a duplicated field) stays byte for byte as it came."""
    make_game(tmp_path / "game")
    (tmp_path / "Maildir" / "new").mkdir(parents=True)
    (tmp_path / "Maildir" / "cur").mkdir()
    (tmp_path / "Maildir" / "tmp").mkdir()
    delivered = tmp_path / "Maildir" / "new" / "1700000000.M1P1.host"
    delivered.write_bytes(EIGHT_BIT.replace(b"Subject:", b"X-Odd:  a\r\n\tfolded value\r\nX-Odd: twice\r\nSubject:"))
    before = delivered.read_bytes()
    config = _config(mailworld, tmp_path, tmp_path / "game")
    config.write_text(config.read_text().replace("incoming:", "incoming_unused:") + f"incoming: {{maildir: {tmp_path / 'Maildir'}}}\n")
    result = MailGateway(load_mail_config(config)).poll()
    assert [o.status for o in result.outcomes] == ["accepted"]
    (marked,) = list((tmp_path / "Maildir" / "cur").iterdir())
    assert marked.name == "1700000000.M1P1.host:2,S"
    assert marked.read_bytes() == before
    assert not delivered.exists()


@pytest.mark.parametrize("mailworld", ["builtin", "dovecot"], indirect=True)
def test_mail_that_cannot_leave_waits_in_the_outbox_and_the_next_poll_sends_it(mailworld: MailWorld, tmp_path: Path) -> None:
    """SMTP down: the orders are committed, the turn adjudicated, and the answer and the report wait
    in the game's outbox (inside .git, so the work tree stays clean); the poll says so; the next
    poll, with the server back, sends them first and empties the outbox."""
    from pbem.gateways.outbox import Outbox, game_outbox

    game_dir = tmp_path / "game"
    make_game(game_dir, hosting={"report_map": "none"})
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", attachments=[("o.yaml", example(ROUND_ONE[0]))])
    config = _config(mailworld, tmp_path, game_dir)
    down = config.read_text().replace(f"port: {mailworld.smtp_port}", "port: 9")  # nothing listens on the discard port
    config.write_text(down)
    result = MailGateway(load_mail_config(config)).poll()
    assert [o.status for o in result.outcomes] == ["accepted"]
    assert [a[2] for a in result.adjudicated] == ["Soviet Union"]
    assert result.waiting == 2 and "waiting in the outbox" in result.mail
    outbox = Outbox(game_outbox(game_dir))
    assert len(outbox.waiting()) == 2
    assert ".git" in outbox.directory.parts
    import subprocess

    assert subprocess.run(["git", "-C", str(game_dir), "status", "--porcelain"], capture_output=True, text=True).stdout == ""
    assert mailworld.inbox(SOVIET) == []
    config.write_text(down.replace("port: 9", f"port: {mailworld.smtp_port}"))
    again = MailGateway(load_mail_config(config)).poll()
    assert again.waiting == 0 and outbox.waiting() == []
    subjects = [m["Subject"] for m in mailworld.inbox(SOVIET)]
    assert subjects[0].startswith("Re: [pbem demo]") and subjects[1] == "[pbem demo] Round 1: Soviet Union report"


def test_the_outbox_writes_whole_messages_in_order(tmp_path: Path) -> None:
    from pbem.gateways.outbox import Outbox, QueuedSender

    class Down:
        def send(self, message: EmailMessage) -> None:
            raise OSError("connection refused")

    outbox = Outbox(tmp_path / "outbox")
    queue = QueuedSender(Down())
    for n in range(3):
        msg = EmailMessage()
        msg["Subject"] = f"message {n}"
        msg.set_content("x")
        assert queue.send(msg, outbox) is False
    assert [Outbox.read(p)["Subject"] for p in outbox.waiting()] == ["message 0", "message 1", "message 2"]
    assert not list(outbox.directory.glob(".*.tmp"))
    sent: list[str] = []

    class Up:
        def send(self, message: EmailMessage) -> None:
            sent.append(str(message["Subject"]))

    QueuedSender(Up()).flush(outbox)
    assert sent == ["message 0", "message 1", "message 2"] and outbox.waiting() == []
