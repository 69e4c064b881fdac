"""Commit-reveal by the opponents (issue: dice nobody can choose or foresee).

The host adjudicates and also plays; every enemy of the mover reveals a link of its own chain after
the mover's orders are committed, so no single party can foresee the dice.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.audit import audit_game
from pbem.game.game import Game, GameError

ORDERS = Path(__file__).resolve().parents[2] / "examples" / "1942-2e" / "round-01" / "1-soviet-union.yaml"


def run(*args: str) -> object:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, Path]:
    target, keys = tmp_path / "demo", tmp_path / "keys"
    assert run("new", str(target), "--id", "demo", "--key-dir", str(keys), "--reveal", "opponents").exit_code == 0  # type: ignore[attr-defined]
    for power in ("Germany", "Japan"):
        result = run("ack", "--game", str(target), "--power", power, "--init", "--key-dir", str(keys / power))
        assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    return target, keys


def test_turn_waits_for_the_opponents_reveals(game: tuple[Path, Path]) -> None:
    target, keys = game
    assert run("submit", str(ORDERS), "--game", str(target)).exit_code == 0  # type: ignore[attr-defined]
    with pytest.raises(GameError, match="waiting for dice reveals from Germany, Japan"):
        Game(target).adjudicate()
    assert run("ack", "--game", str(target), "--power", "Germany", "--key-dir", str(keys / "Germany")).exit_code == 0  # type: ignore[attr-defined]
    assert run("ack", "--game", str(target), "--power", "Japan", "--key-dir", str(keys / "Japan")).exit_code == 0  # type: ignore[attr-defined]
    sha, report = Game(target).adjudicate()
    info = Game(target).repo.history()[-1].trailers
    assert info["Dice-Opponents"].startswith("Germany=revealed:") and "Japan=revealed:" in info["Dice-Opponents"]
    assert audit_game(target).ok


def test_status_says_the_turn_waits_for_the_reveals(game: tuple[Path, Path]) -> None:
    """README, pbem status: 'what is awaited' - with opponents' reveals, the reveals before the
    adjudication, which would refuse to run without them."""
    import json

    target, keys = game
    run("submit", str(ORDERS), "--game", str(target))
    out = run("status", "--game", str(target)).output  # type: ignore[attr-defined]
    assert "awaiting dice reveals from Germany, Japan (each runs `pbem ack`), then adjudication" in out, out
    data = json.loads(run("status", "--game", str(target), "--json").output)  # type: ignore[attr-defined]
    assert data["awaiting"] == {"power": "Soviet Union", "what": "reveals", "from": ["Germany", "Japan"]}
    run("ack", "--game", str(target), "--power", "Germany", "--key-dir", str(keys / "Germany"))
    run("ack", "--game", str(target), "--power", "Japan", "--key-dir", str(keys / "Japan"))
    assert "awaiting adjudication (`pbem adjudicate`)" in run("status", "--game", str(target)).output  # type: ignore[attr-defined]


def test_orders_are_locked_once_an_opponent_revealed(game: tuple[Path, Path]) -> None:
    """After a reveal the mover cannot resubmit: new orders could be tried against known links."""
    target, keys = game
    run("submit", str(ORDERS), "--game", str(target))
    run("ack", "--game", str(target), "--power", "Germany", "--key-dir", str(keys / "Germany"))
    result = run("submit", str(ORDERS), "--game", str(target))
    assert result.exit_code == 2 and "locked" in result.output  # type: ignore[attr-defined]


def test_withheld_link_is_replaced_after_the_deadline(game: tuple[Path, Path]) -> None:
    """A power that does not reveal gets the public stand-in link; the audit still checks it."""
    target, keys = game
    run("submit", str(ORDERS), "--game", str(target))
    run("ack", "--game", str(target), "--power", "Germany", "--key-dir", str(keys / "Germany"))
    Game(target).adjudicate(deadline_passed=True)
    info = Game(target).repo.history()[-1].trailers
    assert "Japan=withheld:" in info["Dice-Opponents"]
    assert audit_game(target).ok


def test_only_opponents_reveal(game: tuple[Path, Path]) -> None:
    target, keys = game
    run("submit", str(ORDERS), "--game", str(target))
    result = run("ack", "--game", str(target), "--power", "United Kingdom", "--key-dir", str(keys))
    assert result.exit_code == 2 and "not an opponent" in result.output  # type: ignore[attr-defined]


def test_one_revealed_link_changes_the_dice(tmp_path: Path) -> None:
    """The dice depend on every opponent's link: the same turn with another link rolls differently."""
    from pbem import dice

    a = dice.SeededDice(dice.turn_seed("11" * 32, "22" * 32, "33" * 32, {"Germany": "44" * 32}))
    b = dice.SeededDice(dice.turn_seed("11" * 32, "22" * 32, "33" * 32, {"Germany": "55" * 32}))
    assert a.roll("battle/x/round-1/attacker", 20) != b.roll("battle/x/round-1/attacker", 20)


