"""Report data says what happened in battles without dice: units a rule removes are named, with the rule."""

from __future__ import annotations

from pbem.game.reportdata import _battle
from pbem.io.rulesets import load_ruleset
from tests.engine.scenario import play, state


def test_a_battle_against_lone_transports_says_they_were_destroyed_and_why() -> None:
    """1942 2E, Conduct Combat, General Combat step 5 / Transports: "transports ... are destroyed if
    they are alone" when enemy warships attack - the report says so instead of only "attacker won"."""
    board = load_ruleset("1942-2e").board
    target = sorted(n for n in board.neighbours("SZ 5") if board.spaces[n].is_sea)[0]
    st = state(turn="Germany", clear=("SZ 5", target), units={"SZ 5": {"Germany": {"destroyer": 1}},
                                                              target: {"United Kingdom": {"transport": 2}}})
    result = play(st, "Germany", f"combat_move:\n  - {{units: 1 destroyer, from: SZ 5, to: {target}}}\n")
    entry = next(e for e in result.log.battles if e["battle"].space == target)
    battle = _battle(entry, "Germany", low_luck=False)
    assert battle["result"] == "attacker-won"
    assert battle["removed"] == [{"round": battle["removed"][0]["round"], "power": "United Kingdom", "unit": "transport",
                                  "count": 2, "damaged": False, "chosen_by": "rule",
                                  "reason": "rule: defenceless transports are destroyed (General Combat, step 5)"}]


def test_every_format_shows_units_removed_without_dice() -> None:
    import json
    from pathlib import Path

    from pbem.report.render import render_report

    data = json.loads((Path(__file__).resolve().parents[1] / "report" / "fixtures" / "full_turn.json").read_text())
    data["battles"][0]["removed"] = [{"round": 1, "power": "United Kingdom", "unit": "transport", "count": 2,
                                      "damaged": False, "chosen_by": "rule", "reason": "rule: defenceless transports are destroyed"}]
    for fmt in ("text", "md", "bbcode", "html", "json"):
        out = " ".join(render_report(data, fmt).split())  # words, whatever the line wrapping
        assert "2 transports" in out or '"transport"' in out, fmt
        assert "defenceless transports are destroyed" in out, fmt
