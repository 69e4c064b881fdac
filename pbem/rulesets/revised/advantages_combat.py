"""Revised's National Advantages (Appendix 3) that change how a battle is fought, beyond the
profiles of `advantages.battle_advantages`: round-1-only profiles in amphibious assaults (Atlantic
Wall, Marines), units that fire in opening fire and are lost for it (Kaiten Torpedoes, Kamikaze
Attacks).  Luftwaffe Dive-Bombers is `advantages.may_bomb` (the move) and
`pbem.engine.combat.sbr.bombing_raid(dive_bombers=...)` (the halved dice).

`battle_advantages_with_combat` is `battle_advantages` plus these fields; `Rules.hooks.battle_modifiers`
points to it.  `pbem.engine.battles` reads the extra fields when they are there:
`amphibious_first_cycle` becomes `Battle.first_cycle_profiles` when seaborne units attack;
`sacrifice_values` prices the units designated (attackers with mission "kamikaze", defending
submarines a standing order designates as kaiten) as `Battle.sacrifices`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

from pbem.engine.model import UnitType
from pbem.rulesets.revised.advantages import BattleAdvantages, battle_advantages


@dataclass(frozen=True)
class CombatAdvantages(BattleAdvantages):
    # owner -> unit -> profile in the first cycle of the land combat of an amphibious assault
    amphibious_first_cycle: dict[str, dict[str, UnitType]] = field(default_factory=dict)
    # owner -> unit -> the value a designated unit fires at in opening fire before it is lost
    sacrifice_values: dict[str, dict[str, int]] = field(default_factory=dict)
    # owners whose defending sacrifices need the sea zone to border a territory they held at the
    # start of the game and still control ("an orange territory or island group you control")
    sacrifice_home_waters: frozenset[str] = frozenset()


def battle_advantages_with_combat(options: Mapping[str, object], units: Mapping[str, UnitType], **facts: object) -> CombatAdvantages:
    """`advantages.battle_advantages` (same arguments) and the advantages this module adds."""
    base = battle_advantages(options, units, **facts)  # type: ignore[arg-type]
    on = {k for k, v in options.items() if v is True}
    kind = facts["kind"]
    attacker = facts["attacker"]
    defenders = facts["defenders"]
    assert isinstance(defenders, frozenset)
    first: dict[str, dict[str, UnitType]] = {}
    values: dict[str, dict[str, int]] = {}
    home: set[str] = set()
    if kind == "land":
        # Atlantic Wall: "During any amphibious assault against a gray territory, all your infantry
        # defend on a 3 during the first cycle of combat" (gray: Germany's at the start and still).
        held = facts.get("controller") is not None and facts.get("controller") == facts.get("original_owner")
        if "atlantic_wall" in on and "Germany" in defenders and held and facts.get("original_owner") == "Germany":
            _set(first, "Germany", units, "infantry", defense=3)
        # Marines: "Your infantry attacks on a 2 in the first cycle of the land combat portion of an
        # amphibious assault" (FAQ: artillery does not raise it - the engine knows).
        if "marines" in on and attacker == "United States":
            _set(first, "United States", units, "infantry", attack=2)
    if kind == "sea":
        # Kamikaze Attacks: declared air units attack in opening fire, at their attack value.
        if "kamikaze_attacks" in on and attacker == "Japan":
            values["Japan"] = {n: u.attack for n, u in units.items() if u.domain == "air"}
        # Kaiten Torpedoes: a designated defending submarine "defends on a 3 (4 if you have the
        # Super Submarines development)", in a sea zone bordering an orange territory Japan controls.
        if "kaiten_torpedoes" in on and "Japan" in defenders:
            supers = facts.get("super_submarines") or frozenset()
            assert isinstance(supers, frozenset)
            value = 4 if "Japan" in supers else 3
            values.setdefault("Japan", {}).update({n: value for n, u in units.items() if u.has("submarine")})
            home.add("Japan")
    return CombatAdvantages(base.profiles, base.aa_hit, base.aa_immune, first, values, frozenset(home))


def _set(out: dict[str, dict[str, UnitType]], owner: str, units: Mapping[str, UnitType], tag: str, **changes: int) -> None:
    mine = out.setdefault(owner, {})
    for name, u in units.items():
        if u.has(tag):
            mine[name] = dataclasses.replace(mine.get(name, u), **changes)

