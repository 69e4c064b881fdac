"""`pbem odds`: the exact odds of a battle typed on the command line.

Unit lists parse forgivingly ("3 inf, 2 tanks, 1 aaa": counts first, names or aliases from the
ruleset's units, plurals accepted).  Mistakes are user errors (exit code 2, one clear line).
"""

from __future__ import annotations

import json
import re
from typing import Mapping

import click

from pbem.engine.model import UnitType


def resolve_unit(text: str, units: Mapping[str, UnitType]) -> str:
    """The unit a player meant by `text`: its name, an alias, a common name, either in the plural,
    as orders read them (`pbem.io.names.unit_table`)."""
    from pbem.engine.unitnames import unique_abbreviations
    from pbem.io.names import unit_table

    table = unit_table(units)
    found = table.resolve(text)
    if found.name is not None:
        return found.name
    short = unique_abbreviations(units)
    known = ", ".join(f"{u} ({short[u]})" if u in short else u for u in sorted(units))
    hint = table.hint(text)
    raise click.BadParameter(f"unknown unit {text!r}{f' ({hint})' if hint else ''}; known: {known}")


_ITEM = re.compile(r"^\s*(?:(\d+)\s*(?:x\s+)?)?(.+?)\s*$")
# The most units a side may hold here: far above any stack of the boards, below what would take
# the exact walk's grid out of memory (10,000 infantry a side need more than a gigabyte)
MOST_UNITS = 5000


def parse_units(text: str, units: Mapping[str, UnitType]) -> dict[str, int]:
    """'3 infantry, 1 artillery' -> {'infantry': 3, 'artillery': 1} (a missing count means 1; a
    count of 0 means none, so '0 destroyer' adds nothing)."""
    out: dict[str, int] = {}
    for item in re.split(r"[,;+]|\band\b", text):
        if not item.strip():
            continue
        if re.match(r"\s*-\s*\d", item):
            raise click.BadParameter(f"cannot read {item.strip()!r}: a count is 0 or more, like '3 infantry'")
        if re.match(r"\s*\d*[.,]\d", item):
            raise click.BadParameter(f"cannot read {item.strip()!r}: a count is a whole number, like '3 infantry'")
        match = _ITEM.match(item)
        if not match or not match.group(2):
            raise click.BadParameter(f"cannot read {item.strip()!r}: write it like '3 infantry'")
        count = int(match.group(1)) if match.group(1) else 1
        unit = resolve_unit(match.group(2), units)
        if count:
            out[unit] = out.get(unit, 0) + count
    if sum(out.values()) > MOST_UNITS:
        raise click.BadParameter(f"{sum(out.values())} units on one side: pbem odds computes battles of at most "
                                 f"{MOST_UNITS} units a side, far more than any board holds")
    return out


def parse_retreat(text: str | None):  # -> RetreatCondition
    """The orders' retreat vocabulary (`pbem.io.retreat_words`), as the combat engine's condition."""
    from pbem.engine.combat.model import RetreatCondition
    from pbem.io.retreat_words import VOCABULARY, read_retreat

    if text is None or not text.strip():
        return RetreatCondition()
    read = read_retreat(text)
    if read is None:
        raise click.BadParameter(f"cannot read retreat {text!r}; write one of: {VOCABULARY}")
    kind, value = read
    if kind == "never":
        return RetreatCondition()
    if kind in ("always", "after_round"):
        return RetreatCondition("after_round", max(value, 1))
    if kind == "attackers_at_most":
        return RetreatCondition("when_attackers_at_most", value)
    if kind == "no_land_units":
        return RetreatCondition("when_no_land_units")
    return RetreatCondition("when_defenders_outnumber")


def _ruleset(ruleset_id: str):  # -> (Ruleset, Rules, CombatRules)
    from pbem.engine.problems import ProblemsError
    from pbem.io.rulesets import load_ruleset, resolve_ruleset_id, rules_for

    try:
        ruleset = load_ruleset(resolve_ruleset_id(ruleset_id))
    except ProblemsError as exc:
        raise click.BadParameter(str(exc), param_hint="--ruleset") from None
    return (ruleset, *rules_for(ruleset))


