"""Revised's National Advantages (Appendix 3, Optional Rules) that change a battle, as data for
`pbem.engine.combat.Battle` (`profiles`, `aa_hit`, `aa_immune`).

Each advantage is a game option of the same name (ruleset.yaml).  "A number of these advantages
apply to a territory controlled by a given power at the beginning of the game and can take effect
only if that territory is still controlled by that power": `original_owner` and `controller` of the
battle's territory let the caller say so.  The ones not here are listed in README.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

from pbem.engine.model import UnitType
from pbem.engine.problems import Problem
from pbem.engine.rules import FreeUnits, Interjection

ALLIES = frozenset({"Soviet Union", "United Kingdom", "United States"})


@dataclass(frozen=True)
class BattleAdvantages:
    profiles: dict[str, dict[str, UnitType]] = field(default_factory=dict)  # owner -> unit -> profile
    aa_hit: int | None = None
    aa_immune: frozenset[str] = frozenset()


def _set(out: dict[str, dict[str, UnitType]], owner: str, units: Mapping[str, UnitType], tag: str, **changes: int) -> None:
    mine = out.setdefault(owner, {})
    for name, u in units.items():
        if u.has(tag):
            mine[name] = dataclasses.replace(mine.get(name, u), **changes)


def battle_advantages(
    options: Mapping[str, object],
    units: Mapping[str, UnitType],
    *,
    kind: str,
    attacker: str,
    defenders: frozenset[str],
    attacking_units: Mapping[str, int],
    original_owner: str | None,
    controller: str | None,
    island: bool,
    russian_winter: bool = False,
    super_submarines: frozenset[str] = frozenset(),
    attacking_subs_moved_in: int = 0,
    round: int = 0,
    seaborne: bool = False,
    aa_owners: frozenset[str] | None = None,
) -> BattleAdvantages:
    """The advantages in force in one battle.

    `attacking_units`: the attacker's units by name at the start (Banzai: only infantry);
    `russian_winter`: the Soviet player has declared the severe winter and it lasts;
    `super_submarines`: powers with that development; `attacking_subs_moved_in`: submarines the
    attacker moved into the zone in its combat move (Wolf Packs); `aa_owners`: the powers whose
    antiaircraft guns are there to fire (None: the defenders).
    """
    on = {k for k, v in options.items() if v is True}
    # The turn hands on a declaration in force as the option `russian_winter_declared`
    # (pbem.engine.rules.Rules.hooks.declarations).
    russian_winter = russian_winter or "russian_winter_declared" in on
    profiles: dict[str, dict[str, UnitType]] = {}
    still_held = controller is not None and controller == original_owner

    def owned_by(power: str) -> bool:
        return still_held and original_owner == power

    if kind == "land":
        # Russian Winter: "Until the start of your next turn, your infantry defend on a 3."
        if "russian_winter" in on and russian_winter and "Soviet Union" in defenders:
            _set(profiles, "Soviet Union", units, "infantry", defense=3)
        # Fortress Europe: "Your artillery in gray territories defends on a 3."
        if "fortress_europe" in on and "Germany" in defenders and owned_by("Germany"):
            _set(profiles, "Germany", units, "artillery", defense=3)
        # Dug-In Defenders: "All your infantry on islands defend on a 3" (FAQ: Japan is no island).
        if "dug_in_defenders" in on and "Japan" in defenders and island:
            _set(profiles, "Japan", units, "infantry", defense=3)
        # Banzai Attacks: "When you begin an attack with only infantry, all those infantry attack on
        # a 2" (FAQ: air units prevent it; bombarding battleships do not - they are not listed here).
        if "banzai_attacks" in on and attacker == "Japan" and attacking_units:
            if all(units[u].has("infantry") for u, n in attacking_units.items() if n):
                _set(profiles, "Japan", units, "infantry", attack=2)
    if kind == "sea":
        # Wolf Packs: at least three submarines moved in attack on a 3 (4 with Super Submarines), for
        # the whole battle (FAQ).
        if "wolf_packs" in on and attacker == "Germany" and attacking_subs_moved_in >= 3:
            _set(profiles, "Germany", units, "submarine", attack=4 if "Germany" in super_submarines else 3)
    aa_hit = None
    # Radar: "Your antiaircraft guns in tan territories hit air units on a roll of 2" - British guns
    # only ("A power may not share its national advantages with friendly powers"); of two guns the
    # British one is the one that fires.
    gunners = defenders if aa_owners is None else aa_owners
    if "radar" in on and kind == "land" and "United Kingdom" in gunners and owned_by("United Kingdom"):
        aa_hit = 2
    immune: frozenset[str] = frozenset()
    # Superfortresses: "Your bombers are immune to antiaircraft fire."
    if "superfortresses" in on and attacker == "United States":
        immune = frozenset(n for n, u in units.items() if u.has("bomber"))
    return BattleAdvantages({o: p for o, p in profiles.items() if p}, aa_hit, immune)


def movement_profiles(options: Mapping[str, object], units: Mapping[str, UnitType], power: str) -> dict[str, UnitType]:
    """Mechanized Infantry: "Your infantry have a move of 2 and may blitz just as tanks do."
    Fast Carriers: "Your aircraft carriers have a move of 3."  (unit name -> profile, changed only)"""
    out: dict[str, UnitType] = {}
    if power != "United States":
        return out
    for name, u in units.items():
        if options.get("mechanized_infantry") is True and u.has("infantry"):
            out[name] = dataclasses.replace(u, move=2, tags=u.tags | {"blitz"})
        if options.get("fast_carriers") is True and u.has("carrier"):
            out[name] = dataclasses.replace(u, move=3)
    return out


def u_boat_interdiction(options: Mapping[str, object], collecting: str, german_subs: int) -> int:
    """U-Boat Interdiction: in the U.K.'s and U.S.'s collect income phases, subtract 1 IPC per German
    submarine on the board (the IPCs the collecting power loses; never below its income - caller)."""
    if options.get("u_boat_interdiction") is True and collecting in ("United Kingdom", "United States"):
        return german_subs
    return 0


CHINESE_DIVISIONS = ("China", "Sinkiang", "Kwangtung", "French Indochina")


def free_units(options: Mapping[str, object], event: str, **facts: object) -> list[FreeUnits]:
    """The advantages that give units for nothing (`pbem.engine.rules.Rules.hooks.free_units`)."""
    on = {k for k, v in options.items() if v is True}
    out: list[FreeUnits] = []
    space = facts.get("space")
    red = facts.get("original_owner") == "Soviet Union" and facts.get("controller") == "Soviet Union"
    if event == "mobilize" and "chinese_divisions" in on and facts["power"] == "United States":
        # Chinese Divisions: "During your mobilize new units phase, you may place one of your
        # infantry for free in one of the following territories if you control it: China, Sinkiang,
        # Kwangtung, or French Indochina" (FAQ: one infantry in one such territory every round).
        control = facts["control"]
        assert isinstance(control, Mapping)
        held = tuple(t for t in CHINESE_DIVISIONS if control.get(t) == "United States")
        if held:
            out.append(FreeUnits("United States", "infantry", 1, held, "Chinese Divisions"))
    if event == "captured" and "french_resistance" in on and space == "Western Europe":
        # French Resistance: "Once per game, if Western Europe becomes controlled by the Allies, you
        # may place three of your infantry there for free."
        if facts["by"] in ALLIES:
            out.append(FreeUnits("United Kingdom", "infantry", 3, ("Western Europe",), "French Resistance", once="french_resistance"))
    if event == "defended" and "salvage" in on and red:
        # Salvage: "If you win a combat against attacking tanks in a red territory and at least one
        # attacking tank is destroyed, you may place one free tank in that territory."  Winning the
        # defence: the attackers are destroyed or retreat and the territory stays Soviet.
        lost = facts["attacker_lost"]
        assert isinstance(lost, Mapping)
        if facts["winner"] in ("defender", "retreat") and any(by.get("tank", 0) for by in lost.values()):
            out.append(FreeUnits("Soviet Union", "tank", 1, (str(space),), "Salvage"))
    if event == "attacked" and "nonaggression_treaty" in on:
        # Nonaggression Treaty: "The first time in the game that Japanese forces attack any red
        # territory, you may place four of your infantry for free in that territory before resolving
        # combat.  If you attack Japan before it attacks you, you lose this advantage."  FAQ: only
        # attacks on land count; any Soviet attack on a Japanese territory or unit breaks it.
        defenders = facts["defenders"]
        assert isinstance(defenders, frozenset)
        if facts["attacker"] == "Japan" and red:
            # FAQ: when Japan attacks several red territories in one turn, the Soviet player chooses
            # which gets the infantry (standing orders: choices: {nonaggression_treaty: [...]});
            # without a choice, the first battle fought.
            attacked = facts.get("attacked") or ()
            reds = [s for s, original, holder in attacked if original == "Soviet Union" and holder == "Soviet Union"] or [space]
            choices = facts.get("choices") or {}
            preferred = [s for s in choices.get("Soviet Union", {}).get("nonaggression_treaty", ()) if s in reds]
            chosen = preferred[0] if preferred else reds[0]
            if space == chosen:
                out.append(FreeUnits("Soviet Union", "infantry", 4, (str(space),), "Nonaggression Treaty", once="nonaggression_treaty"))
        elif facts["attacker"] == "Soviet Union" and ("Japan" in defenders or facts["controller"] == "Japan"):
            out.append(FreeUnits("Soviet Union", "infantry", 0, (), "Nonaggression Treaty (broken by the Soviet Union)", once="nonaggression_treaty"))
    return out


RAILWAY = frozenset({"Russia", "Novosibirsk", "Yakut S.S.R.", "Buryatia S.S.R."})
MIDEAST_OIL = frozenset({"Anglo-Egypt", "Trans-Jordan", "Persia"})


def movement_bonus(options: Mapping[str, object], power: str, unit: UnitType, *, phase: str, frm: str, to: str,
                   start: str, moved: int, arrived_this_phase: bool, **_: object) -> tuple[int, frozenset[str] | None]:
    """Extra movement for one move (`pbem.engine.rules.Rules.hooks.movement_bonus`)."""
    # Trans-Siberian Railway: "Your infantry, antiaircraft guns, and artillery may move 2 territories
    # per turn only among these territories: Russia, Novosibirsk, Yakut S.S.R., and Buryatia S.S.R."
    # FAQ: only in Noncombat Move; the piece must begin and end its move on those spaces and never
    # leave them during it.
    if (options.get("trans_siberian_railway") is True and power == "Soviet Union" and phase == "noncombat"
            and (unit.has("infantry") or unit.has("aa") or unit.has("artillery"))
            and moved == 0 and start == frm and frm in RAILWAY and to in RAILWAY):
        return 2 - unit.move, RAILWAY
    # Mideast Oil: "If an air unit you own lands in Anglo-Egypt, Trans-Jordan, or Persia during your
    # noncombat move phase, it may then move an additional number of spaces equal to its normal
    # movement" - an air unit whose noncombat move ended there may make another of that length.
    if (options.get("mideast_oil") is True and power == "United Kingdom" and phase == "noncombat"
            and unit.domain == "air" and arrived_this_phase and frm in MIDEAST_OIL):
        return unit.move, None
    return 0, None


def move_after_battle(options: Mapping[str, object], power: str, unit: UnitType, *, kind: str, rounds: int, winner: str) -> int:
    """Panzerblitz: "If your attacking forces destroy all defending units in a territory in one cycle
    of combat, any of your surviving tanks in the attacking forces may move 1 territory during the
    noncombat move phase" (FAQ: normal noncombat rules apply - no entering hostile territories)."""
    if (options.get("panzerblitz") is True and power == "Germany" and kind == "land" and unit.has("blitz")
            and unit.domain == "land" and rounds == 1 and winner == "attacker"):
        return 1
    return 0


