"""Strategic bombing raids and rocket strikes, apart from general combat.

Raid order: optional air battle (escorts and bombers fire first, then the interceptors: in 1942 only those
that survived, in 1940 all of them, CombatRules.interceptors_fire_back), then
antiaircraft fire at each bomber (1942: the complex's built-in AA; Revised: the territory's
antiaircraft gun, if there is one), then each surviving bomber rolls damage.  The loss is capped
(1942: twice the territory's IPC value in total, as damage markers; Revised: the territory's income
value per bomber, paid from the owner's treasury, at most what it holds).

A rocket strike (Revised, Rockets development) is one undefended die of IPC loss, capped at the
target territory's income value and at the owner's treasury.
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
    ipcs_lost: int = 0  # sbr_loss "treasury": IPCs the owner surrenders (at most its treasury)
    dive_bombers_lost: int = 0


def _roll(dice: DiceSource, label: str, step: str, side: str, unit: str, value: int, n: int) -> tuple[int, DiceRolled]:
    faces = tuple(dice.roll(label, n)) if n else ()
    hits = sum(1 for f in faces if f <= value)
    group = RolledGroup(DiceGroup(unit, value, n, "air"), faces, hits)
    return hits, DiceRolled(1, step, side, label, (group,), hits)  # type: ignore[arg-type]


def _roll_split(dice: DiceSource, label: str, step: str, side: str, unit: str, value: int, n: int, better: int,
                note: str) -> tuple[int, DiceRolled]:
    """One roll of `n` dice of which the first `better` hit one higher (AMS radar towers)."""
    better = min(better, n)
    if not better:
        return _roll(dice, label, step, side, unit, value, n)
    faces = tuple(dice.roll(label, n))
    groups = []
    for faces_here, v, count, why in ((faces[:better], value + 1, better, note), (faces[better:], value, n - better, "")):
        if count:
            groups.append(RolledGroup(DiceGroup(unit, v, count, "air", why), faces_here, sum(1 for f in faces_here if f <= v)))
    hits = sum(g.hits for g in groups)
    return hits, DiceRolled(1, step, side, label, tuple(groups), hits)  # type: ignore[arg-type]


@dataclass(frozen=True)
class AirBattle:
    """What a raid's air battle cost: the raiders, escorts and interceptors lost, and its dice."""

    bombers_lost: int
    escorts_lost: int
    interceptors_lost: int
    dive_lost: int
    events: tuple[DiceRolled, ...]