def _power(ruleset, text: str | None, hint: str) -> str | None:  # type: ignore[no-untyped-def]
    if text is None:
        return None
    try:
        return ruleset.country(text).name if hint == "--controller" else ruleset.power(text).name
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint=hint) from None


def _modifiers(ruleset, rules, kind: str, attacker: str | None, defender: str | None, controller: str | None,  # type: ignore[no-untyped-def]
               round_: int, attacking: Mapping[str, int], seaborne: bool, options: Mapping[str, object]):
    """The ruleset's battle modifiers (Rules.hooks.battle_modifiers) for a battle between these
    powers in this round and territory, as `Battle` fields for the calculator's two sides."""
    hook = rules.hooks.battle_modifiers
    if hook is None or (attacker is None and defender is None):
        return {}, None, frozenset(), {}
    mods = hook({**ruleset.option_defaults(), **options}, ruleset.units, kind="sea" if kind == "sea" else "land",
                attacker=attacker or "", defenders=frozenset({defender} if defender else ()), attacking_units=dict(attacking),
                original_owner=controller, controller=controller, island=False, super_submarines=frozenset(),
                attacking_subs_moved_in=sum(n for u, n in attacking.items() if ruleset.units[u].has("submarine")),
                round=round_, seaborne=seaborne)
    profiles, first_cycle = {}, {}
    for side, power in (("attacker", attacker), ("defender", defender)):
        if power and mods.profiles.get(power):
            profiles[side] = dict(mods.profiles[power])
        # round-1-only profiles of an amphibious assault's land combat, as the game applies them
        # (pbem.engine.battles: Revised Atlantic Wall, Marines)
        if power and kind != "sea" and seaborne and getattr(mods, "amphibious_first_cycle", {}).get(power):
            first_cycle[side] = dict(mods.amphibious_first_cycle[power])
    return profiles, mods.aa_hit, mods.aa_immune, first_cycle


@click.command("odds")
@click.option("--ruleset", "ruleset_id", default="1942-2e", show_default=True, help="Rule system id.")
@click.option("--attack", default="", help='Attacking units, e.g. "3 infantry, 1 artillery, 1 tank" (with --seaborne, may be left out).')
@click.option("--defend", required=True, help='Defending units, e.g. "4 infantry".')
@click.option("--kind", type=click.Choice(["land", "sea", "amphibious"]), default=None, help="Inferred when omitted.")
@click.option("--bombard", default="", help='Ships bombarding an amphibious assault, e.g. "1 battleship".')
@click.option("--seaborne", default="", help='Land units offloaded from transports, fighting beside the --attack units (which they are '
              'added to; they cannot retreat), e.g. "2 infantry".')
@click.option("--attacker-ool", default="", help="Attacker's order of loss (unit names, first lost first); unlisted "
              "units follow the default: the cheapest first, air units last at equal cost (a fighter before a cruiser at sea), "
              "then the unit that fires worse.")
@click.option("--defender-ool", default="", help="Defender's order of loss.")
@click.option("--attacker-hold/--no-attacker-hold", default=None,
              help="Keep one attacking land unit to the last, to capture (default: yes without --attacker-ool, no with it).")
@click.option("--defender-hold", is_flag=True, help="Keep one defending land unit to the last (default: no; any survivor holds).")
@click.option("--retreat", default=None, help='"after round 2", "when attackers <= 2", "when defenders outnumber", "when no land units left".')
@click.option("--attacker-submerge", is_flag=True, help="Attacking subs submerge whenever they may.")
@click.option("--defender-submerge", is_flag=True, help="Defending subs submerge whenever they may.")
@click.option("--attacker-damage-in-order", is_flag=True, help="Two-hit attackers take their hits where --attacker-ool ranks "
              "them, not their free first hit before any loss (the orders' damage_first: false).")
@click.option("--defender-damage-in-order", is_flag=True, help="The same for the defender's two-hit units.")
@click.option("--low-luck", is_flag=True, help="Low Luck dice (a game option).")
@click.option("--attacker-power", default=None, help="Who attacks, for the ruleset's battle modifiers (national advantages, "
              "Pacific's first turn and Marines), e.g. Japan.")
@click.option("--defender-power", default=None, help="Who defends, for the same modifiers, e.g. \"Great Britain\".")
@click.option("--round", "round_", type=click.IntRange(1, 999), default=2, show_default=True,
              help="The game round (Pacific: on Japan's first turn, round 1, the Allies defend at 1).")