def declarations(options: Mapping[str, object], power: str) -> dict[str, str]:
    """Russian Winter: "Once during the game in your collect income phase, you can declare a severe
    winter.  Until the start of your next turn, your infantry defend on a 3." (name -> phase)"""
    out = {}
    if options.get("russian_winter") is True and power == "Soviet Union":
        out["russian_winter"] = "collect_income"
    if options.get("joint_strike") is True and power == "United Kingdom":
        # Joint Strike: "Once during the game, on your turn, you may declare a joint strike."
        # Made at the start of the turn (no phase a lost capital skips), in force on the U.S. turn that follows.
        out["joint_strike"] = "start_of_turn"
    return out


def no_combat_declarations(options: Mapping[str, object], power: str) -> frozenset[str]:
    """Joint Strike: "You complete your turn as normal, except you skip your combat move and
    conduct combat phases.  (Any of your units may move on your noncombat move phase.)" """
    if options.get("joint_strike") is True and power == "United Kingdom":
        return frozenset({"joint_strike"})
    return frozenset()


def commands(options: Mapping[str, object], power: str) -> frozenset[str]:
    """Joint Strike: "On the U.S.'s turn, the U.S.'s player can move any of your units during his or
    her combat move phase and conduct combat with them, as if they belonged to the U.S."  The
    declaration is in force (`joint_strike_declared`) until the U.K.'s next turn."""
    if options.get("joint_strike_declared") is True and power == "United States":
        return frozenset({"United Kingdom"})
    return frozenset()


