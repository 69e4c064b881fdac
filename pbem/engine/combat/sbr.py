"""Strategic bombing raids (1942: Conduct Combat step 1, p. 14), apart from general combat.

Order: optional air battle (escorts and bombers fire first, then surviving interceptors), then the
industrial complex's built-in AA rolls one die per bomber, then each surviving bomber rolls damage;
total damage on a complex is capped (1942: twice the territory's IPC value).
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.combat.model import DiceGroup, DiceRolled, DiceSource, RolledGroup
from pbem.engine.combat.rules import CombatRules


@dataclass(frozen=True)
class RaidOutcome:
    space: str
    bombers_lost: int
    escorts_lost: int
    interceptors_lost: int
    damage_rolled: int  # what the dice showed (plus bonuses)
    damage_applied: int  # after the cap
    events: tuple[DiceRolled, ...]


def _roll(dice: DiceSource, label: str, step: str, side: str, unit: str, value: int, n: int) -> tuple[int, DiceRolled]:
    faces = tuple(dice.roll(label, n)) if n else ()
    hits = sum(1 for f in faces if f <= value)
    group = RolledGroup(DiceGroup(unit, value, n, "air"), faces, hits)
    return hits, DiceRolled(1, step, side, label, (group,), hits)  # type: ignore[arg-type]


def bombing_raid(
    space: str,
    ipc: int,
    existing_damage: int,
    bombers: int,
    dice: DiceSource,
    rules: CombatRules,
    *,
    escorts: int = 0,
    interceptors: int = 0,
    lose_bombers_first: bool = False,
) -> RaidOutcome:
    """Resolve one raid on the industrial complex in `space` (territory IPC value `ipc`).

    Interceptor hits are the attacker's casualties: escorts first (cheaper than bombers) unless
    `lose_bombers_first`.  Escorts never bomb and are not fired on by the complex (p. 14).
    """
    if min(ipc, existing_damage, bombers, escorts, interceptors) < 0:
        raise ValueError("raid counts must not be negative")
    events: list[DiceRolled] = []
    escorts_lost = interceptors_lost = bombers_lost = 0
    if interceptors and rules.air_battle_rounds:
        for _ in range(rules.air_battle_rounds):
            live = interceptors - interceptors_lost
            if not live or bombers - bombers_lost + escorts - escorts_lost == 0:
                break
            attackers = bombers - bombers_lost + escorts - escorts_lost
            hits, ev = _roll(dice, f"raid/{space}/escort", "escort", "attacker", "bomber+escort", rules.escort_attack, attackers)
            events.append(ev)
            interceptors_lost += min(hits, live)
            live = interceptors - interceptors_lost
            hits, ev = _roll(dice, f"raid/{space}/interceptor", "interceptor", "defender", "fighter", rules.interceptor_defense, live)
            events.append(ev)
            for _ in range(hits):
                take_bomber = (lose_bombers_first and bombers_lost < bombers) or escorts_lost >= escorts
                if take_bomber and bombers_lost < bombers:
                    bombers_lost += 1
                elif escorts_lost < escorts:
                    escorts_lost += 1
    flying = bombers - bombers_lost
    hits, ev = _roll(dice, f"raid/{space}/aa", "aa", "defender", "industrial complex", rules.sbr_aa_hit, flying)
    if flying:
        events.append(ev)
    bombers_lost += hits
    flying -= hits
    rolled = 0
    if flying:
        n = flying * rules.sbr_damage_dice
        faces = tuple(dice.roll(f"raid/{space}/damage", n))
        rolled = sum(faces) + flying * rules.sbr_damage_bonus
        group = RolledGroup(DiceGroup("bomber", 6, n, "any", "damage"), faces, rolled)
        events.append(DiceRolled(1, "damage", "attacker", f"raid/{space}/damage", (group,), rolled))
    room = max(0, rules.sbr_damage_cap_per_ipc * ipc - existing_damage)
    return RaidOutcome(space, bombers_lost, escorts_lost, interceptors_lost, rolled, min(rolled, room), tuple(events))
