"""Small scenarios for rule tests: the 1942 opening with a few changes, orders as YAML text."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from typing import Any, Mapping

from pbem.dice import FixedDice
from pbem.engine.model import GameState
from pbem.engine.orders import Orders, StandingOrders
from pbem.engine.problems import Problem, ProblemsError
from pbem.engine.turn import TurnResult, run_turn
from pbem.game.game import rules_for
from pbem.io.orders import locate, read_orders_text
from pbem.io.rulesets import load_ruleset
from pbem.io.state import initial_state

RULESET = load_ruleset("1942-2e")
RULES, COMBAT = rules_for(RULESET)


def _system(ruleset_id: str):  # type: ignore[no-untyped-def]
    ruleset = load_ruleset(ruleset_id)
    rules, combat = rules_for(ruleset)
    return ruleset, rules, combat


def state(*, turn: str = "Germany", units: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
          clear: tuple[str, ...] = (), control: Mapping[str, str] | None = None,
          treasury: Mapping[str, int] | None = None, damage: Mapping[str, int] | None = None,
          ruleset: str = "1942-2e") -> GameState:
    """The opening, with `clear`ed spaces emptied, then `units` set (space -> power -> unit -> count)."""
    system = load_ruleset(ruleset)
    base = initial_state(system)
    stacks = {s: {o: dict(t) for o, t in by.items()} for s, by in base.units.items() if s not in clear}
    for space, by in (units or {}).items():
        stacks[space] = {o: dict(t) for o, t in by.items()}
    ctrl = dict(base.control)
    ctrl.update(control or {})
    money = dict(base.treasury)
    money.update(treasury or {})
    index = [p.name for p in system.powers].index(turn)
    return replace(base, turn_index=index, units=stacks, control=ctrl, treasury=money, damage=dict(damage or {}))


def orders(power: str, body: str, round_: int = 1, ruleset: str = "1942-2e") -> tuple[Any, Orders]:
    text = f"power: {power}\nround: {round_}\n" + textwrap.dedent(body)
    doc, parsed = read_orders_text(text, "orders.yaml", load_ruleset(ruleset))
    assert isinstance(parsed, Orders)
    return doc, parsed


def validate(st: GameState, power: str, body: str, options: Mapping[str, Any] | None = None,
             standing: Mapping[str, StandingOrders] | None = None) -> list[Problem]:
    system, rules, combat = _system(st.ruleset)
    doc, parsed = orders(power, body, st.round, st.ruleset)
    result = run_turn(system, rules, combat, st, parsed, standing or {}, {**system.option_defaults(), **(options or {})}, None)
    return locate(result.problems, doc, "orders.yaml")


def play(st: GameState, power: str, body: str, dice: Mapping[str, list[int]] | None = None,
         options: Mapping[str, Any] | None = None, standing: Mapping[str, StandingOrders] | None = None) -> TurnResult:
    """Adjudicate with fixed dice (label -> values); problems raise."""
    system, rules, combat = _system(st.ruleset)
    doc, parsed = orders(power, body, st.round, st.ruleset)
    result = run_turn(system, rules, combat, st, parsed, standing or {}, {**system.option_defaults(), **(options or {})},
                      FixedDice(dice or {}))
    if result.problems:
        raise ProblemsError(locate(result.problems, doc, "orders.yaml"))
    return result


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def units_at(st: GameState, space: str, power: str) -> dict[str, int]:
    return dict(st.units.get(space, {}).get(power, {}))