def _reveal_both(target: Path, keys: Path) -> None:
    for power in ("Germany", "Japan"):
        result = run("ack", "--game", str(target), "--power", power, "--key-dir", str(keys / power))
        assert result.exit_code == 0, result.output  # type: ignore[attr-defined]


def _bypass_and_adjudicate(target: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A host adjudicating with a pbem that skips the seal check (or by hand)."""
    import pbem.game.game as game_module

    monkeypatch.setattr(game_module, "check_seals", lambda *a, **k: None)
    Game(target).adjudicate()
    monkeypatch.undo()


def test_orders_changed_behind_pbems_back_after_the_reveals_are_refused_and_audited(
        game: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A host who also plays commits a variant of the mover's orders with plain git once the
    opponents' links are known (so the dice are): adjudication refuses it, and a turn adjudicated
    anyway fails the audit, because each reveal is bound to the orders it was made for."""
    target, keys = game
    run("submit", str(ORDERS), "--game", str(target))
    _reveal_both(target, keys)
    g = Game(target)
    path = "orders/round-01/1-soviet-union.yaml"
    variant = g.repo.read(path).replace(b"Russia", b"Russia", 1) + b"# a variant tried against the known dice\n"
    g.repo.commit({path: variant}, "Orders of Soviet Union for round 1", {"Round": "1", "Power": "Soviet Union", "Phase": "orders"})
    with pytest.raises(GameError, match="changed after the dice could be known"):
        Game(target).adjudicate()
    _bypass_and_adjudicate(target, monkeypatch)
    result = audit_game(target)
    assert not result.ok
    assert any(f.file == "dice/" and "changed since" in f.message for f in result.findings)


def test_standing_orders_are_sealed_by_the_first_reveal(game: tuple[Path, Path], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A defender who learns the dice (all links revealed) must not re-choose its order of loss:
    `submit` refuses standing orders until the adjudication, and a change made with plain git is
    refused at adjudication and reported by the audit."""
    target, keys = game
    run("submit", str(ORDERS), "--game", str(target))
    standing = tmp_path / "germany-standing.yaml"
    standing.write_text("power: Germany\nstanding_orders:\n  default: {order_of_loss: [infantry, artillery, tank, fighter, bomber]}\n")
    assert run("submit", str(standing), "--game", str(target)).exit_code == 0  # type: ignore[attr-defined]
    _reveal_both(target, keys)
    refused = run("submit", str(standing), "--game", str(target))
    assert refused.exit_code == 2 and "standing orders are sealed" in refused.output  # type: ignore[attr-defined]
    g = Game(target)
    g.repo.commit({"standing/germany.yaml": b"power: Germany\nstanding_orders:\n  default: {order_of_loss: [tank]}\n"}, "Standing orders of Germany",
                  {"Power": "Germany", "Phase": "standing-orders"})
    with pytest.raises(GameError, match="changed after the dice could be known"):
        Game(target).adjudicate()
    _bypass_and_adjudicate(target, monkeypatch)
    assert any(f.file == "dice/" for f in audit_game(target).findings)


def test_standing_orders_may_change_again_after_the_adjudication(game: tuple[Path, Path], tmp_path: Path) -> None:
    target, keys = game
    run("submit", str(ORDERS), "--game", str(target))
    _reveal_both(target, keys)
    Game(target).adjudicate()
    standing = tmp_path / "germany-standing.yaml"
    standing.write_text("power: Germany\nstanding_orders:\n  default: {order_of_loss: [tank, infantry]}\n")
    result = run("submit", str(standing), "--game", str(target))
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    assert audit_game(target).ok
