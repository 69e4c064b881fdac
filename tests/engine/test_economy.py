"""A power's income from what it controls (pbem.engine.economy), the same for every command."""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

from pbem.engine.economy import income, tribute_owed
from pbem.engine.model import Board, Space
from pbem.engine.rules import EconomyRules

BOARD = Board(
    MappingProxyType({
        "Home": Space("Home", "land", ipc=5, original_owner="A"),
        "Oil": Space("Oil", "land", ipc=2, original_owner="A", tribute=True),
        "Convoy": Space("Convoy", "sea", ipc=3, original_owner="A", convoy=True),
    }),
    MappingProxyType({"Home": frozenset(), "Oil": frozenset(), "Convoy": frozenset()}),
)
# income() asks the ruleset for the board and the sides (convoy routes); two powers, A and B, at war
RULESET = SimpleNamespace(board=BOARD, side_of=lambda p: {"A": "Allies", "B": "Axis"}[p])
EUROPE = EconomyRules(convoy_income_to_captor=False, convoy_captured_in_passing=True, convoy_taken_in_stalemate_by_submarines=False, tribute_paid_by_enemies=True,
                      convoy_open_in_noncombat=False, countries_without_income=frozenset(), subs_take_convoy_in_place=False,
                      convoy_disruption=None)
PLAIN = EconomyRules(convoy_income_to_captor=True, convoy_captured_in_passing=False, convoy_taken_in_stalemate_by_submarines=False, tribute_paid_by_enemies=False,
                     convoy_open_in_noncombat=True, countries_without_income=frozenset(), subs_take_convoy_in_place=False,
                     convoy_disruption=None)


def test_tribute_spaces_and_captured_convoys_are_no_income_where_the_rules_say_so():
    """Europe 1999: the Middle East never counts (Collect Income), a convoy centre only for its owner
    (The Battle of the Atlantic: "Germany, however, does not receive that income")."""
    control = {"Home": "A", "Oil": "A", "Convoy": "A"}
    assert income(RULESET, EUROPE, control, "A") == 8
    assert income(RULESET, PLAIN, control, "A") == 10
    taken = {"Home": "A", "Oil": "B", "Convoy": "B"}
    assert income(RULESET, EUROPE, taken, "B") == 0 and income(RULESET, EUROPE, taken, "A") == 5
    assert income(RULESET, PLAIN, taken, "B") == 5


def test_tribute_is_owed_by_the_original_owners_side_only():
    taken = {"Home": "A", "Oil": "B", "Convoy": "A"}
    assert tribute_owed(BOARD, EUROPE, taken, "B", frozenset({"A"})) == {"A": (2, ("Oil",))}
    assert tribute_owed(BOARD, EUROPE, taken, "B", frozenset()) == {}
    assert tribute_owed(BOARD, PLAIN, taken, "B", frozenset({"A"})) == {}
