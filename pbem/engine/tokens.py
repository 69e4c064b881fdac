"""Victory tokens (the AMS house rules, "Victory Objectives, Victory Tokens, and R&D").

A side holds a token while the board meets one of its victory objectives and loses it when the board
no longer does ("Unlike other popular house rules, tokens may be lost").  A side wins at the end of
any power's turn holding at least `at_least` tokens and `lead` more than the other side.  The first
time an objective is met, whoever meets it, one power of that side earns a technology roll ("awarded
only the first time a victory token is claimed, regardless of which party claims the token").

Objectives are data (`VictoryObjective`); their conditions are the national objectives' vocabulary
(`pbem.engine.objectives.NationalObjective`), read for the objective's side.  The engine keeps the
tokens held in GameState.pending["tokens"] (objective -> side) and the objectives ever claimed in
pending["tokens_claimed"].
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pbem.engine.objectives import NationalObjective, earned

# Who earns the technology roll: "taker" the power that took control ("Nation taking control": the
# mover when it holds one of the objective's territories, else the one holding most of them),
# "mover" the power whose turn it is when it is of the side ("Nation liberating": the liberator holds
# nothing, the liberated does), "most" the power of the side holding most of them ("Nation
# controlling most"), or a power's name.
TechTo = str
Chart = Literal["1", "2", "either"]


@dataclass(frozen=True)
class VictoryObjective:
    side: str
    name: str
    rule: str
    condition: NationalObjective  # evaluated for condition.country (holder "side": the whole side)
    tech_to: TechTo
    chart: Chart


@dataclass(frozen=True)
class VictoryTokens:
    """Rules.tokens: the objectives of both sides and what wins."""

    objectives: tuple[VictoryObjective, ...]
    at_least: int = 4
    lead: int = 2


def held_tokens(w: Any, tokens: VictoryTokens) -> dict[str, str]:
    """Objective name -> the side whose objective the board meets now."""
    facts = frozenset(w.pending.get("facts", []) or [])
    return {o.name: o.side for o in tokens.objectives if earned(w, o.condition, facts, frozenset())}


def tech_receiver(w: Any, objective: VictoryObjective, mover: str) -> str:
    """The power that earns the objective's technology roll."""
    ruleset = w.ruleset
    if objective.tech_to not in ("taker", "mover", "most"):
        return ruleset.power_name(objective.tech_to)
    side = [p.name for p in ruleset.powers if p.side == objective.side]
    counts: dict[str, int] = {p: 0 for p in side}
    for t in objective.condition.controls:
        holder = w.control.get(t)
        if holder is not None and ruleset.power_name(holder) in counts:
            counts[ruleset.power_name(holder)] += 1
    mover = ruleset.power_name(mover)
    if (objective.tech_to == "taker" and counts.get(mover)) or (objective.tech_to == "mover" and mover in counts):
        return mover
    best = max(counts.values()) if counts else 0
    tied = [p for p in side if counts[p] == best]
    return mover if mover in tied else tied[0]


def winner(held: Mapping[str, str], sides: tuple[str, ...], tokens: VictoryTokens) -> str | None:
    """The side holding at least `at_least` tokens and `lead` more than every other side."""
    count = {s: sum(1 for side in held.values() if side == s) for s in sides}
    for s in sides:
        if count[s] >= tokens.at_least and all(count[s] - count[o] >= tokens.lead for o in sides if o != s):
            return s
    return None
