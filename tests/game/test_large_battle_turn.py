"""A turn with a very large fleet battle adjudicates in bounded time (issue 19): the report's odds
of that battle are sampled under the odds' work budget instead of walked exactly, and every report
format says so.  (The time itself is measured in benchmarks/bench_large_battle_turn.py: tests
never assert on a clock.)"""

from __future__ import annotations

from dataclasses import replace

from pbem import dice
from pbem.engine.turn import run_turn
from pbem.game.cases import _CaseGame
from pbem.game.game import rules_for
from pbem.game.reportdata import build_report
from pbem.io.orders import read_orders_text
from pbem.io.rulesets import load_ruleset
from pbem.io.state import initial_state
from pbem.report.render import render_report

# battle (e) of the issue, tripled: 2 bb, 1 cv, 2 ftr, 2 dd, 4 sub, 1 ca against 1 bb, 2 cv, 4 ftr,
# 3 dd, 2 sub, 2 tp, each count times three
GERMAN = {"battleship": 6, "aircraft carrier": 3, "fighter": 6, "destroyer": 6, "submarine": 12, "cruiser": 3}
BRITISH = {"battleship": 3, "aircraft carrier": 6, "fighter": 12, "destroyer": 9, "submarine": 6, "transport": 6}


def large_battle_turn() -> tuple[dict, object]:  # type: ignore[type-arg]
    ruleset = load_ruleset("1942-2e")
    rules, combat = rules_for(ruleset)
    state = initial_state(ruleset)
    units = {s: dict(by) for s, by in state.units.items() if s not in ("SZ 5", "SZ 6")}
    units["SZ 5"] = {"Germany": GERMAN}
    units["SZ 6"] = {"United Kingdom": BRITISH}
    state = replace(state, units=units, turn_index=ruleset.turn_order.index("Germany"))
    _, orders = read_orders_text(
        "power: Germany\nround: 1\ncombat_move:\n"
        "  - {units: '6 battleship, 3 aircraft carrier, 6 destroyer, 12 submarine, 3 cruiser', from: SZ 5, to: SZ 6}\n",
        "large.yaml", ruleset)  # the fighters ride their carriers into the battle (1942 2E)
    source = dice.SeededDice(dice.local_seed("a very large fleet battle"))
    turn = run_turn(ruleset, rules, combat, state, orders, {}, {}, source)
    assert not turn.problems, turn.problems
    info = {"mode": "local", "link": "seeded", "index": 0, "state_hash": "", "orders_hash": "", "opponents": {}}
    return build_report(_CaseGame(ruleset, rules, combat, {}), state, turn, info, source), turn  # type: ignore[arg-type]


def test_a_very_large_fleet_battle_is_adjudicated_with_sampled_odds_and_every_format_says_so() -> None:
    report, _ = large_battle_turn()
    (battle,) = [b for b in report["battles"] if b["space"] == "SZ 6"]
    assert battle["odds"]["exact"] is False and 0 < battle["odds"]["confidence"] < 0.05
    for fmt in ("text", "md", "bbcode", "html"):
        assert "simulated, within ±" in render_report(report, fmt), fmt
    assert '"exact": false' in render_report(report, "json")


def test_the_odds_bound_is_a_setting_of_the_game() -> None:
    """game.yaml hosting.odds_seconds sets how long each battle's exact odds may take in validate,
    the reports and audit (counted in work, so audit reproduces it): issue 19's battle (e) is exact
    by default and sampled, and said so, under a bound of a millisecond; a bound that is no number
    of seconds is refused with what would be right."""
    import pytest

    from pbem.game.layout import GameError
    from pbem.game.reportdata import odds_budget
    from pbem.gateways.hosting import check_hosting
    from pbem.odds import REPORT_BUDGET

    ruleset = load_ruleset("1942-2e")
    rules, combat = rules_for(ruleset)
    state = initial_state(ruleset)
    units = {s: dict(by) for s, by in state.units.items() if s not in ("SZ 5", "SZ 6")}
    units["SZ 5"] = {"Germany": {k: v // 3 for k, v in GERMAN.items()}}
    units["SZ 6"] = {"United Kingdom": {k: v // 3 for k, v in BRITISH.items()}}
    state = replace(state, units=units, turn_index=ruleset.turn_order.index("Germany"))
    _, orders = read_orders_text(
        "power: Germany\nround: 1\ncombat_move:\n"
        "  - {units: '2 battleship, 1 aircraft carrier, 2 destroyer, 4 submarine, 1 cruiser', from: SZ 5, to: SZ 6}\n",
        "e.yaml", ruleset)
    info = {"mode": "local", "link": "seeded", "index": 0, "state_hash": "", "orders_hash": "", "opponents": {}}
    odds = {}
    for hosting in ({}, {"odds_seconds": 0.001}):
        source = dice.SeededDice(dice.local_seed("battle (e)"))
        turn = run_turn(ruleset, rules, combat, state, orders, {}, {}, source)
        game = _CaseGame(ruleset, rules, combat, {})
        game.config = replace(game.config, hosting=hosting)
        (battle,) = [b for b in build_report(game, state, turn, info, source)["battles"] if b["space"] == "SZ 6"]  # type: ignore[arg-type]
        odds[bool(hosting)] = battle["odds"]
    assert odds[False].get("exact", True) is True and odds[True]["exact"] is False
    assert abs(odds[True]["attacker_win"] - odds[False]["attacker_win"]) < odds[True]["confidence"]
    assert odds_budget(_CaseGame(ruleset, rules, combat, {})) == REPORT_BUDGET
    assert check_hosting({"odds_seconds": 2}, ruleset).odds_seconds == 2.0
    for bad in (0, -1, "fast", True, 3600):
        with pytest.raises(GameError, match="odds_seconds .* give a number of seconds above 0"):
            check_hosting({"odds_seconds": bad}, ruleset)
