"""What the odds' fast paths read of a phase without dice by the kinds of units alone.

The engine promises (tests/engine/combat/test_engine_contracts.py) that the end of a round, and
the end of the surprise strikes, read only which kinds of units each side has where they change
nothing or only empty whole categories (defenceless transports, AAA left alone) and say who won:
the sea path (`pbem.odds.sea`) and the land path (`pbem.odds.land`) then ask such a phase once per
pair of kinds instead of once per pair of states.  So too, on land, where the end of a round ends
the battle by withdrawing whole categories of attackers (a retreat after a given round), and with
a retreat by numbers once per pair of kinds and answer to whether the attack withdraws.
"""

from __future__ import annotations

from pbem.engine.combat.engine import State


def tail_pattern(before: State, after: State) -> tuple[tuple[bool, ...], tuple[bool, ...], str] | None:
    """What a phase without dice did, if it only removed whole categories of units and said who
    won: the categories it emptied on each side and the winner; None if it did anything else."""
    if after[3:8] != before[3:8]:
        return None
    for n, m in zip(before.a + before.d, after.a + after.d):
        if m != n and m != 0:
            return None
    return (tuple(m == 0 and n > 0 for n, m in zip(before.a, after.a)),
            tuple(m == 0 and n > 0 for n, m in zip(before.d, after.d)), after.over)


def without(counts: tuple[int, ...], emptied: tuple[bool, ...]) -> tuple[int, ...]:
    """`counts` with the categories a `tail_pattern` emptied at 0."""
    return tuple(0 if z else n for n, z in zip(counts, emptied))


def retreat_pattern(before: State, after: State) -> tuple[tuple[bool, ...], str] | None:
    """What a phase without dice did, if it ended the battle by withdrawing every attacking unit
    of some categories and changed nothing else: those categories and the outcome; else None."""
    if not after.over or any(before.a_retreated) or not any(after.a_retreated) or after[2:7] != before[2:7]:
        return None
    for n, m, r in zip(before.a, after.a, after.a_retreated):
        if not (m == n and r == 0) and not (m == 0 and r == n):
            return None
    return tuple(r > 0 for r in after.a_retreated), after.over


def retreated(state: State, pattern: tuple[tuple[bool, ...], str]) -> State:
    """`state` as a `retreat_pattern` leaves it: the categories withdrawn, the battle over."""
    withdrawn, over = pattern
    return State(state.round, without(state.a, withdrawn), state.d, state.a_pending, state.d_pending, state.a_submerged,
                 state.d_submerged, tuple(n if w else 0 for n, w in zip(state.a, withdrawn)), over, state.no_combat)
