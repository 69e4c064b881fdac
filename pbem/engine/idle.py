"""A power to move that has nothing to order: its turn passes without waiting for its player.

A power conquered down to nothing (1940's France after Paris falls, China overrun) keeps its place
in the turn order, since an ally may liberate it, but no order of its player could change anything
until then.  Waiting a deadline for an empty orders file every round only stalls the game, so the
game passes such a turn itself (pbem.game.game.Game.pass_idle_turns).  The test is strict: a power
passes only when no orders file could be valid but an empty one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.model import GameState
from pbem.engine.rules import Rules
from pbem.engine.ruleset import Ruleset


def nothing_to_order(ruleset: Ruleset, rules: Rules, state: GameState, options: Mapping[str, Any]) -> str | None:
    """Why the power to move has nothing to order, or None when it may have: it has no unit on the
    board, may take over none of its allies' units (Rules.hooks.may_convert), and no economy of it
    may spend IPCs, since its capital is in enemy hands (CapitalRules.no_purchase_without_capital)
    or, with no capital (1940's China), it holds no territory to place units in."""
    from pbem.engine.world import World

    w = World(ruleset, rules, state)
    power = w.power
    if any(u.owner == power for u in w.units.values()):
        return None
    if rules.hooks.may_convert is not None:
        for u in w.units.values():
            sp = w.space(u.space)
            if u.owner != power and w.is_friendly(u.owner) and sp.is_land and rules.hooks.may_convert(
                    options, power, u.owner, w.utype(u), original_owner=sp.original_owner, controller=w.control.get(u.space)):
                return None
    for country in ruleset.countries_of(power):
        capital = w.capital(country)
        if capital is None or w.space(capital).impassable:  # 1940's China: its marker in the Himalayas
            if any(owner == country and w.space(s).is_land and not w.space(s).impassable for s, owner in w.control.items()):
                return None
        elif w.capital_held(country) or (not rules.capitals.no_purchase_without_capital and w.treasury.get(country, 0) > 0):
            return None
    return f"{power} has no units and can buy none: its turn passed with empty orders"
