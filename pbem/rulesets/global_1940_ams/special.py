"""The AMS house rules that are code: units that fire better than the rest of their kind in a battle
(`Rules.hooks.battle_boosts`, `pbem.engine.combat.model.Boost`)."""

from __future__ import annotations

from typing import Any

from pbem.engine.combat.model import Boost

WOLF_PACK = 4  # "If four or more German submarines are located in the same sea zone"
WOLF_PACK_BOOSTED = 3  # "then up to three German submarines in that territory attack at +1"
PILL_BOX_INFANTRY = 2  # "One operational pill box allows up to two infantry to defend against amphibious assaults at +1"


def battle_boosts(w: Any, space: str, *, kind: str, attackers: list[Any], defenders: list[Any], seaborne: bool) -> tuple[Boost, ...]:
    out: list[Boost] = []
    if kind == "sea":
        # Wolf Packs: Germany attacking (DIGEST §5 AMS.16: not on defence)
        subs = [u for u in attackers if u.owner == "Germany" and w.utype(u).has("submarine")]
        if len(subs) >= WOLF_PACK:
            out.append(Boost("attacker", "Germany", subs[0].type, WOLF_PACK_BOOSTED, 1, "wolf pack"))
    elif seaborne:
        # Pill Boxes: against amphibious assaults only (DIGEST §5 AMS.15), an operational one
        for box in w.units_at(space):
            profile = w.utype(box)
            if not profile.has("pill_box") or w.damage.get(f"{space}/{profile.name}", 0) >= (profile.inoperable_at or 10**6):
                continue
            infantry = sorted({u.owner for u in defenders if w.utype(u).has("infantry") and not w.utype(u).has("mechanized")},
                              key=lambda o: (o != box.owner, o))
            left = PILL_BOX_INFANTRY
            for owner in infantry:
                mine = sum(1 for u in defenders if u.owner == owner and w.utype(u).has("infantry") and not w.utype(u).has("mechanized"))
                if left and mine:
                    out.append(Boost("defender", owner, "infantry", min(left, mine), 1, "pill box"))
                    left -= min(left, mine)
            break
    return tuple(out)
