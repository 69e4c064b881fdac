"""A round played entirely by email, through real SMTP and IMAP servers on localhost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbem.game.game import Game
from tests.gateways.conftest import ADJUDICATOR, MailWorld
from tests.gateways.helpers import PLAYERS, ROUND_ONE, example, make_game

PBEM = [sys.executable, "-c", "from pbem.cli import main; main()"]


def _poll(config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PBEM, "mail", "poll", "--config", str(config)], capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("mailworld", ["builtin", "dovecot"], indirect=True)
def test_a_round_by_email_ends_with_reports_in_every_inbox(mailworld: MailWorld, tmp_path: Path) -> None:
    game_dir = tmp_path / "game"
    make_game(game_dir, hosting={"report_map": "svg"})
    config = mailworld.config_file(tmp_path, {"demo": game_dir})
    powers = list(PLAYERS)

    # the Soviet player attaches the file; the German pastes his orders into an HTML-only mail, quoting an old thread
    mailworld.send(PLAYERS["Soviet Union"], "[pbem demo] orders Soviet Union", "Here you go.\n\n-- \nIvan\n",
                   attachments=[("1-soviet-union.yaml", example(ROUND_ONE[0]))])
    german = example(ROUND_ONE[1]).decode()
    html = ("<html><body><p>My orders:</p><pre>" + german.replace("&", "&amp;").replace("<", "&lt;") + "</pre>"
            "<p>Anna</p><blockquote>On Monday Ivan wrote: game: old</blockquote></body></html>")
    mailworld.send(PLAYERS["Germany"], "Re: [pbem demo] orders Germany", html=html)
    result = _poll(config)
    assert result.returncode == 0, result.stderr
    assert "adjudicated demo round 1 Soviet Union" in result.stdout
    assert "adjudicated demo round 1 Germany" in result.stdout

    # the rest of the round, one message each, the Japanese body with a signature and a stray second attachment
    for name, power in zip(ROUND_ONE[2:], powers[2:]):
        attachments = [(name, example(name))]
        if power == "Japan":
            attachments.append(("notes.yaml", b"# nothing to see\npower: Germany\n"))
        mailworld.send(PLAYERS[power], f"[pbem demo] orders {power}", "Orders attached.\n-- \nsent from my phone",
                       attachments=attachments)
    result = _poll(config)
    assert result.returncode == 0, result.stderr + result.stdout

    game = Game(game_dir)
    state = game.state()
    assert (state.round, game.power_to_move(state)) == (2, "Soviet Union")
    submitted = [c.trailers for c in game.repo.history() if c.trailers.get("Phase") == "orders"]
    assert [t["Via"] for t in submitted] == ["mail"] * 5
    assert [t["Submitted-By"] for t in submitted] == [PLAYERS[p] for p in powers]

    for power, address in PLAYERS.items():
        inbox = mailworld.inbox(address)
        acks = [m for m in inbox if "accepted" in m.get_body(("plain",)).get_content()]
        assert len(acks) == 1, (power, [m["Subject"] for m in inbox])
        assert acks[0]["In-Reply-To"]
        reports = [m for m in inbox if m["Subject"].startswith("[pbem demo] Round 1:")]
        assert [m["Subject"].split(": ", 1)[1] for m in reports] == [f"{p} report" for p in powers]
        last = reports[-1]
        assert last.get_body(("html",)) is not None and last.get_body(("plain",)) is not None
        inline = [p.get_filename() for p in last.walk() if p.get_content_disposition() == "inline"]
        assert inline == ["demo-round-01-united-states-map.svg"]  # the board, shown in the HTML by Content-ID
        assert last["From"].endswith(f"<{ADJUDICATOR}>")
    # the gateway logged in to send (credentials from the environment), and every message is marked done
    assert all(mailworld.authenticated)
    assert all("$PbemDone" in mailworld.imap.mailbox.flags_of(m.uid) for m in mailworld.imap.mailbox.mails)
    assert subprocess.run([*PBEM, "audit", "--game", str(game_dir)], capture_output=True, text=True, check=False).returncode == 0
