"""What mail really brings: strangers, mistakes, resends, odd charsets, broken setups, local mailboxes."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage
from pathlib import Path

from pbem.game.game import Game
from pbem.gateways.mail import MailGateway
from pbem.gateways.mailconfig import load_mail_config
from pbem.gateways.mailparse import parse_mail
from tests.gateways.conftest import MailWorld
from tests.gateways.helpers import PLAYERS, ROUND_ONE, example, make_game

SOVIET = PLAYERS["Soviet Union"]


def _body(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def _poll(world: MailWorld, tmp_path: Path, games: dict[str, Path]) -> object:
    return MailGateway(load_mail_config(world.config_file(tmp_path, games))).poll()


def test_unknown_senders_learn_nothing_about_the_game(mailworld: MailWorld, tmp_path: Path) -> None:
    game_dir = tmp_path / "game"
    make_game(game_dir)
    mailworld.send("mallory@evil.test", "[pbem demo] orders Soviet Union", attachments=[("o.yaml", example(ROUND_ONE[0]))])
    mailworld.send("eve@evil.test", "[pbem no-such-game] orders Germany", "power: Germany\n")
    mailworld.send("trudy@evil.test", "hello", "who plays here?")
    result = _poll(mailworld, tmp_path, {"demo": game_dir})
    assert [o.status for o in result.outcomes] == ["rejected"] * 3  # type: ignore[attr-defined]
    answers = [_body(mailworld.inbox(a)[0]) for a in ("mallory@evil.test", "eve@evil.test", "trudy@evil.test")]
    assert answers[0] == answers[1] == answers[2]  # the same words whether the game exists or not
    subjects = {mailworld.inbox(a)[0]["Subject"] for a in ("mallory@evil.test", "eve@evil.test", "trudy@evil.test")}
    assert subjects == {"Re: your message"}
    for secret in ("demo", "Soviet", "Germany", "ivan@", "round", "turn"):
        assert secret not in answers[0]
    assert len(Game(game_dir).repo.history()) == 1


def test_mistakes_are_answered_with_line_numbers_and_nothing_is_committed(mailworld: MailWorld, tmp_path: Path) -> None:
    game_dir = tmp_path / "game"
    make_game(game_dir)
    bad = example(ROUND_ONE[0]).replace(b"from: Karelia", b"from: Atlantis")
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", "see attachment", attachments=[("mine.yaml", bad)])
    # another player's orders out of turn, and a player claiming a power that is not theirs
    mailworld.send(PLAYERS["Germany"], "[pbem demo] orders Germany", attachments=[("g.yaml", example(ROUND_ONE[1]))])
    mailworld.send(PLAYERS["Japan"], "[pbem demo] orders Soviet Union", attachments=[("s.yaml", example(ROUND_ONE[0]))])
    result = _poll(mailworld, tmp_path, {"demo": game_dir})
    assert sorted(o.status for o in result.outcomes) == ["invalid"] * 3  # type: ignore[attr-defined]
    answer = _body(mailworld.inbox(SOVIET)[-1])
    assert "NOT accepted" in answer and "mine.yaml:8:" in answer and "Atlantis" in answer
    assert "   8 |   - {units: \"2 infantry, 1 artillery\", from: Atlantis" in answer
    assert "it is Soviet Union's turn, not Germany's" in _body(mailworld.inbox(PLAYERS["Germany"])[-1])
    assert "you play Japan in this game, not Soviet Union" in _body(mailworld.inbox(PLAYERS["Japan"])[-1])
    assert len(Game(game_dir).repo.history()) == 1


def test_the_latest_valid_orders_before_adjudication_win_and_resends_are_not_committed_twice(
        mailworld: MailWorld, tmp_path: Path) -> None:
    game_dir = tmp_path / "game"
    make_game(game_dir, hosting={"turn_hours": 48, "adjudicate": "at-deadline"})
    first = example(ROUND_ONE[0])
    second = first.replace(b"purchase: 8 infantry", b"purchase: 7 infantry").replace(b"Russia: 8 infantry", b"Russia: 7 infantry")
    latin1 = ("# Befehle f\u00fcr die Sowjetunion\n").encode("latin-1") + second
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", attachments=[("a.yaml", first)], message_id="<one@players.test>")
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", attachments=[("b.yaml", latin1)], message_id="<two@players.test>")
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", attachments=[("c.yaml", b"power: Soviet Union\nround: [\n")])
    first_poll = _poll(mailworld, tmp_path, {"demo": game_dir})
    assert [o.status for o in first_poll.outcomes] == ["accepted", "accepted", "invalid"]  # type: ignore[attr-defined]
    game = Game(game_dir)
    committed = game.submitted_orders()
    assert committed is not None and b"purchase: 7 infantry" in committed and "f\u00fcr".encode() in committed
    assert not first_poll.adjudicated  # type: ignore[attr-defined]
    # the same message delivered again (a mail server retrying) is answered but not committed twice
    mailworld.imap.mailbox.deliver(mailworld.imap.mailbox.mails[1].data)
    again = _poll(mailworld, tmp_path, {"demo": game_dir})
    assert [o.status for o in again.outcomes] == ["duplicate"]  # type: ignore[attr-defined]
    assert len(Game(game_dir).repo.history()) == len(game.repo.history())
    # the same orders in a new message: accepted, nothing committed, and the reply names no commit
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", attachments=[("b.yaml", latin1)], message_id="<three@players.test>")
    resent = _poll(mailworld, tmp_path, {"demo": game_dir})
    assert [o.status for o in resent.outcomes] == ["accepted"]  # type: ignore[attr-defined]
    assert len(Game(game_dir).repo.history()) == len(game.repo.history())
    assert "are the same as those already submitted: nothing changed" in _body(mailworld.inbox(SOVIET)[-1])


def test_a_message_that_cannot_be_processed_stays_marked_and_is_reported(mailworld: MailWorld, tmp_path: Path) -> None:
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", attachments=[("a.yaml", example(ROUND_ONE[0]))])
    result = _poll(mailworld, tmp_path, {"demo": tmp_path / "missing-game"})
    assert not result.ok  # type: ignore[attr-defined]
    (outcome,) = result.outcomes  # type: ignore[attr-defined]
    assert outcome.status == "failed" and "missing-game" in outcome.detail
    stored = mailworld.imap.mailbox.mails[0]
    assert "$PbemFailed" in stored.flags and "$PbemDone" not in stored.flags
    assert mailworld.inbox(SOVIET) == []
    # the next poll leaves it alone; --retry-failed takes it again once the host has fixed the setup
    make_game(tmp_path / "missing-game")
    assert _poll(mailworld, tmp_path, {"demo": tmp_path / "missing-game"}).outcomes == ()  # type: ignore[attr-defined]
    retried = MailGateway(load_mail_config(tmp_path / "mail.yaml")).poll(retry_failed=True)
    assert [o.status for o in retried.outcomes] == ["accepted"]
    assert mailworld.imap.mailbox.flags_of(stored.uid) >= {"$PbemDone", "\\Seen"}
    assert "\\Flagged" not in mailworld.imap.mailbox.flags_of(stored.uid)


def test_a_maildir_is_enough_for_a_simple_setup(mailworld: MailWorld, tmp_path: Path) -> None:
    game_dir = tmp_path / "game"
    make_game(game_dir, hosting={"report_map": "svg"})
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    for name, power in zip(ROUND_ONE[:2], ["Soviet Union", "Germany"]):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = PLAYERS[power], "orders@league.test", f"[pbem demo] {power}"
        msg.set_content("Hi\n\n" + example(name).decode() + "\nThanks!\n\nOn Monday someone wrote:\n> game: old\n")
        box.add(msg)
    bounce = EmailMessage()
    bounce["From"], bounce["Subject"], bounce["Auto-Submitted"] = "MAILER-DAEMON@league.test", "Undelivered", "auto-replied"
    bounce.set_content("power: Germany\n")
    box.add(bounce)
    config = mailworld.config_file(tmp_path, {"demo": game_dir})
    text = config.read_text().replace("incoming:", "incoming_unused:") + f"incoming: {{maildir: {tmp_path / 'Maildir'}}}\n"
    config.write_text(text)
    result = MailGateway(load_mail_config(config)).poll()
    assert sorted(o.status for o in result.outcomes) == ["accepted", "accepted", "ignored"]
    assert [a[2] for a in result.adjudicated] == ["Soviet Union", "Germany"]
    assert all("S" in mailbox.Maildir(tmp_path / "Maildir").get_message(k).get_flags() for k in box.iterkeys())
    assert MailGateway(load_mail_config(config)).poll().outcomes == ()


def test_parsing_survives_what_clients_send() -> None:
    raw = (b"From: =?iso-8859-1?q?J=F6rg?= <JOERG@Players.Test>\r\nSubject: Re: [PBEM Demo] orders germany\r\n"
           b"Content-Type: text/plain; charset=x-unknown-charset\r\n\r\n"
           b"power:\xa0Germany\r\nround: 1\r\n-- \r\nJ\xf6rg\r\n")
    mail = parse_mail(raw)
    assert (mail.sender, mail.game_id, mail.power_hint) == ("joerg@players.test", "demo", "germany")
    assert mail.candidates[0].text == "power: Germany\nround: 1\n"
    assert parse_mail(b"garbage without headers").candidates == ()
    # a sender's name in broken base64, a charset name with a NUL in it: still read, not set aside
    raw = (b"From: =?utf-8?b?w6lsw?= <ann@players.test>\r\nSubject: [pbem demo] Germany\r\n"
           b"Content-Type: text/plain; charset=\"utf-8\x00\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
           b"power: Germany\r\nround: 1\r\n-- \r\nAnn M=FCller\r\n")
    mail = parse_mail(raw)
    assert (mail.sender, mail.game_id, mail.power_hint) == ("ann@players.test", "demo", "Germany")
    assert mail.candidates[0].text == "power: Germany\nround: 1\n" and not mail.problems


def test_configuration_mistakes_are_messages_not_tracebacks(tmp_path: Path) -> None:
    import subprocess
    import sys

    pbem = [sys.executable, "-c", "from pbem.cli import main; main()"]
    missing = subprocess.run([*pbem, "mail", "poll", "--config", str(tmp_path / "none.yaml")],
                             capture_output=True, text=True, check=False)
    assert missing.returncode == 2 and "no mail configuration" in missing.stderr and "Traceback" not in missing.stderr
    # a password written into a file inside a git work tree (e.g. a game repository) is refused
    game_dir = tmp_path / "game"
    make_game(game_dir)
    inside = game_dir / "mail.yaml"
    inside.write_text("from: x@league.test\nsmtp: {host: 127.0.0.1, user: x, password: hunter2}\n")
    refused = subprocess.run([*pbem, "mail", "poll", "--config", str(inside)], capture_output=True, text=True, check=False)
    assert refused.returncode == 2 and "inside a git work tree" in refused.stderr
    # and a password that should come from the environment but does not
    outside = tmp_path / "mail.yaml"
    outside.write_text("from: x@league.test\nsmtp: {host: 127.0.0.1, user: x, password_env: LEAGUE_SMTP}\n")
    unset = subprocess.run([*pbem, "mail", "poll", "--config", str(outside)], capture_output=True, text=True, check=False)
    assert unset.returncode == 2 and "$LEAGUE_SMTP" in unset.stderr


def test_the_acknowledgement_tells_the_warnings_pbem_validate_would(mailworld: MailWorld, tmp_path: Path) -> None:
    """Standing orders mailed with a key the game never reads (`intercept:` with the escorts and
    interceptors option off) are accepted, and the answer says what `pbem validate` would warn of:
    by mail nobody else would tell the player."""
    game_dir = tmp_path / "game"
    make_game(game_dir)
    standing = b"power: Soviet Union\nstanding_orders:\n  default: {order_of_loss: [infantry], intercept: true}\n"
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", attachments=[("standing.yaml", standing)])
    result = _poll(mailworld, tmp_path, {"demo": game_dir})
    assert [o.status for o in result.outcomes] == ["accepted"]  # type: ignore[attr-defined]
    answer = _body(mailworld.inbox(SOVIET)[-1])
    assert "Standing orders of Soviet Union accepted" in answer
    assert "Warnings" in answer and "standing.yaml:3:" in answer and "no fighter rises against a bombing raid" in answer


def test_a_problem_cited_at_the_end_of_the_orders_has_its_line_in_the_listing() -> None:
    """An unclosed bracket is cited one line past the last: the reply's listing shows that line too."""
    from pbem.gateways.mail import _numbered

    text = "power: Soviet Union\nround: [\n"
    assert _numbered(text, 3) == "   1 | power: Soviet Union\n   2 | round: [\n   3 | (the end of the orders)\n"
    assert _numbered(text, 2) == "   1 | power: Soviet Union\n   2 | round: [\n"