def air_battle(
    space: str, dice: DiceSource, rules: CombatRules, *, bombers: int, escorts: int, interceptors: int, dive_bombers: int = 0,
    lose_bombers_first: bool = False, interceptor_bonus: tuple[int, str] = (0, ""), escort_bonus: tuple[int, str] = (0, ""),
) -> AirBattle:
    """The air battle before the bombing (1942, 1940: escorts, and in 1942 the bombers, fire first;
    then the interceptors), `rules.air_battle_rounds` rounds.  Interceptor hits are the attacker's
    casualties: escorts first unless `lose_bombers_first`, dive bombers after escorts, bombers last."""
    events: list[DiceRolled] = []
    escorts_lost = interceptors_lost = bombers_lost = dive_lost = 0
    for _ in range(rules.air_battle_rounds):
        live = interceptors - interceptors_lost
        firing = (bombers - bombers_lost if rules.bombers_fire_in_air_battle else 0) + escorts - escorts_lost + dive_bombers - dive_lost
        if not live or bombers - bombers_lost + escorts - escorts_lost + dive_bombers - dive_lost == 0:
            break
        downed = 0
        if firing:  # 1940: bombers alone do not fire in the air battle
            hits, ev = _roll_split(dice, f"raid/{space}/escort", "escort", "attacker", "bomber+escort" if rules.bombers_fire_in_air_battle else "escort",
                                   rules.escort_attack, firing, min(escort_bonus[0], escorts - escorts_lost), escort_bonus[1])
            events.append(ev)
            downed = min(hits, live)
        if not rules.interceptors_fire_back:
            interceptors_lost += downed  # removed before they fire (CombatRules.interceptors_fire_back)
        live = interceptors - interceptors_lost
        hits, ev = _roll_split(dice, f"raid/{space}/interceptor", "interceptor", "defender", "fighter", rules.interceptor_defense, live,
                               interceptor_bonus[0], interceptor_bonus[1])
        events.append(ev)
        if rules.interceptors_fire_back:
            interceptors_lost += downed  # they fired first, then fall
        for _ in range(hits):
            if lose_bombers_first and bombers_lost < bombers:
                bombers_lost += 1
            elif escorts_lost < escorts and not (lose_bombers_first and dive_lost < dive_bombers):
                escorts_lost += 1
            elif dive_lost < dive_bombers:
                dive_lost += 1
            elif bombers_lost < bombers:
                bombers_lost += 1
            elif escorts_lost < escorts:
                escorts_lost += 1
    return AirBattle(bombers_lost, escorts_lost, interceptors_lost, dive_lost, tuple(events))


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
    aa_guns: int = 0,
    facility: str | None = None,
    treasury: int | None = None,
    damage_dice: int | None = None,
    aa_immune: bool = False,
    aa_hit: int | None = None,
    dive_bombers: int = 0,
    max_damage: int | None = None,
    damage_bonus: int | None = None,
    based_bombers: int = 0,
    best_of: int = 1,
    interceptor_bonus: tuple[int, str] = (0, ""),
    escort_bonus: tuple[int, str] = (0, ""),
    fought: AirBattle | None = None,
) -> RaidOutcome:
    """Resolve one raid on the industrial complex in `space` (territory IPC value `ipc`).

    Interceptor hits are the attacker's casualties: escorts first (cheaper than bombers) unless
    `lose_bombers_first`.  Escorts never bomb and are not fired on by the complex (p. 14).

    `aa_guns`: antiaircraft guns in the territory (read when the rules' AA is the gun's, not the
    complex's); `facility`: the facility raided when not the complex, whose built-in gun fires (1940:
    an air base, a radar tower); `treasury`: the owner's IPCs (the limit when the loss is paid from it);
    `damage_dice`: dice per bomber instead of the rules' (Revised Heavy Bombers: 2); `aa_immune`:
    no AA fire at these bombers (Revised Superfortresses); `aa_hit`: the AA hit number instead of
    the rules' (Revised Radar); `dive_bombers`: fighters raiding as bombers do (Revised Luftwaffe
    Dive-Bombers: "They are subject to antiaircraft fire as normal. Roll one die for IPC loss per
    fighter ..., but divide each die roll by 2, rounded up. The maximum IPC loss per fighter still
    cannot exceed the territory's income value") - fired at by AA after the bombers, their damage
    rolled on a stream of their own; in an air battle they are lost after escorts, before bombers.
    `max_damage`: the complex's own damage cap, instead of the rules' cap by IPC value (1940 Global:
    a major complex takes 20, a minor one 6); `damage_bonus`: the raiders' own bonus on each damage
    die instead of the rules' (1940: a tactical bomber's 0).  `based_bombers`: bombers that left an
    operational air base (AMS: CombatRules.sbr_air_base_bonus each; the bombers lost are the others
    first, the attacker's choice); `best_of`: dice each bomber rolls for damage, keeping the best (AMS
    Heavy Bombers: 2); `interceptor_bonus`, `escort_bonus`: how many of them hit one higher in the air
    battle, and why (AMS: radar towers, Jet Fighters).  `fought`: this raid's share of an air battle
    fought with the raids on the territory's other facilities (1940, E17: "there is only one air
    battle per territory regardless of the number of facilities being bombed"), instead of its own.
    """
    if min(ipc, existing_damage, bombers, escorts, interceptors, dive_bombers) < 0:
        raise ValueError("raid counts must not be negative")
    events: list[DiceRolled] = []
    escorts_lost = interceptors_lost = bombers_lost = dive_lost = 0
    if rules.sbr_aa_before_air_battle:
        # Europe, Strategic Bombing Raids step 4: the AA gun rolls at every attacking aircraft, the
        # defending fighters at the raiders, the escorts at the fighters (removed at once); then the
        # attacker removes his casualties from both rolls, escorts before bombers unless told not to.
        # Pacific (CombatRules.sbr_aa_casualties_at_once) removes the AA's hits before the dogfight.
        hits = 0

        def lose(n: int) -> None:
            nonlocal escorts_lost, bombers_lost
            for _ in range(n):
                if escorts_lost < escorts and not (lose_bombers_first and bombers_lost < bombers):
                    escorts_lost += 1
                elif bombers_lost < bombers:
                    bombers_lost += 1
                elif escorts_lost < escorts:
                    escorts_lost += 1

        if not aa_immune and aa_guns > 0 and bombers + escorts:
            value = rules.sbr_aa_hit if aa_hit is None else aa_hit
            h, ev = _roll(dice, f"raid/{space}/aa-all", "aa", "defender", "antiaircraft gun", value, bombers + escorts)
            events.append(ev)
            if rules.sbr_aa_casualties_at_once:  # Pacific: removed before the dogfight
                lose(h)
            else:
                hits += h
        if interceptors and bombers + escorts - bombers_lost - escorts_lost:
            h, ev = _roll(dice, f"raid/{space}/interceptor", "interceptor", "defender", "fighter", rules.interceptor_defense, interceptors)
            events.append(ev)
            hits += h
            if escorts - escorts_lost:
                h, ev = _roll(dice, f"raid/{space}/escort", "escort", "attacker", "fighter", rules.escort_attack, escorts - escorts_lost)
                events.append(ev)
                interceptors_lost = min(h, interceptors)
        lose(hits)
        aa_immune = True  # the gun has fired
    if fought is not None:
        bombers_lost, escorts_lost, interceptors_lost, dive_lost = fought.bombers_lost, fought.escorts_lost, fought.interceptors_lost, fought.dive_lost
        events.extend(fought.events)
    elif interceptors and rules.air_battle_rounds and not rules.sbr_aa_before_air_battle:
        battle = air_battle(space, dice, rules, bombers=bombers, escorts=escorts, interceptors=interceptors, dive_bombers=dive_bombers,
                            lose_bombers_first=lose_bombers_first, interceptor_bonus=interceptor_bonus, escort_bonus=escort_bonus)
        bombers_lost, escorts_lost, interceptors_lost, dive_lost = battle.bombers_lost, battle.escorts_lost, battle.interceptors_lost, battle.dive_lost
        events.extend(battle.events)
    diving = dive_bombers - dive_lost
    if diving and not aa_immune and (rules.sbr_model != "aa_gun_rolls_per_bomber" or aa_guns > 0):
        value = rules.sbr_aa_hit if aa_hit is None else aa_hit
        hits, ev = _roll(dice, f"raid/{space}/aa-dive", "aa", "defender", "antiaircraft gun", value, diving)
        events.append(ev)
        dive_lost += hits
        diving -= hits
    flying = bombers - bombers_lost
    gun = rules.sbr_model == "aa_gun_rolls_per_bomber"
    if flying and not aa_immune and (not gun or aa_guns > 0):
        value = rules.sbr_aa_hit if aa_hit is None else aa_hit
        shooter = "antiaircraft gun" if gun else (facility or "industrial complex")
        hits, ev = _roll(dice, f"raid/{space}/aa", "aa", "defender", shooter, value, flying)
        events.append(ev)
        bombers_lost += hits
        flying -= hits
    rolled = 0
    per_bomber = rules.sbr_damage_dice if damage_dice is None else damage_dice
    capped = 0
    if flying:
        n = flying * per_bomber * best_of
        faces = tuple(dice.roll(f"raid/{space}/damage", n))
        bonus = rules.sbr_damage_bonus if damage_bonus is None else damage_bonus
        extra = 0
        if damage_bonus is None:  # the house bonuses are the strategic bombers'
            extra = min(flying, based_bombers) * rules.sbr_air_base_bonus
            if not interceptors:
                extra += flying * rules.sbr_unintercepted_bonus
        if best_of > 1:
            kept = tuple(max(faces[i * best_of : (i + 1) * best_of]) for i in range(flying * per_bomber))
            rolled = sum(kept) + flying * bonus + extra
        else:
            rolled = sum(faces) + flying * bonus + extra
        group = RolledGroup(DiceGroup("bomber", 6, n // best_of, "any", "damage" if best_of == 1 else f"damage, best of {best_of}", best_of),
                            faces, rolled)
        events.append(DiceRolled(1, "damage", "attacker", f"raid/{space}/damage", (group,), rolled))
        if rules.sbr_cap_per_bomber:  # Revised FAQ: the income-value limit is "Per bomber"
            for b in range(flying):
                mine = sum(faces[b * per_bomber : (b + 1) * per_bomber]) + bonus
                capped += mine if rules.sbr_damage_cap_per_ipc is None else min(mine, rules.sbr_damage_cap_per_ipc * ipc)
    dive_rolled = dive_capped = 0
    if diving:
        faces = tuple(dice.roll(f"raid/{space}/dive-damage", diving))
        halves = [(f + 1) // 2 for f in faces]  # "divide each die roll by 2, rounded up"
        dive_rolled = sum(halves)
        dive_capped = sum(h if rules.sbr_damage_cap_per_ipc is None else min(h, rules.sbr_damage_cap_per_ipc * ipc) for h in halves)
        group = RolledGroup(DiceGroup("fighter", 6, diving, "any", "damage, halved rounded up"), faces, dive_rolled)
        events.append(DiceRolled(1, "damage", "attacker", f"raid/{space}/dive-damage", (group,), dive_rolled))
    rolled += dive_rolled
    capped += dive_capped
    if max_damage is not None:
        applied = min(rolled, max(0, max_damage - existing_damage))
    elif rules.sbr_cap_per_bomber:
        applied = capped
    elif rules.sbr_damage_cap_per_ipc is None:  # Europe: no cap but the owner's treasury
        applied = rolled
    else:
        applied = min(rolled, max(0, rules.sbr_damage_cap_per_ipc * ipc - existing_damage))
    lost = 0
    if rules.sbr_loss == "treasury":
        # DIGEST §5 REV.1: the lesser of the loss and what the owner has ("greater" is a misprint)
        lost = applied if treasury is None else min(applied, max(treasury, 0))
    return RaidOutcome(space, bombers_lost, escorts_lost, interceptors_lost, rolled, applied, tuple(events), lost, dive_lost)


@dataclass(frozen=True)
class RocketOutcome:
    target: str
    rolled: int
    ipcs_lost: int  # at most the target territory's income value and the owner's treasury
    event: DiceRolled


def rocket_strike(launcher: str, target: str, ipc: int, treasury: int, dice: DiceSource) -> RocketOutcome:
    """One rocket strike (Revised, Rockets development; Rocket Strikes): "There is no defense against
    this attack ... The maximum loss each rocket can inflict is the target territory's income value.
    The opponent must surrender that many IPCs to the bank (or as many as the player has, whichever
    is the lesser amount)."  Which gun may fire at which complex (one gun per territory, one rocket
    per complex per turn, within 3 spaces) is the caller's to check."""
    label = f"rocket/{launcher}/{target}"
    faces = tuple(dice.roll(label, 1))
    group = RolledGroup(DiceGroup("antiaircraft gun", 6, 1, "any", "rocket"), faces, faces[0])
    event = DiceRolled(1, "rocket", "attacker", label, (group,), faces[0])
    return RocketOutcome(target, faces[0], min(faces[0], ipc, max(treasury, 0)), event)