@click.option("--controller", default=None, help="The country holding the attacked territory (Pacific: China's territories "
              "defend at full strength on Japan's first turn).")
@click.option("--option", "game_options", multiple=True, help="A game option as NAME=VALUE (true/false or a number), e.g. "
              "first_turn_surprise=false.")
@click.option("--exact", "no_bound", is_flag=True, help="Compute exactly however long it takes (by default a battle too "
              "large for the bound is sampled instead, within the same bound again, and says so).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def odds(
    ruleset_id: str,
    attack: str,
    defend: str,
    kind: str | None,
    bombard: str,
    seaborne: str,
    attacker_ool: str,
    defender_ool: str,
    attacker_hold: bool | None,
    defender_hold: bool,
    retreat: str | None,
    attacker_submerge: bool,
    defender_submerge: bool,
    attacker_damage_in_order: bool,
    defender_damage_in_order: bool,
    low_luck: bool,
    attacker_power: str | None,
    defender_power: str | None,
    round_: int,
    controller: str | None,
    game_options: tuple[str, ...],
    no_bound: bool,
    as_json: bool,
) -> None:
    """Exact odds of a battle (attacker win, defender win, draw, capture, expected losses).

    With --attacker-power and --defender-power the ruleset's own battle modifiers apply, e.g.
    Pacific's first turn: --ruleset pacific --attacker-power Japan --defender-power "Great Britain"
    --round 1 (the Allies defend at 1; add --controller China for Chinese territory)."""
    from pbem.engine.combat.model import Battle, Force, Orders
    from pbem.odds import COMMAND_BUDGET, battle_odds

    ruleset, rules, combat_rules = _ruleset(ruleset_id)
    units = ruleset.units
    a = parse_units(attack, units) if attack else {}
    d = parse_units(defend, units)
    ships = parse_units(bombard, units) if bombard else {}
    boat = parse_units(seaborne, units) if seaborne else {}
    if not a and not boat:
        raise click.BadParameter("no attacking units: give --attack, or --seaborne for a landing", param_hint="--attack")
    everything = [units[u] for u in (*a, *d, *boat)]
    if kind is None:
        only_sea_air = all(p.domain in ("sea", "air") for p in everything)
        kind = "sea" if only_sea_air and any(p.domain == "sea" for p in everything) else "land"
        if ships or boat:
            kind = "amphibious"
    battle_kind = "sea" if kind == "sea" else "land"
    for side, spec in (("--attack", a), ("--defend", d), ("--seaborne", boat)):
        for unit in spec:
            domain = units[unit].domain
            if domain == "structure" or (battle_kind == "sea" and domain == "land"):
                raise click.BadParameter(f"{unit} cannot fight in a {kind} battle", param_hint=side)
            if battle_kind == "land" and domain == "sea":
                raise click.BadParameter(f"{unit} cannot fight in a {kind} battle", param_hint=side)
    if not rules.movement.aa_moves_in_combat:
        for side, spec in (("--attack", a), ("--seaborne", boat)):
            for unit in spec:
                if units[unit].has("moves_noncombat_only"):
                    raise click.BadParameter(f"{unit} cannot attack: it moves in noncombat move only", param_hint=side)
    if (ships or boat) and kind != "amphibious":
        raise click.BadParameter("--bombard and --seaborne need --kind amphibious", param_hint="--kind")
    bombard_list: list[str] = []
    for ship, n in ships.items():
        if units[ship].bombard <= 0:
            raise click.BadParameter(f"{ship} cannot bombard", param_hint="--bombard")
        bombard_list.extend([ship] * n)
    options: dict[str, object] = {}
    for text in game_options:
        name, eq, value = text.partition("=")
        if not eq or name.strip() not in ruleset.options:
            raise click.BadParameter(f"{text!r}: write NAME=VALUE with a game option of {ruleset.id}: "
                                     + ", ".join(ruleset.options), param_hint="--option")
        v = value.strip().lower()
        options[name.strip()] = True if v == "true" else False if v == "false" else int(v) if v.isdigit() else value.strip()
    from pbem.io.options import option_problem

    wrong = option_problem(ruleset, options)
    if wrong:
        raise click.BadParameter(wrong, param_hint="--option")
    profiles, aa_hit, aa_immune, first_cycle = _modifiers(
        ruleset, rules, kind, _power(ruleset, attacker_power, "--attacker-power"), _power(ruleset, defender_power, "--defender-power"),
        _power(ruleset, controller, "--controller"), round_, {**a, **boat}, bool(boat), options)
    ool_a = tuple(parse_units(attacker_ool, units)) if attacker_ool else ()
    ool_d = tuple(parse_units(defender_ool, units)) if defender_ool else ()
    attackers = tuple(Force(u, "attacker", n) for u, n in a.items()) + tuple(
        Force(u, "attacker", n, seaborne=True) for u, n in boat.items()
    )
    battle = Battle(
        space="battle",
        kind=battle_kind,  # type: ignore[arg-type]
        attacker="attacker",
        attackers=attackers,
        defenders=tuple(Force(u, "defender", n) for u, n in d.items()),
        units=units,
        rules=combat_rules,
        bombard=tuple(bombard_list),
        retreat_to=("retreat",),
        profiles=profiles,
        aa_hit=aa_hit,
        aa_immune=aa_immune,
        first_cycle_profiles=first_cycle,
    )
    attacker_orders = Orders(
        order_of_loss=ool_a, hold_territory=(not ool_a) if attacker_hold is None else attacker_hold,
        retreat=parse_retreat(retreat), submerge="always" if attacker_submerge else "never",
        damage_first=not attacker_damage_in_order,
    )
    defender_orders = Orders(order_of_loss=ool_d, hold_territory=defender_hold, submerge="always" if defender_submerge else "never",
                             damage_first=not defender_damage_in_order)
    result = battle_odds(battle, attacker_orders, defender_orders, low_luck=low_luck, budget=None if no_bound else COMMAND_BUDGET)
    data = {
        "kind": kind,
        "attacker_win": result.attacker_win,
        "defender_win": result.defender_win,
        "draw": result.draw,
        "retreat": result.retreat,
        "stalemate": result.stalemate,
        "capture": result.capture,
        "expected_survivors": result.expected_survivors,
        "expected_ipc_loss": result.expected_ipc_loss,
        "expected_rounds": result.expected_rounds,
        "most_likely": [
            {"probability": f.probability, "winner": f.winner, "attacker": f.attacker, "defender": f.defender}
            for f in result.most_likely
        ],
        "exact": result.exact,
        "confidence": result.confidence,
        "neglected": result.neglected,
    }
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    from pbem.engine.words import count_of, plural
    from pbem.report.render import stored_odds

    pct = lambda x: f"{100 * stored_odds(x):5.1f}%"  # noqa: E731  # (as reports show it)
    click.echo(f"{kind} battle, {'exact' if result.exact else f'simulated, within ±{100 * (result.confidence or 0):.1f} points'}")
    click.echo(f"  attacker wins  {pct(result.attacker_win)}")
    click.echo(f"  defender wins  {pct(result.defender_win)}")
    click.echo(f"  both destroyed {pct(result.draw)}")
    if result.retreat:
        click.echo(f"  retreat        {pct(result.retreat)}")
    if result.stalemate:
        click.echo(f"  stalemate      {pct(result.stalemate)}")
    if result.capture is not None:
        click.echo(f"  capture        {pct(result.capture)}")
    click.echo(
        f"  expected IPC lost: attacker {result.expected_ipc_loss['attacker']:.1f}, "
        f"defender {result.expected_ipc_loss['defender']:.1f}; rounds {result.expected_rounds:.2f}"
    )
    for side in ("attacker", "defender"):
        left = ", ".join(f"{n:.2f} {u if f'{n:.2f}' == '1.00' else plural(u)}" for u, n in result.expected_survivors[side].items())
        click.echo(f"  expected {side} survivors: {left or 'none'}")
    click.echo("  most likely:")
    for f in result.most_likely:
        show = lambda m: ", ".join(count_of(n, u) for u, n in m.items()) or "nothing"  # noqa: E731
        click.echo(f"    {pct(f.probability)}  {f.winner:8}  attacker: {show(f.attacker)}; defender: {show(f.defender)}")