def standing_keys(options: Mapping[str, object], power: str) -> frozenset[str]:
    """The standing-orders keys the advantages read (Rules.hooks.standing_keys): Japan's `kaiten:` under
    Kaiten Torpedoes, the Soviet choice of territory under the Nonaggression Treaty."""
    keys = set()
    if options.get("kaiten_torpedoes") is True and power == "Japan":
        keys.add("kaiten")
    if options.get("nonaggression_treaty") is True and power == "Soviet Union":
        keys.add("choices:nonaggression_treaty")
    return frozenset(keys)


def standing_problems(options: Mapping[str, object], standing: object, ruleset: object) -> list[Problem]:
    """A warning for each space of the Soviet `choices: {nonaggression_treaty: [...]}` that is not a red
    territory: the Nonaggression Treaty's infantry go only to "any red territory" Japan attacks, so
    the entry is never chosen (Rules.hooks.standing_problems)."""
    if getattr(standing, "power", None) != "Soviet Union" or options.get("nonaggression_treaty") is not True:
        return []
    spaces = ruleset.board.spaces  # type: ignore[attr-defined]
    red = sorted(n for n, sp in spaces.items() if sp.is_land and sp.original_owner == "Soviet Union")
    listed = getattr(standing, "choices", {}).get("nonaggression_treaty", ())
    return [Problem("warning", f"choices: {space} is no red territory: the Nonaggression Treaty's four infantry never go there",
                    rule="Soviet Union, Nonaggression Treaty: \"The first time in the game that Japanese forces attack any red territory\"",
                    hint="red territories: " + ", ".join(red), path=("standing_orders", "choices", "nonaggression_treaty", i),
                    code="standing.choice-never")
            for i, space in enumerate(listed) if space not in red]


