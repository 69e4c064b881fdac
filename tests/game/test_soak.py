"""Soak: games of every rule system played by random players (`tests.game.player`), turn after
turn, through the game repository as a host runs them: each turn's orders pass validation and are
adjudicated, its report renders in every format, the state keeps its invariants, and the whole
history audits clean.

One round of each system runs with the suite; the long games (and a check that the odds before
the dice agree with the battles played) are marked slow and run apart (`pytest -m slow`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.game.audit import audit_game
from pbem.engine.model import GameState
from pbem.game.game import Game, new_game
from pbem.report.render import render_report
from tests.game.player import RandomPlayer

SYSTEMS = ("1942-2e", "revised", "europe-1999", "pacific-2001", "global-1940", "global-1940-ams")


def play(path: Path, ruleset_id: str, seed: int, turns: int, odds: list[tuple[float, bool]] | None = None,
         options: dict[str, object] | None = None, reach: bool = False, other_dice: int = 0) -> dict[str, int]:
    """Play `turns` power-turns (or to a victory); what happened, counted.  `odds` collects each
    battle's attacker odds before the dice and whether the attacker won; `reach`: the player
    moves stacks anywhere within their movement, not only to neighbours; `other_dice`: each turn's
    orders, accepted when submitted, are first adjudicated under that many other dice too, and
    none may refuse them (validation cannot see the dice: `_adjudicated_whatever_the_dice`)."""
    game = new_game(path, ruleset_id, {}, game_id="soak", dice_mode="local", local_seed=f"soak-{seed}", options=options)
    player = RandomPlayer(game, random.Random(seed), reach=reach)
    for power in game.ruleset.turn_order:
        game.submit(player.standing(game, power), f"{power}-standing.yaml")
    game = Game(path)
    seen = {"turns": 0, "battles": 0, "captures": 0}
    for turn in range(turns):
        before = game.state()
        orders = player.orders(game)
        _adjudicated_whatever_the_dice(game, orders, [f"{seed}/{turn}/{k}" for k in range(other_dice)])
        game.submit(orders, "orders.yaml")
        _, report = game.adjudicate()
        for fmt in ("bbcode", "html", "text"):  # markdown and JSON are written by the adjudication
            assert render_report(report, fmt).strip()
        for battle in report.get("battles", []):
            _losses_add_up(battle)
        game = Game(path)
        state = game.state()
        seen["turns"] += 1
        seen["battles"] += len(report.get("battles", []))
        seen["captures"] += len(report.get("captures", []))
        if odds is not None:
            odds += [(b["odds"]["attacker_win"], b["result"] == "attacker-won") for b in report.get("battles", []) if b.get("odds")]
        assert all(v >= 0 for v in state.treasury.values()), state.treasury
        assert all(n > 0 for by in state.units.values() for counts in by.values() for n in counts.values())
        assert set(state.control) <= set(game.ruleset.board.spaces)
        _board_is_possible(game, before, state)
        if state.winner:
            break
    result = audit_game(path)
    assert result.ok, result.findings[:1]
    return seen


def _adjudicated_whatever_the_dice(game: Game, orders: bytes, seeds: list[str]) -> None:
    """Orders the validator accepts are adjudicated under any dice: a check that depends on them (a
    battle whose attackers were shot down on the way, a retreat into a zone a lost battle left
    hostile, a bombardment a kamikaze forbids) must not refuse the turn after the fact."""
    if not seeds:
        return
    from pbem import dice
    from pbem.engine.turn import run_turn
    from pbem.io.orders import read_orders_text

    state, standing = game.state(), game.standing_orders()
    _, parsed = read_orders_text(orders, "orders.yaml", game.ruleset)
    for text in seeds:
        source = dice.SeededDice(bytes.fromhex(dice.sha256_hex(text.encode())), mode=dice.MODE_LOCAL)
        result = run_turn(game.ruleset, game.rules, game.combat_rules, state, parsed, standing, game.config.options, source)  # type: ignore[arg-type]
        assert not result.problems, (text, [f"{p.code}: {p.message}" for p in result.problems], orders.decode())


def _board_is_possible(game: Game, before: GameState, after: GameState) -> None:
    """After a turn, every unit stands where the rules let a unit stand: air and land units at sea
    aboard a carrier or transport (or patrolling, or grounded on a damaged carrier), no unit in a
    territory of the other side or beside units of a power at war with it, the mover's aircraft
    in no territory it took this turn where they may not land there (1940's China may, in its own),
    no damage above its cap."""
    from pbem.engine.world import World

    rs, rules = game.ruleset, game.rules
    mover = rs.powers[before.turn_index].name
    w = World(rs, rules, after)
    w.options = dict(game.config.options)
    if rules.hooks.extra_cargo is not None:  # cargo only an option lets a unit carry (Revised's Tokyo Express) boards as a turn begins
        for zone in sorted({u.space for u in w.units.values() if w.is_sea(u.space)}):
            w._embark_at(zone)
    wrong: list[str] = []
    bystanders = {b.name for b in rs.bystanders}
    for u in w.units.values():
        domain, space = w.utype(u).domain, w.space(u.space)
        if domain == "structure":
            continue
        if not space.is_land:
            if domain in ("air", "land") and u.carrier is None and u.mission != "cap" and u.id not in w.grounded_air(u.space):
                wrong.append(f"{u.owner}'s {u.type} at sea in {u.space} with nothing to carry it")
            continue
        holder = w.control.get(u.space)
        if holder is not None and holder not in bystanders and rs.side_of(holder) not in (None, rs.side_of(u.owner)):
            wrong.append(f"{u.owner}'s {u.type} in {u.space}, held by {holder} of the other side")
        if (domain == "air" and rs.power_name(u.owner) == mover and not rules.movement.air_may_land_in_captured
                and u.space not in rules.movement.air_lands_where_captured.get(mover, ())  # 1940: China's own
                and rs.side_of(before.control.get(u.space) or "") != rs.side_of(u.owner)):
            wrong.append(f"{u.owner}'s {u.type} landed in {u.space}, taken this turn")
    for space in sorted({u.space for u in w.units.values() if w.space(u.space).is_land}):
        owners = sorted({u.owner for u in w.units_at(space) if w.utype(u).domain != "structure"})
        wrong += [f"{a} and {b}, at war, both in {space}" for i, a in enumerate(owners) for b in owners[i + 1:]
                  if w.relation(a, b) == "war"]
    for key, damage in after.damage.items():
        territory, _, facility = key.partition("/")
        cap = rs.units[facility].max_damage if facility else w.facility_max_damage(territory)
        if cap is not None and damage > cap:
            wrong.append(f"damage {damage} in {key}, above its cap {cap}")
    assert not wrong, f"after {mover}'s turn of round {before.round}: " + "; ".join(wrong[:5])


def _losses_add_up(battle: dict) -> None:  # type: ignore[type-arg]
    """A battle's report accounts for every unit: each side's forces before, less its survivors,
    are the units its casualty lines and rule removals name (damage aside)."""
    from collections import Counter

    for side in ("attacker", "defender"):
        before, after, lost = Counter(), Counter(), Counter()
        for force in battle["forces"][side]:
            before.update({(force["power"], u): n for u, n in force["units"].items()})
        for force in battle["survivors"][side]:
            after.update({(force["power"], u): n for u, n in force["units"].items()})
        powers = {p for p, _ in before}
        named = [c for r in battle["rounds"] for st in r["steps"] for c in st["casualties"]] + battle.get("removed", [])
        for c in named:
            if not c["damaged"] and c["power"] in powers:
                lost[(c["power"], c["unit"])] += c["count"]
        assert before - after == lost, (battle["space"], side, dict(before - after), dict(lost))


@pytest.mark.parametrize("ruleset_id", SYSTEMS)
def test_a_round_of_random_play_adjudicates_and_audits(ruleset_id: str, tmp_path: Path) -> None:
    """Every power's turn of a first round, with random legal orders: the player's orders reach
    battles, each turn's orders would have been adjudicated under other dice too, and the game
    audits clean."""
    from pbem.io.rulesets import load_ruleset

    powers = len(load_ruleset(ruleset_id).turn_order)
    # Europe opens with a round 0 of cash advances, in which nobody moves: play round 1 too
    rounds = 2 if ruleset_id == "europe-1999" else 1
    seen = play(tmp_path / "g", ruleset_id, seed=1, turns=rounds * powers, other_dice=2)
    assert seen["battles"] > 0, seen


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ruleset_id", SYSTEMS)
def test_long_random_games_adjudicate_and_audit(ruleset_id: str, seed: int, tmp_path: Path) -> None:
    """Fifty power-turns of random play (or to a victory), audited clean."""
    seen = play(tmp_path / "g", ruleset_id, seed=100 + seed, turns=50)
    assert seen["battles"] > 0, seen


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("ruleset_id", SYSTEMS)
def test_far_reaching_random_games_adjudicate_and_audit(ruleset_id: str, seed: int, tmp_path: Path) -> None:
    """Forty power-turns of a player whose stacks go anywhere within their movement, join other
    stacks' attacks, land their aircraft after combat and sail carried assaults with escorts: the
    board stays possible after every turn, the game audits clean, and each turn's orders would have
    been adjudicated under other dice too."""
    seen = play(tmp_path / "g", ruleset_id, seed=400 + seed, turns=40, reach=True, other_dice=3)
    assert seen["battles"] > 0 and seen["captures"] > 0, seen


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", SYSTEMS)
def test_a_random_game_audits_clean_under_other_string_hashes(ruleset_id: str, tmp_path: Path) -> None:
    """Determinism: thirty power-turns of random play in one process replay byte for byte in
    another whose string hashes (and so the order of every set of names) differ."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONHASHSEED="1", XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    script = f"from pathlib import Path; from tests.game.test_soak import play; play(Path({str(tmp_path / 'g')!r}), {ruleset_id!r}, 7, 30)"
    played = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True)
    assert played.returncode == 0, played.stderr[-2000:]
    env["PYTHONHASHSEED"] = "2"
    audited = subprocess.run([sys.executable, "-m", "pbem", "audit", "--game", str(tmp_path / "g")], env=env,
                             capture_output=True, text=True)
    assert audited.returncode == 0 and "audit ok" in audited.stdout, audited.stdout[-2000:] + audited.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", SYSTEMS)
