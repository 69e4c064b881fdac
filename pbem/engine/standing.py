"""Standing orders a game never reads: `intercept:` where no fighter rises against a raid, `scramble:`
outside 1940, `kaiten:` without Revised's Kaiten Torpedoes ...  Their writer expects an effect that
will never come, and nobody is at the table to notice, so checking the file says so (a warning: the
orders stay valid, since an option or a later capture may not change it but a new file costs nothing)."""

from __future__ import annotations

from typing import Any, Mapping

from pbem.engine.orders import StandingOrders
from pbem.engine.problems import Problem
from pbem.engine.words import possessive

RULE = "Standing orders: only what the game's rules read"
RULE_SCRAMBLE = "Scramble: air units on an island or coastal territory with an operative air base"


def unread_standing_orders(standing: StandingOrders, ruleset: Any, rules: Any, combat_rules: Any,
                           options: Mapping[str, Any]) -> list[Problem]:
    """Warnings, one per key written in `standing` that this rule system, with these options, never
    reads for its power."""
    power = standing.power
    own = rules.hooks.standing_keys(options, power) if rules.hooks.standing_keys else frozenset()
    out: list[Problem] = []

    def warn(path: tuple[Any, ...], message: str, hint: str) -> None:
        out.append(Problem("warning", message, rule=RULE, hint=hint, path=path, code="standing.unread"))

    escorts = combat_rules.escorts
    intercepts = escorts == "always" or (escorts == "option" and options.get("escorts_and_interceptors") is True)
    for policy in (standing.default, *standing.per_space.values()):
        if policy.intercept and not intercepts:
            why = "the escorts_and_interceptors option is off" if escorts == "option" else f"{ruleset.name} has no interceptors"
            warn((*policy.yaml_path, "intercept"), f"intercept: no fighter rises against a bombing raid in this game ({why})",
                 "remove intercept:")
        if policy.kaiten and "kaiten" not in own:
            warn((*policy.yaml_path, "kaiten"), f"kaiten: {power} has no kaiten in this game (Revised's Kaiten Torpedoes, a Japanese national advantage)",
                 "remove kaiten:")
    if standing.conditional_moves:
        hook = rules.hooks.interjections
        grants = [g for p in ruleset.turn_order for g in (hook(options, p) if hook else ()) if g.power == power]
        if not grants:
            warn(("standing_orders", "enigma"), f"enigma: no rule of this game lets {power} move on another power's turn "
                 "(Revised's Enigma Decoded, a British national advantage)", "remove enigma:")
        for entry in standing.conditional_moves if grants else ():
            never = _move_never_made(entry, ruleset, air_to_sea=any(g.air_to_sea for g in grants))
            if never:
                out.append(Problem("warning", f"enigma: the move from {entry.frm} to {entry.to} can never be made: {never[0]}",
                                   rule=f"{grants[0].reason}: one move of one step into the attacked space or out of it",
                                   hint=never[1], path=entry.yaml_path, code="standing.enigma-never"))
    if standing.kamikaze and (rules.kamikaze is None or rules.kamikaze.power != power):
        warn(("standing_orders", "kamikaze"), f"kamikaze: {power} has no kamikaze in this game", "remove kamikaze:")
    if standing.scramble and rules.scramble is None:
        warn(("standing_orders", "scramble"), f"scramble: no air unit scrambles in {ruleset.name}", "remove scramble:")
    k = rules.kamikaze
    if standing.kamikaze and k is not None and k.power == power:
        for order in standing.kamikaze:
            # the rules strike only these (never a submarine): a target of another kind is never chosen
            never = [t for t in order.targets if not (ruleset.units[t].tags & k.target_tags) or ruleset.units[t].has("submarine")]
            if never:
                warn((*order.yaml_path, "targets"), f"kamikaze: {', '.join(never)} {'is' if len(never) == 1 else 'are'} never struck "
                     "by a kamikaze: it strikes surface warships", f"remove {', '.join(never)} from targets:")
            if order.count <= 0:
                warn((*order.yaml_path, "count"), "kamikaze: count 0 launches none", "give a count of 1 or more, or remove the entry")
    for order in standing.scramble if rules.scramble is not None else ():
        if order.count <= 0:
            warn((*order.yaml_path, "count"), "scramble: count 0 sends none up", "give a count of 1 to 3, or remove the entry")
    if standing.tribute_payers and not (rules.economy.tribute_paid_by_enemies and any(
            sp.tribute and sp.original_owner == power for sp in ruleset.board.spaces.values())):
        warn(("standing_orders", "tribute_payers"), f"tribute_payers: {power} owns no tribute space an enemy could hold in this game",
             "only the original owner of the tribute spaces (Europe: Great Britain) says who pays")
    if standing.tech_chart is not None and rules.technology is None:
        warn(("standing_orders", "tech_chart"), f"tech_chart: {ruleset.name} has no technology chart to choose", "remove tech_chart:")
    if standing.liberation_units and "liberation_units" not in own:
        warn(("standing_orders", "liberation_units"), f"liberation_units: no rule of this game places units of {possessive(power)} choice "
             "when its capital is liberated (AMS, France)", "remove liberation_units:")
    for space, policy in sorted(standing.per_space.items()):
        # a policy a battle of this kind never reads: no raid over a sea zone, no submarine on land
        sea = ruleset.board.spaces[space].is_sea if space in ruleset.board.spaces else None
        idle = ([("intercept", policy.intercept), ("hold_territory", policy.hold_territory)] if sea
                else [("submerge", policy.submerge), ("kaiten", policy.kaiten)] if sea is False else [])
        why = {"intercept": "no bombing raid is flown over a sea zone", "hold_territory": "a sea zone is not held",
               "submerge": "no submarine fights in a territory", "kaiten": "kaiten defend sea zones"}
        for key, given in idle:
            if given:
                warn((*policy.yaml_path, key), f"{key}: {space} is {'a sea zone' if sea else 'a territory'}, and {why[key]}",
                     f"remove {key}: from {space}")
    for option in standing.choices:
        if f"choices:{option}" not in own:
            offered = sorted(k.partition(":")[2] for k in own if k.startswith("choices:"))
            warn(("standing_orders", "choices", option), f"choices: {option} is no choice this game leaves to {power}",
                 "choices here: " + ", ".join(offered) if offered else "remove choices:")
    return out


