"""`pbem orders template`: a pre-filled, commented orders file for the power to move."""

from __future__ import annotations

from dataclasses import replace

import click

from pbem.cli.game_commands import _open, game_option, user_errors
from pbem.engine.words import article, units_text
from pbem.game.game import possessive


def _held_by(ruleset, state, space: str) -> str | None:  # type: ignore[no-untyped-def]
    """The power whose country controls `space` (control is kept by country: 1940's UK Europe)."""
    holder = state.control.get(space)
    return None if holder is None else ruleset.power_name(holder)


def _enemy_holders(game, state, power: str) -> frozenset[str]:  # type: ignore[no-untyped-def]
    """The names in control of the enemies `power` is at war with (1940: only those): control is kept
    by country, so Pacific's India and 1940's UK Pacific as well as the powers."""
    ruleset, politics = game.ruleset, game.rules.politics
    enemies = set(ruleset.enemies(power))
    if politics is not None:
        kept = state.pending.get("war")
        wars = {frozenset(p) for p in kept} if kept is not None else set(politics.at_war)
        enemies = {e for e in enemies if frozenset({power, e}) in wars}
    return frozenset(c for e in enemies for c in (e, *ruleset.countries_of(e)))


def _example_battle(game, state, power: str) -> tuple[str, str, str]:  # type: ignore[no-untyped-def]
    """A real attack from this map for the directive example: an enemy territory next to one of the
    power's own land units, and that unit's territory to retreat to; else its aircraft on an enemy
    army, or its warships on an enemy fleet, next to them."""
    board, holders = game.ruleset.board, _enemy_holders(game, state, power)

    def enemy_held(target: str) -> bool:
        return state.control.get(target) in holders
    for space, by_owner in sorted(state.units.items()):
        if not board.spaces[space].is_land or not by_owner.get(power):
            continue
        for target in sorted(board.neighbours(space)):
            if board.spaces[target].is_land and enemy_held(target):
                units = sorted(u for u in by_owner[power]  # units that attack (not an antiaircraft gun)
                               if game.ruleset.units[u].domain == "land" and game.ruleset.units[u].move > 0
                               and game.ruleset.units[u].attack > 0)
                if units:
                    return target, space, ", ".join(units[:3])
    def enemies_in(target: str) -> bool:
        return any(n for o, units in state.units.get(target, {}).items() if o in holders for n in units.values())
    for space, by_owner in sorted(state.units.items()):  # no land attack: aircraft on an enemy army, ships on a fleet
        if not by_owner.get(power):
            continue
        domain = "air" if board.spaces[space].is_land else "sea"
        fighting = sorted(u for u in by_owner[power] if game.ruleset.units[u].domain == domain
                          and game.ruleset.units[u].attack > 0 and game.ruleset.units[u].move > 0)
        for target in sorted(board.neighbours(space)) if fighting else ():
            if board.spaces[target].is_land == (domain == "air") and enemies_in(target) and (domain == "sea" or enemy_held(target)):
                return target, space, fighting[0]
    return "ENEMY TERRITORY", "YOUR TERRITORY", "infantry, artillery, tank"


def _second_unit(ruleset, units: str) -> str:  # type: ignore[no-untyped-def]
    """A unit to write beside infantry in the example: one of the power's own, or the box's."""
    own = [u for u in units.split(", ") if "infantry" not in u]
    if own:
        return own[-1]
    return next((n for n in ("artillery", "tank", "armor") if n in ruleset.units), "tank")