def interjections(options: Mapping[str, object], power: str) -> list[Interjection]:
    """Enigma Decoded: "Once per game, when Germany finishes its combat move phase but before its
    conduct combat phase, you may make one special move" - the U.K.'s standing order `enigma:`.
    FAQ: "Does the Enigma Decoded rule allow fighters to move into an adjacent sea zone? ... No"."""
    if options.get("enigma_decoded") is True and power == "Germany":
        return [Interjection("United Kingdom", "enigma_decoded", "Enigma Decoded", air_to_sea=False)]
    return []


def extra_cargo(options: Mapping[str, object], power: str, unit: UnitType) -> tuple[int, frozenset[str]] | None:
    """Tokyo Express: "Each of your destroyers may act as a transport for one infantry.  These
    destroyers follow the same rules for loading and offloading units as transports do" (FAQ: with
    Combined Bombardment they still bombard - they act "as both transports and destroyers")."""
    if options.get("tokyo_express") is True and power == "Japan" and unit.has("destroyer"):
        return 1, frozenset({"infantry"})
    return None


def may_bomb(options: Mapping[str, object], power: str, unit: UnitType) -> bool:
    """Luftwaffe Dive-Bombers: "Your fighters may conduct strategic bombing raids, following the same
    rules as bombers. ... Roll one die for IPC loss per fighter ..., but divide each die roll by 2,
    rounded up" (the halved dice are the raid's: pbem.engine.combat)."""
    return options.get("luftwaffe_dive_bombers") is True and power == "Germany" and unit.has("fighter")



def free_air_steps(options: Mapping[str, object], power: str, board: object, control: Mapping[str, str]) -> frozenset[tuple[str, str]]:
    """Island Bases: "When moving your air units, you may treat island groups as part of the sea
    zones containing them. For example, a fighter (move 4) could travel from Hawaii to the East
    Indies in one turn, assuming your side controlled both island groups": a step between an island
    group the Allies control and its sea zone, either way, costs nothing."""
    if options.get("island_bases") is not True or power != "United States":
        return frozenset()
    steps: set[tuple[str, str]] = set()
    for name, space in board.spaces.items():  # type: ignore[attr-defined]
        if space.island and control.get(name) in ALLIES:
            for zone in board.neighbours(name):  # type: ignore[attr-defined]
                if board.spaces[zone].is_sea:  # type: ignore[attr-defined]
                    steps |= {(name, zone), (zone, name)}
    return frozenset(steps)


