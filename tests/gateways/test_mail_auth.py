"""Nobody sends orders in another player's name (issue 21): mailed orders are taken only from a
sender the gateway can prove, by the host's mail server's verdict or by the player's SSH key."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.game import Game
from pbem.gateways.mail import MailGateway
from pbem.gateways.mailconfig import load_mail_config
from tests.gateways.conftest import ADJUDICATOR, MailWorld
from tests.gateways.helpers import PLAYERS, ROUND_ONE, example, make_game

SOVIET, GERMAN = PLAYERS["Soviet Union"], PLAYERS["Germany"]
ORDERS = example(ROUND_ONE[0]).decode()


def _config(world: MailWorld, tmp_path: Path, auth: dict) -> Path:  # type: ignore[type-arg]
    path = world.config_file(tmp_path, {"demo": tmp_path / "game"})
    data = yaml.safe_load(path.read_text())
    data["authentication"] = auth
    path.write_text(yaml.safe_dump(data))
    return path


def _raw(sender: str, body: str, *headers: str) -> bytes:
    head = "".join(f"{h}\r\n" for h in headers)
    return (f"{head}From: {sender}\r\nTo: {ADJUDICATOR}\r\nSubject: [pbem demo] orders Soviet Union\r\n"
            f"Message-ID: <{abs(hash(body + head))}@players.test>\r\n\r\n{body}").replace("\n", "\r\n").replace("\r\r\n", "\r\n").encode()


def _poll(world: MailWorld, config: Path) -> list[str]:
    return [o.status for o in MailGateway(load_mail_config(config)).poll().outcomes]


def _answer(world: MailWorld, address: str) -> str:
    return world.inbox(address)[-1].get_body(("plain",)).get_content()


AR = "mx.league.test"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    make_game(tmp_path / "game")
    return tmp_path / "game"


def test_a_forged_from_is_refused_and_nothing_is_committed(mailworld: MailWorld, tmp_path: Path, game: Path) -> None:
    config = _config(mailworld, tmp_path, {"require": "authentication-results", "authserv_id": AR})
    mailworld.send(SOVIET, "", raw=_raw(SOVIET, ORDERS))
    assert _poll(mailworld, config) == ["invalid"]
    assert "NOT accepted" in _answer(mailworld, SOVIET) and "no Authentication-Results from mx.league.test" in _answer(mailworld, SOVIET)
    assert Game(game).submitted_orders() is None


def test_authentication_results_from_an_unnamed_server_are_ignored(mailworld: MailWorld, tmp_path: Path, game: Path) -> None:
    """Anyone can write an Authentication-Results header: only the host's server's counts."""
    config = _config(mailworld, tmp_path, {"require": "authentication-results", "authserv_id": AR})
    forged = "Authentication-Results: mail.forger.test; dmarc=pass header.from=players.test"
    mailworld.send(SOVIET, "", raw=_raw(SOVIET, ORDERS, forged))
    assert _poll(mailworld, config) == ["invalid"]
    assert Game(game).submitted_orders() is None


def test_a_message_the_hosts_server_vouches_for_is_accepted(mailworld: MailWorld, tmp_path: Path, game: Path) -> None:
    config = _config(mailworld, tmp_path, {"require": "authentication-results", "authserv_id": AR})
    good = f"Authentication-Results: {AR}; dkim=pass (good signature) header.d=players.test; spf=pass"
    mailworld.send(SOVIET, "", raw=_raw(SOVIET, ORDERS, good))
    assert _poll(mailworld, config) == ["accepted"]
    failing = f"Authentication-Results: {AR}; dmarc=fail header.from=players.test"
    mailworld.send(GERMAN, "", raw=_raw(GERMAN, example(ROUND_ONE[1]).decode(), failing).replace(b"orders Soviet Union", b"orders Germany"))
    assert _poll(mailworld, config) == ["invalid"]
    assert "did not confirm the sender (dmarc=fail)" in _answer(mailworld, GERMAN)


def _keys(tmp_path: Path) -> dict[str, Path]:
    keys = {}
    for who in ("ivan", "anna"):
        key = tmp_path / "keys" / who
        key.parent.mkdir(exist_ok=True)
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", str(key)], check=True)
        keys[who] = key
    return keys


def _with_signers(game: Path, keys: dict[str, Path]) -> None:
    lines = "".join(f'{PLAYERS[p]} namespaces="pbem-orders" {keys[k].with_suffix(".pub").read_text().strip()}\n'
                    for p, k in (("Soviet Union", "ivan"), ("Germany", "anna")))
    Game(game).repo.commit({"allowed_signers": lines.encode()}, "Allowed signers", {"Phase": "hosting"})


def _signed(tmp_path: Path, key: Path) -> str:
    orders = tmp_path / "orders.yaml"
    orders.write_text(ORDERS)
    result = CliRunner().invoke(cli, ["orders", "sign", str(orders), "--key", str(key)])
    assert result.exit_code == 0, result.output
    assert "-----BEGIN SSH SIGNATURE-----" in result.output
    return result.output


def test_orders_signed_with_the_players_key_are_accepted(mailworld: MailWorld, tmp_path: Path, game: Path) -> None:
    keys = _keys(tmp_path)
    _with_signers(game, keys)
    config = _config(mailworld, tmp_path, {"require": "signature"})
    body = "Here are my orders.\n\n" + _signed(tmp_path, keys["ivan"]) + "\n-- \nIvan\n"
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", body)
    assert _poll(mailworld, config) == ["accepted"]


def test_a_valid_signature_by_another_powers_key_is_refused(mailworld: MailWorld, tmp_path: Path, game: Path) -> None:
    """Anna signs orders and sends them from Ivan's address: her key is good, but not his."""
    keys = _keys(tmp_path)
    _with_signers(game, keys)
    config = _config(mailworld, tmp_path, {"require": "signature"})
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", _signed(tmp_path, keys["anna"]))
    assert _poll(mailworld, config) == ["invalid"]
    assert "does not verify as ivan@players.test's" in _answer(mailworld, SOVIET)
    assert Game(game).submitted_orders() is None


def test_unsigned_orders_are_refused_where_signatures_are_required(mailworld: MailWorld, tmp_path: Path, game: Path) -> None:
    keys = _keys(tmp_path)
    _with_signers(game, keys)
    config = _config(mailworld, tmp_path, {"require": "signature"})
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", ORDERS)
    assert _poll(mailworld, config) == ["invalid"]
    assert "pbem orders sign FILE" in _answer(mailworld, SOVIET)


def test_without_authentication_every_report_says_so(mailworld: MailWorld, tmp_path: Path, game: Path) -> None:
    config = _config(mailworld, tmp_path, {"require": "none"})
    mailworld.send(SOVIET, "[pbem demo] orders Soviet Union", ORDERS)
    assert _poll(mailworld, config) == ["accepted"]
    report = [m for m in mailworld.inbox(GERMAN) if "report" in m["Subject"]][-1]
    assert "not authenticated" in " ".join(report.get_body(("plain",)).get_content().split())


def test_the_settings_must_say_how_senders_are_proven(tmp_path: Path) -> None:
    from pbem.game.game import GameError

    path = tmp_path / "mail.yaml"
    path.write_text(yaml.safe_dump({"from": ADJUDICATOR, "incoming": {"maildir": str(tmp_path)}, "games": {}}))
    with pytest.raises(GameError, match="authentication"):
        load_mail_config(path)
