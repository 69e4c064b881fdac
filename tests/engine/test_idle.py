"""Which power to move has nothing to order (pbem.engine.idle): none of its units on the board, none
of an ally's it may take over, and no IPC it may spend."""

from __future__ import annotations

from dataclasses import replace

from pbem.engine.idle import nothing_to_order
from pbem.engine.model import GameState
from tests.engine.scenario import RULES, RULESET, _system, state


def conquered(st: GameState, power: str, by: str) -> GameState:
    """`st` with every unit of `power` gone and every territory it held held by `by`."""
    units = {s: {o: dict(t) for o, t in owners.items() if o != power} for s, owners in st.units.items()}
    control = {s: (by if o == power else o) for s, o in st.control.items()}
    return replace(st, units={s: o for s, o in units.items() if o}, control=control)


def test_a_power_with_no_unit_and_no_capital_has_nothing_to_order() -> None:
    """1942, Capturing capitals (p. 17): a power whose capital is held by the enemy collects no income
    and buys nothing; with no unit left no order of its player can change anything."""
    st = conquered(state(turn="Soviet Union"), "Soviet Union", "Germany")
    reason = nothing_to_order(RULESET, RULES, st, {})
    assert reason == "Soviet Union has no units and can buy none: its turn passed with empty orders"


def test_one_unit_or_the_capital_gives_the_power_its_turn() -> None:
    """A single infantry left, or the capital still held (it may buy, or collects income to buy with
    next turn), and the power writes its orders as usual."""
    gone = conquered(state(turn="Soviet Union"), "Soviet Union", "Germany")
    one = replace(gone, units={**gone.units, "Archangel": {"Soviet Union": {"infantry": 1}}})
    assert nothing_to_order(RULESET, RULES, one, {}) is None
    capital = replace(gone, control={**gone.control, "Russia": "Soviet Union"})
    assert nothing_to_order(RULESET, RULES, capital, {}) is None


def test_a_power_without_a_capital_waits_while_it_holds_a_territory() -> None:
    """1940, China (P10): "China does not have a capitol, so it does not lose the IPCs in its treasury
    when it is conquered" (the map's marker stands in the impassable Himalayas); it may still buy
    and place in any Chinese territory it holds, so only a China with no unit and no territory has
    nothing to order."""
    ruleset, rules, _ = _system("global-1940")
    base = state(turn="China", ruleset="global-1940")
    gone = conquered(base, "China", "Japan")
    assert nothing_to_order(ruleset, rules, gone, {}) is not None
    kept = replace(gone, control={**gone.control, "Szechwan": "China"})
    assert nothing_to_order(ruleset, rules, kept, {}) is None


def test_an_ally_s_units_it_may_take_over_give_the_power_its_turn() -> None:
    """Revised, Lend-Lease (Appendix 3, an option): friendly units in red territories become Soviet
    in its purchase phase, so a Soviet Union with none of its own still has that order to give."""
    ruleset, rules, _ = _system("revised")
    gone = conquered(state(turn="Soviet Union", ruleset="revised"), "Soviet Union", "United Kingdom")
    gone = replace(gone, control={**gone.control, "Russia": "Germany", "Karelia S.S.R.": "Soviet Union"})
    with_ally = replace(gone, units={**gone.units, "Karelia S.S.R.": {"United Kingdom": {"infantry": 1}}})
    assert nothing_to_order(ruleset, rules, with_ally, {"lend_lease": False}) is not None
    assert nothing_to_order(ruleset, rules, with_ally, {"lend_lease": True}) is None