def test_the_odds_before_the_dice_match_the_battles_played(ruleset_id: str, tmp_path: Path) -> None:
    """The odds a report gives before the dice and the adjudicator's battles agree: over every
    battle of two random games, the attacker's wins stay within four standard deviations of
    the sum of its odds (the games are seeded, so this cannot flicker)."""
    import math

    odds: list[tuple[float, bool]] = []
    for seed in (200, 201):
        play(tmp_path / f"g{seed}", ruleset_id, seed=seed, turns=50, odds=odds)
    expected = sum(p for p, _ in odds)
    spread = math.sqrt(sum(p * (1 - p) for p, _ in odds))
    won = sum(w for _, w in odds)
    assert len(odds) >= 50, len(odds)
    assert abs(won - expected) <= 4 * spread, (won, expected, spread)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", SYSTEMS)
def test_random_games_with_every_optional_rule_turned_over(ruleset_id: str, tmp_path: Path) -> None:
    """Every yes-or-no rule option set against its default (Low Luck, Revised's national advantages,
    escorts and interceptors, no cash advance ...): forty power-turns adjudicate and audit clean, and
    each turn's orders would have been adjudicated under other dice too (Enigma Decoded and kamikaze
    act at adjudication, from standing orders)."""
    from pbem.io.rulesets import load_ruleset

    options = {k: not o.default for k, o in load_ruleset(ruleset_id).options.items() if isinstance(o.default, bool)}
    play(tmp_path / "g", ruleset_id, seed=300, turns=40, options=options, other_dice=4)


def test_the_board_check_finds_impossible_boards(tmp_path: Path) -> None:
    """The soak's board check can fail: a fighter at sea with no carrier, an infantry in a
    territory of the other side, and enemies at war side by side are each found."""
    import dataclasses

    game = new_game(tmp_path / "g", "1942-2e", {}, game_id="soak", dice_mode="local")
    before = game.state()
    _board_is_possible(game, before, before)
    units = {space: {p: dict(c) for p, c in by.items()} for space, by in before.units.items()}
    units["SZ 1"] = {"United States": {"fighter": 1}}  # no carrier there
    units.setdefault("Germany", {})["United Kingdom"] = {"infantry": 1}
    broken = dataclasses.replace(before, units=units)
    with pytest.raises(AssertionError) as found:
        _board_is_possible(game, before, broken)
    text = str(found.value)
    assert "fighter at sea in SZ 1" in text and "United Kingdom's infantry in Germany" in text
    assert "at war, both in Germany" in text