def setup_changes(options: Mapping[str, object], ruleset: object, control: Mapping[str, str]) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Colonial Garrison: "You begin the game with one additional industrial complex in any tan
    territory with an income value of at least 1. (You still can't have more than one industrial
    complex in a territory.)"  The option's value names the territory (true alone names none)."""
    choice = options.get("colonial_garrison", "none")
    if choice is False or choice is None or choice == "none":
        return [], []
    rule = "Colonial Garrison (Appendix 3, United Kingdom 6)"
    if not isinstance(choice, str):
        return [], [f"{rule}: name the territory of the new industrial complex, e.g. colonial_garrison=Anglo-Egypt"]
    board = ruleset.board  # type: ignore[attr-defined]
    key = choice.strip().lower()
    name = next((n for n, sp in board.spaces.items() if key == n.lower() or key in (a.lower() for a in sp.aliases)), None)
    if name is None:
        return [], [f"{rule}: unknown territory {choice!r}"]
    space = board.spaces[name]
    if space.original_owner != "United Kingdom" or control.get(name) != "United Kingdom":
        return [], [f"{rule}: {name} is not a tan (British) territory"]
    if space.ipc < 1:
        return [], [f"{rule}: {name} has an income value of {space.ipc}; the complex needs at least 1"]
    complex_ = next(n for n, u in ruleset.units.items() if u.has("factory"))  # type: ignore[attr-defined]
    if any(complex_ in by for by in ruleset.setup.units.get(name, {}).values()):  # type: ignore[attr-defined]
        return [], [f"{rule}: {name} already has an industrial complex (one per territory)"]
    return [(name, "United Kingdom", complex_)], []


def structure_move(options: Mapping[str, object], power: str, unit: UnitType) -> int:
    """Mobile Industry: "Your industrial complexes each may move 1 territory during your noncombat
    move phase. They cannot move during the combat move phase. If they are captured by an opponent,
    that opponent cannot move them" (FAQ: every turn; not aboard transports; units may be mobilized
    there if the Soviets held the complex and its new territory at the start of the turn)."""
    if options.get("mobile_industry") is True and power == "Soviet Union" and unit.has("factory"):
        return 1
    return 0


def may_convert(options: Mapping[str, object], power: str, owner: str, unit: UnitType, *, original_owner: str | None,
                controller: str | None) -> bool:
    """Lend-Lease: "During your purchase units phase, you can convert units belonging to a friendly
    power into your units if they begin in or move into red territories. Remove the affected units
    from play and replace them with the same units of your own color."  Red: originally Soviet and
    Soviet now; complexes are no units that come to Lend-Lease."""
    return (options.get("lend_lease") is True and power == "Soviet Union" and owner in ALLIES and owner != power
            and original_owner == "Soviet Union" and controller == "Soviet Union" and unit.domain != "structure")


def conversion_rule(options: Mapping[str, object], power: str) -> tuple[str, str] | None:
    """The name and reach of Lend-Lease, for refusals of `convert:`."""
    if options.get("lend_lease") is not True:
        return None
    return ("Soviet Union, Lend-Lease", "it converts units of friendly powers in red territories the Soviet Union holds")


def assaults_per_turn(options: Mapping[str, object], power: str, unit: UnitType) -> int:
    """Lightning Assaults: "Your transports may make more than one amphibious assault per turn: They
    may move, attack a coastal territory, then move again and attack a second coastal territory.
    ... A transport's capacity is unchanged; it still cannot load or offload more than one land unit
    plus one infantry in the turn" (FAQ: two assaults; it may load the same or different units
    between them; the movement is still 2)."""
    if options.get("lightning_assaults") is True and power == "Japan" and unit.has("transport"):
        return 2
    return 1


def one_way_missions(options: Mapping[str, object], power: str, unit: UnitType) -> frozenset[str]:
    """Kamikaze Attacks: "Your air units may make a combat move without having to land in a friendly
    space afterward. You must declare during the combat move phase that an air unit is making a
    kamikaze attack" (orders: `mission: kamikaze`; the opening-fire attack and loss are
    advantages_combat's)."""
    if options.get("kamikaze_attacks") is True and power == "Japan" and unit.domain == "air":
        return frozenset({"kamikaze"})
    return frozenset()