def _move_never_made(entry: Any, ruleset: Any, *, air_to_sea: bool) -> tuple[str, str] | None:
    """Why an out-of-turn standing move can never be made on any board position (what
    Turn._interjection refuses whatever the units), and what would be right; None if it may be."""
    board = ruleset.board
    target = entry.when_attacked
    if target not in (entry.frm, entry.to):
        return (f"it neither enters nor leaves {target}, the space it waits for",
                f"move from {target} or to {target}")
    if not board.are_adjacent(entry.frm, entry.to):
        near = sorted(n for n in board.neighbours(target) if not board.spaces[n].impassable)
        return (f"{entry.frm} and {entry.to} are not adjacent", "spaces next to " + target + ": " + ", ".join(near))
    ships = sorted(t for t in entry.units if ruleset.units[t].domain == "sea")
    if ships and not (board.spaces[entry.frm].is_sea and board.spaces[entry.to].is_sea):
        return (f"{', '.join(ships)} sail only from sea zone to sea zone", "name two sea zones for ships")
    air = sorted(t for t in entry.units if ruleset.units[t].domain == "air")
    if air and board.spaces[entry.to].is_sea and not air_to_sea:
        return (f"{', '.join(air)} may not move into a sea zone by it", f"move {', '.join(air)} to a territory, or only ships")
    return None


def scramble_bases_now(standing: StandingOrders, ruleset: Any, rules: Any, units: Mapping[str, Mapping[str, Mapping[str, int]]]) -> list[Problem]:
    """Warnings for `scramble:` entries naming a territory with no air base today, or one with no sea zone
    beside it: nothing rises from there until a base is built or taken (so they stay valid)."""
    rule = rules.scramble
    if rule is None:
        return []
    out = []
    side = ruleset.side_of(standing.power)

    def bases_of_side(space: str) -> bool:  # an air base of the power's side there (an enemy's is no use until taken)
        return any(ruleset.units[t].has(rule.base_tag) and n > 0 and ruleset.side_of(ruleset.power_name(owner)) == side
                   for owner, stack in units.get(space, {}).items() for t, n in stack.items() if t in ruleset.units)

    for order in standing.scramble:
        base = order.base
        coast = [n for n in ruleset.board.neighbours(base) if ruleset.board.spaces[n].is_sea]
        if not coast:
            out.append(Problem("warning", f"scramble: {base} has no sea zone beside it: nothing scrambles from it", rule=RULE_SCRAMBLE,
                               hint="name an air base on a coastal territory or island", path=(*order.yaml_path, "from"), code="standing.scramble-base"))
            continue
        if not bases_of_side(base):
            own = sorted(s for s, by in units.items() for t, n in by.get(standing.power, {}).items()
                         if n > 0 and t in ruleset.units and ruleset.units[t].has(rule.base_tag)
                         and any(ruleset.board.spaces[z].is_sea for z in ruleset.board.neighbours(s)))
            out.append(Problem("warning", f"scramble: there is no air base of your side in {base} now: nothing scrambles from it until one is built or taken there",
                               rule=RULE_SCRAMBLE, hint=f"{possessive(standing.power)} air bases: " + (", ".join(own) or "none"),
                               path=(*order.yaml_path, "from"), code="standing.scramble-base"))
    return out


def standing_problems(standing: StandingOrders, ruleset: Any, rules: Any, options: Mapping[str, Any]) -> list[Problem]:
    """What is wrong with the values of a system's own standing-orders keys (Rules.hooks.standing_problems)."""
    hook = rules.hooks.standing_problems
    return list(hook(options, standing, ruleset)) if hook else []