def _airborne_example(game, state, power: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Rules.airborne: the power's bases with paratroopers on them, and a target in reach (a base
    with an enemy in reach first)."""
    rule, ruleset = game.rules.airborne, game.ruleset
    board, holders = ruleset.board, _enemy_holders(game, state, power)
    examples: list[tuple[bool, str, str, int]] = []  # (no target, base, target, jumpers)
    for space, by_owner in sorted(state.units.items()):
        own = by_owner.get(power, {})
        if _held_by(ruleset, state, space) != power or not any(ruleset.units[u].has(rule.base_tag) for u in own if u in ruleset.units):
            continue
        jumpers = sorted(u for u in own if u in rule.units)
        if not jumpers:
            continue
        ring, seen = [space], {space}  # the enemy territories nearest the base, within the jump's reach
        near: list[str] = []
        for _ in range(rule.reach + (1 if rule.farther_from and own.get(rule.farther_from) else 0)):
            ring = sorted({t for s in ring for t in board.neighbours(s) if t not in seen and not board.spaces[t].impassable})
            seen.update(ring)
            near = [t for t in ring if board.spaces[t].is_land and state.control.get(t) in holders]
            if near:
                break
        examples.append((not near, space, near[0] if near else "ENEMY TERRITORY", min(rule.per_base, own[jumpers[0]])))
        if near:
            break
    if not examples:
        return []
    _, space, target, count = min(examples)
    jumper = sorted(u for u in state.units[space][power] if u in rule.units)[0]
    return [f"# Airborne assault: up to {rule.per_base} {', '.join(sorted(rule.units))} jump from each operational base, "
            f"{rule.reach} spaces ({rule.reach + 1} from an {rule.farther_from}), beside a ground or amphibious attack:"
            if rule.farther_from else
            f"# Airborne assault: up to {rule.per_base} {', '.join(sorted(rule.units))} jump from each operational base, "
            f"{rule.reach} spaces, beside a ground or amphibious attack:",
            f"#   - {{units: \"{count} {jumper}\", from: {space}, to: {target}, mission: airborne}}"]


def _most_bought(game, state, power: str) -> dict[str, int] | None:  # type: ignore[no-untyped-def]
    """unit -> how many the power may buy this turn, where its countries buy only some units
    (Rules.hooks.purchase_limits: 1940's China); None where it buys anything."""
    hook = game.rules.hooks.purchase_limits
    limits = [hook(game.config.options, c, control=dict(state.control)) for c in game.ruleset.countries_of(power)] if hook else [None]
    if None in limits:
        return None
    return {u: max(lim.get(u, 0) for lim in limits if lim is not None) for u in game.ruleset.units}


def _upgrade_example(game, state, power: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Upgrades (units.yaml upgrade_from): placed on the facility they raise, which the purchase alone
    does not say; the example names one of the power's own facilities an upgrade applies to, in a
    territory that meets the higher facility's build restrictions (1940: a major complex goes in an
    original territory worth 3 or more)."""
    ruleset = game.ruleset
    upgrades = {u.upgrade_from: u for u in ruleset.units.values() if u.has("upgrade")}
    most = _most_bought(game, state, power)
    if most is not None:  # a country that buys only some units (1940's China) buys no upgrade
        upgrades = {old: u for old, u in upgrades.items() if most.get(u.name, 0)}
    if not upgrades:
        return []

    from pbem.engine.turn import upgrade_restriction

    def meets(space: str, upgrade) -> bool:  # type: ignore[no-untyped-def]
        return upgrade_restriction(ruleset, game.rules, power, space, upgrade) is None
    owned = False
    for space, by_owner in sorted(state.units.items()):
        own = sorted(t for t in by_owner.get(power, {}) if t in upgrades)
        if not own or _held_by(ruleset, state, space) != power:
            continue
        owned = True
        fit = [t for t in own if meets(space, upgrades[t])]
        if fit:
            return [f"# An upgrade is placed on the facility it raises, e.g. {{{space}: 1 {upgrades[fit[0]].name}}}."]
    name = sorted(u.name for u in upgrades.values())[0]
    if owned:
        return [f"# An upgrade is placed on the facility it raises: {{TERRITORY: 1 {name}}}; none of {possessive(power)} "
                "facilities stands where the higher one may be built now."]
    return ["# An upgrade is placed on the facility it raises: {TERRITORY: 1 " + name + "}."]


def _declarations_of_war(game, state, power: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The enemies `power` is at peace with, and which of them it may declare war on this turn (1940)."""
    politics, ruleset = game.rules.politics, game.ruleset
    kept = state.pending.get("war")
    wars = {frozenset(p) for p in kept} if kept is not None else set(politics.at_war)
    at_peace = [e for e in ruleset.turn_order if e in set(ruleset.enemies(power)) and frozenset({power, e}) not in wars]
    if not at_peace:
        return []
    present = {space: frozenset(ruleset.power_name(o) for o, units in by_owner.items() if units) for space, by_owner in state.units.items()}

    def open_at(e: str, phase: str) -> bool:
        return politics.may_declare_war is None or politics.may_declare_war(
            game.config.options, power, e, round=state.round, at_war=frozenset(wars), control=dict(state.control),
            facts=frozenset(state.pending.get("facts") or ()), present=present, phase=phase) is None
    open_now = [e for e in at_peace if open_at(e, "combat_move")]
    open_late = [e for e in at_peace if e not in open_now and open_at(e, "collect_income")]
    out = [f"# {power} is at peace with {', '.join(at_peace)}; a declaration of war takes effect at the start of combat move."]
    if open_now:
        out += [f"# It may declare war this turn on: {', '.join(open_now)}.", f"#   declare_war: [{open_now[0]}]"]
    elif open_late:
        out += [f"# It may declare war at this turn's Collect Income phase on: {', '.join(open_late)} (a declaration in these orders is made then).",
                f"#   declare_war: [{open_late[0]}]"]
    else:
        out += ["# It may declare war on none of them this turn."]
    return out


def _cap_landing(game, state, power: str, zone: str) -> str:  # type: ignore[no-untyped-def]
    """A landing for the fighters on patrol over `zone`, as the engine picks them
    (Turn.land_combat_air_patrol): the first friendly territory next to it, or the zone itself (a
    carrier there)."""
    from pbem.engine.world import World

    w = World(game.ruleset, game.rules, state)
    lands = sorted(t for t in w.board.neighbours(zone) if w.space(t).is_land and not w.space(t).impassable
                   and w.is_friendly_territory(t))
    return lands[0] if lands else zone


def _given_this_turn(game, state, power: str) -> list[str]:  # type: ignore[no-untyped-def]
    """What the rules give `power` for nothing this turn as things stand (Rules.hooks.free_units at
    the start of its turn and at its mobilize phase: Pacific's Chinese infantry, 1940's war production),
    so that a player plans with it; placements choose the space where the rule offers several."""
    hook = game.rules.hooks.free_units
    if hook is None:
        return []
    from pbem.engine.world import World

    w = World(game.ruleset, game.rules, state)
    w.options = dict(game.config.options)
    used = set(state.pending.get("once") or ())
    grants = []
    for event, facts in (("start_of_turn", {}), ("mobilize", {"control": dict(state.control),
                                                              "control_at_start": dict(state.control), "board": game.ruleset.board})):
        for g in hook(game.config.options, event, power=power, world=w, **facts):
            profile = game.ruleset.units.get(g.unit)
            if profile is not None and profile.has("upgrade"):  # only where there is a facility to raise
                spaces = tuple(s for s in g.spaces if any(by.get(profile.upgrade_from, 0) for by in state.units.get(s, {}).values()))
                g = replace(g, spaces=spaces)
            if g.count > 0 and g.spaces and (g.once is None or g.once not in used):
                grants.append(g)
                if g.once is not None:  # a once-a-game gift offered at both moments comes at the first
                    used.add(g.once)
    return [f"# Given this turn by the rules: {g.count} {g.unit} in {' or '.join(g.spaces)}: {g.reason}." for g in grants]


def _system_orders(game, state, power: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The order keys this rule system and game options give this power, each with a real example."""
    out: list[str] = _given_this_turn(game, state, power)
    has_research = any(p.id == "develop_weapons" for p in game.ruleset.phases) and bool(
        game.config.options.get("weapons_development", True))
    if has_research:
        from pbem.engine.research import DEVELOPMENTS, DIE_COST, NAMES

        known = set(state.developments.get(power, ()))
        left = [NAMES[d] for d in DEVELOPMENTS if d not in known]
        if left:
            out += [f"# Develop Weapons: research dice cost {DIE_COST} IPCs each; one development a turn, of: {', '.join(left)}.",
                    f"#   develop: {{development: {left[0]}, dice: 1}}",
                    "# A breakthrough counts this turn: a move or rocket strike that needs it is made only if the",
                    f"#   dice bring it (validate warns which; write if_developed: {left[0]} in it to say so)."]
    # damage is kept by territory, or "Territory/facility" for a base (1940)
    damaged = {t: d for t, d in sorted(state.damage.items()) if d and _held_by(game.ruleset, state, t.split("/")[0]) == power}
    if damaged:
        what = "facility" if any("/" in t for t in damaged) else "industrial complex"
        out += [f"# Repair {what} damage, 1 IPC a point: " + ", ".join(f"{t} {d}" for t, d in damaged.items()) + ".",
                "#   repair: {" + ", ".join(f"{t}: {d}" for t, d in damaged.items()) + "}"]
    rules = game.rules
    if rules.hooks.declarations:
        used = set(state.pending.get("once", []) or [])  # type: ignore[call-overload]
        every = sorted(rules.hooks.declarations(game.config.options, power))
        names = [n for n in every if n not in used]
        if names:
            out += [f"# Declarations open to {power} in this game (once per game): {', '.join(names)}.",
                    f"#   declare: [{names[0]}]"]
        if len(names) < len(every):
            out += [f"# Declared already (once per game): {', '.join(n for n in every if n in used)}."]
    if rules.politics is not None:
        out += _declarations_of_war(game, state, power)
    if rules.airborne is not None:
        out += _airborne_example(game, state, power)
    if rules.movement.combat_air_patrol:
        patrols = sorted(z for z, by in dict(state.pending.get("cap") or {}).items() if power in by)  # type: ignore[call-overload]
        enemies = set(game.ruleset.enemies(power))

        def clear(zone: str) -> bool:  # "not where enemies would cause combat"
            return not any(game.ruleset.power_name(o) in enemies for o, units in state.units.get(zone, {}).items() if units)
        example = next(((t, z) for z in sorted(game.ruleset.board.spaces) if game.ruleset.board.spaces[z].is_sea and clear(z)
                        for t in sorted(game.ruleset.board.neighbours(z)) if game.ruleset.board.spaces[t].is_land
                        and state.units.get(t, {}).get(power, {}).get("fighter")), None)
        if example:
            out += ["# Combat air patrol: in noncombat_move, fighters that have not moved may fly to a sea zone next to their territory:",
                    f"#   - {{units: \"1 fighter\", from: {example[0]}, to: {example[1]}, mission: cap}}"]
        if patrols:
            out += [f"# Your fighters on patrol over {', '.join(patrols)} land first: a friendly territory next to the zone, or the zone",
                    "# itself for a carrier there (unnamed: a carrier, else the first friendly territory by name).",
                    "#   cap_landing: {" + ", ".join(f"{z}: {_cap_landing(game, state, power, z)}" for z in patrols) + "}"]
    # as the engine divides it (Turn._convoys_to_divide): among the countries that earn income
    earning = [c for c in game.ruleset.countries_of(power) if c not in rules.economy.countries_without_income]
    if len(earning) > 1 and any(game.ruleset.board.spaces[n].convoy and c in earning for n, c in state.control.items()):
        out += ["# Your convoy centres' income is divided among your countries as you say (default: as their markers lie):",
                f"#   convoy_income: {{{earning[-1]}: 6}}"]
    tech = rules.technology
    if tech is not None and tech.rockets is not None and tech.rockets in set(state.developments.get(power, ())):
        reach = ", ".join(f"{article(name)} {spaces} spaces ({dice} {'die' if dice == 1 else 'dice, the best'})"
                          for name, spaces, dice in tech.rocket_launchers)
        out += [f"# Rocket strikes: each operational launcher fires one a turn at an enemy facility, never over a neutral: {reach}.",
                "#   rockets: [{from: TERRITORY WITH AN AIR BASE, target: ENEMY TERRITORY, facility: naval base}]"]
    elif "rockets" in set(state.developments.get(power, ())):
        out += ["# Rocket strikes: an antiaircraft gun hits an enemy industrial complex within 3 spaces.",
                "#   rockets: [{from: TERRITORY WITH AA GUN, target: ENEMY COMPLEX}]"]
    if rules.production.existing_air_onto_new_carriers:
        board = game.ruleset.board
        example = next(((t, z) for t, by in sorted(state.units.items()) if board.spaces[t].is_land
                        and any(game.ruleset.units[u].has("factory") for u in by.get(power, {}))
                        and any(game.ruleset.units[u].lands_on_carriers for u in by.get(power, {}))
                        for z in sorted(board.neighbours(t)) if board.spaces[z].is_sea), None)
        if example:
            out += ["# Fighters in a territory with your complex may board a carrier you place beside it this turn:",
                    f"#   onto_new_carriers: [{{units: \"1 fighter\", from: {example[0]}, to: {example[1]}}}]"]
    if rules.hooks.may_convert:
        spaces = game.ruleset.board.spaces
        for space, by_owner in sorted(state.units.items()):
            found = [(owner, unit) for owner, units in sorted(by_owner.items()) for unit in sorted(units)
                     if owner != power and rules.hooks.may_convert(game.config.options, power, owner, game.ruleset.units[unit],
                                                             original_owner=spaces[space].original_owner,
                                                             controller=state.control.get(space))]
            if found:
                owner, unit = found[0]
                out += ["# Units of a friendly power that become yours here (a game option allows it), e.g.:",
                        f"#   convert: [{{units: \"1 {unit}\", in: {space}, owner: {owner}}}]"]
                break
    return out + ([""] if out else [])


def orders_template(game) -> str:  # type: ignore[no-untyped-def]
    state = game.state()
    if state.winner:
        from pbem.game.game import GameError

        raise GameError(f"the game is over: the {state.winner} won; there are no more orders to write")
    power = game.power_to_move(state)
    ruleset = game.ruleset
    target, base, units = _example_battle(game, state, power)
    rules = game.rules
    costs: list[tuple[str, object]] = [(u.name, u.cost if rules.hooks.unit_cost is None else rules.hooks.unit_cost(game.config.options, power, u))
             for u in ruleset.units.values() if (rules.production.new_complexes or not u.has("factory"))
             and (u.bought_by is None or set(u.bought_by) & set(ruleset.countries_of(power)))]
    most = _most_bought(game, state, power)
    if most is not None:  # the only units the power may buy (1940's China: infantry, and artillery by the Burma Road)
        costs = [(name, f"{cost} (at most {most[name]} this turn)" if most.get(name, 0) < 100 else cost)
                 for name, cost in costs if most.get(name, 0) > 0]
    if state.round == 0:
        # the cash advance before the first turn (Rules.hooks.cash_advance): buy and place only
        return "\n".join([
            f"# Orders of {power} before the first turn (round 0, the cash advance) of {game.config.game} ({ruleset.name}).",
            f"# Treasury: {game.ruleset.treasury_of(state.treasury, power)} IPCs: buy units and place them in territories or sea zones where",
            "# you already have a unit, or keep the IPCs for your first turn.  Check with `pbem validate FILE`.",
            f"game: {game.config.game}",
            f"power: {power}",
            "round: 0",
            "",
            "# Unit costs: " + ", ".join(f"{name} {cost}" for name, cost in costs),
            "purchase: {}",
            "",
            "# Place: space -> units, where you have a unit now.",
            "place: {}",
            "",
            f"# {possessive(power)} units:",
            *(f"#   {space}: " + units_text(dict(sorted(by_owner[power].items())))
              for space, by_owner in sorted(state.units.items()) if by_owner.get(power)),
        ]) + "\n"
    sea_example = next((n for n, sp in ruleset.board.spaces.items() if sp.is_sea), "SZ 5")
    countries = ruleset.countries_of(power)
    if len(countries) > 1:
        # a power of several countries buys for each from its own treasury (Power.countries)
        treasury = ", ".join(f"{c} {state.treasury.get(c, 0)}" for c in countries) + " IPCs"
        buyers = [c for c in countries if c not in game.rules.economy.countries_without_income]
        purchase = ["# Each country buys from its own IPCs, and places at its own complexes:",
                    "purchase: {" + ", ".join(f"{c}: {{}}" for c in buyers) + "}"]
    else:
        treasury = f"{game.ruleset.treasury_of(state.treasury, power)} IPCs"
        purchase = ["purchase: {}"]
    if game.rules.capitals.no_purchase_without_capital:
        captured = game.capitals_lost(state)
        lost = [c for c in countries if c in captured and c not in game.rules.economy.countries_without_income]
        if lost:
            purchase.insert(0, f"# {' and '.join(lost)} cannot buy while {'its capital is' if len(lost) == 1 else 'their capitals are'} "
                               f"in enemy hands ({', '.join(captured[c] for c in lost)}).")
    lines = [
        f"# Orders of {power} for round {state.round} of {game.config.game} ({ruleset.name}).",
        f"# Treasury: {treasury}.  Check with `pbem validate FILE`, send with `pbem submit FILE`.",
        f"# Units are written '3 infantry, 1 {_second_unit(ruleset, units)}'; spaces by name (e.g. '{sea_example}'); `pbem ruleset show "
        f"{ruleset.id}` lists them all.",
        f"# How {power} defends on other powers' turns is its standing orders: `pbem orders template --standing \"{power}\"`.",
        f"game: {game.config.game}",
        f"power: {power}",
        f"round: {state.round}",
        "",
        *_system_orders(game, state, power),
        "# Unit costs: " + ", ".join(f"{name} {cost}" for name, cost in costs),
        *purchase,
        "",
        "# Combat moves, in order.  Load a transport by moving land units into its sea zone, move the",
        "# transport, then move them from the sea zone to the coast.  For example:",
        f"#   - {{units: \"1 {units.split(', ')[0]}\", from: {base}, to: {target}}}",
        "combat_move: []",
        "",
        "# Battle directives per attacked space: order_of_loss (first listed is lost first), retreat; also hold_territory,",
        "# aa_order_of_loss, submerge, bombard, call_off, ignore and damage_first (the README's Battle directives).",
        f"#   {target}: {{order_of_loss: [{units}], retreat: {{to: {base}, when: \"attackers <= 2\"}}}}",
        "battles: {}",
        "",
        "noncombat_move: []",
        "",
        "# Mobilize: space -> units (only what purchase buys).",
        *_upgrade_example(game, state, power),
        "place: {}",
        "",
        f"# {possessive(power)} units:",
    ]
    for space, by_owner in sorted(state.units.items()):
        mine = by_owner.get(power)
        if mine:
            lines.append(f"#   {space}: " + units_text(dict(sorted(mine.items()))))
    return "\n".join(lines) + "\n"


@click.group("orders")
def orders() -> None:
    """Orders files."""


@orders.command("template")
@game_option
@click.option("--standing", "standing_power", metavar="POWER", default=None,
              help="Print a standing orders file for POWER instead: how it defends on other powers' turns.")
@user_errors
def template(game_dir: str, standing_power: str | None) -> None:
    """Print a commented orders file for the power to move (with --standing, standing orders)."""
    from pbem.cli.standing_template import standing_template

    game = _open(game_dir)
    text = standing_template(game, standing_power) if standing_power else orders_template(game)
    if game_dir != ".":  # the commands the file's comments name work from where the player stands
        import shlex

        for command in ("validate", "submit"):
            text = text.replace(f"`pbem {command} FILE`", f"`pbem {command} FILE --game {shlex.quote(game_dir)}`")
    click.echo(text, nl=False)


@orders.command("sign")
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.option("--key", type=click.Path(dir_okay=False), default=None,
              help="Your SSH private key (default: ~/.ssh/id_ed25519), the one in the game's allowed_signers.")
@user_errors
def sign(file: str, key: str | None) -> None:
    """Print the orders with your SSH signature under them, to paste into a mail to the game.

    For games whose mail settings take orders only when signed (authentication: signature)."""
    from pathlib import Path

    from pbem.gateways.mailauth import sign as sign_orders
    from pbem.io.yamlfile import read_user_file

    key_path = Path(key).expanduser() if key else Path("~/.ssh/id_ed25519").expanduser()
    text = read_user_file(file).decode("utf-8", "replace")
    click.echo(sign_orders(text, key_path), nl=False)
