"""Each rule system's data (ruleset.yaml) and code (rules.py) agree where both speak of one thing."""

from __future__ import annotations

import pytest

from pbem.io.rulesets import rules_for
from pbem.io.rulesets import load_ruleset
from pbem.rulesets import RULESETS


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_the_victory_of_the_data_is_the_victory_the_engine_checks(ruleset_id: str) -> None:
    """ruleset.yaml says how the game is won (for reports and the site); Rules.victory says when the
    engine checks it.  A system won by cities counts them after the power both name; one won by
    capitals checks at the start of every turn.  City groups (1940 Global) are counted as cities are;
    victory tokens (AMS) after every turn, with the objectives the rules hold."""
    ruleset = load_ruleset(ruleset_id)
    rules, _ = rules_for(ruleset)
    assert (ruleset.victory.kind == "tokens") == (rules.victory.kind == "tokens") == (rules.tokens is not None)
    if ruleset.victory.kind == "tokens":
        assert rules.tokens is not None and rules.tokens.objectives
    elif ruleset.victory.kind in ("cities", "city_groups"):
        assert rules.victory.kind == "victory_cities"
        assert rules.victory.held_for_a_round == ruleset.victory.held_for_a_round
        assert rules.victory.checked_after == (None if ruleset.victory.held_for_a_round else ruleset.victory.checked_after)
    else:
        assert (ruleset.victory.kind, rules.victory.kind, rules.victory.checked_after) == ("capitals", "capital_held", None)


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_map_marks_only_what_the_economy_reads(ruleset_id: str) -> None:
    """Convoy centres and tribute spaces on a map mean nothing unless the system's EconomyRules read
    them: a map with them and rules without would silently count them as plain income."""
    ruleset = load_ruleset(ruleset_id)
    rules, _ = rules_for(ruleset)
    spaces = ruleset.board.spaces.values()
    if any(s.tribute for s in spaces):
        assert rules.economy.tribute_paid_by_enemies
    if any(s.convoy for s in spaces):
        assert rules.economy.convoy_captured_in_passing or rules.economy.convoy_income_to_captor
