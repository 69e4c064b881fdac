"""`pbem orders template --standing POWER`: a power's standing orders written out, its defaults and
the keys its rule system and the game's options give it, each with an example from the board."""

from __future__ import annotations


def standing_template(game, power_name: str) -> str:  # type: ignore[no-untyped-def]
    """A commented standing orders file for `power_name`: its defaults written out, and the keys this
    rule system and the game's options give it, each with an example from the board."""
    from pbem.engine.combat.casualties import default_rank
    from pbem.game.game import GameError

    ruleset, rules, state = game.ruleset, game.rules, game.state()
    if state.winner:
        raise GameError(f"the game is over: the {state.winner} won; there are no more standing orders to write")
    try:
        power = ruleset.power(power_name).name
    except KeyError:
        raise GameError(f"unknown power {power_name!r}; powers of {ruleset.id}: {', '.join(ruleset.turn_order)}") from None
    own = {s: dict(by[power]) for s, by in sorted(state.units.items()) if by.get(power)}
    kinds = {u for units in own.values() for u in units if u in ruleset.units and ruleset.units[u].domain in ("land", "sea", "air")
             and (game.combat_rules.aa_can_be_casualty or not ruleset.units[u].has("aa"))}  # never casualties: not listed
    order = sorted(kinds, key=lambda u: default_rank(ruleset.units[u], ruleset.units[u].defense))  # as it defends
    air_last = [u for u in order if ruleset.units[u].domain != "air"] + [u for u in order if ruleset.units[u].domain == "air"]
    capital = next((c.capital for c in ruleset.power(power).economies if c.capital), None)
    lines = [
        f"# Standing orders of {power} in {game.config.game} ({ruleset.name}): how {power} defends on other powers' turns.",
        "# They hold until you submit new ones (`pbem submit FILE`); an order of loss is followed exactly as written,",
        "# first listed lost first, and units it leaves out follow the default.  Check with `pbem validate FILE`.",
        f"game: {game.config.game}",
        f"power: {power}",
        "standing_orders:",
        "  # The default, written out: the cheapest units lost first, air units last at equal cost.",
        "  default: {order_of_loss: [" + ", ".join(order) + "]}",
        "  # Per territory or sea zone, overriding the default:",
        "  territories: {}",
    ]
    if capital and air_last != order:
        lines.append(f"  #   {capital}: {{order_of_loss: [{', '.join(air_last)}]}}   # every air unit after the ships and land units")
    two_hit = [u for u in order if ruleset.units[u].hits > 1]
    if two_hit:
        from pbem.engine.words import plural

        lines.append(f"  # {' and '.join(plural(u) for u in two_hit).capitalize()} take their free first hit before any loss"
                     + (" (a carrier whose aircraft find no friendly land one space away keeps fit)"
                        if rules.movement.damaged_carriers_hold_no_air and any(ruleset.units[u].has("carrier") for u in two_hit) else "")
                     + "; in a policy damage_first: false ranks them by the order of loss, true spends every one first.")
    if any(ruleset.units[u].has("submarine") for u in kinds):
        lines.append("  # Defending submarines submerge when they may instead of firing: add submerge: true to a policy.")
    escorts = game.combat_rules.escorts
    if escorts == "always" or (escorts == "option" and game.config.options.get("escorts_and_interceptors")):
        lines.append("  # Fighters rise against bombing raids only when told: intercept: true (all) or a number, in a policy.")
    if rules.scramble is not None:
        # only a base with a sea zone beside it sends anything up
        bases = [s for s, units in own.items() if any(ruleset.units[u].has(rules.scramble.base_tag) for u in units if u in ruleset.units)
                 and any(ruleset.board.spaces[z].is_sea for z in ruleset.board.neighbours(s))]
        if bases:
            zones = sorted(z for z in ruleset.board.neighbours(bases[0]) if ruleset.board.spaces[z].is_sea)
            lines += ["  # Scramble: fighters and tactical bombers of an air base rise to defend the sea zones beside it",
                      "  # (at most 3 a base; none without this key).  Your bases: " + ", ".join(bases) + ".",
                      f"  #   scramble: [{{from: {bases[0]}" + (f", zones: [{zones[0]}]" if zones else "") + ", count: 3}]"]
    if rules.kamikaze is not None and rules.kamikaze.power == power:
        zones = sorted((z for z, sp in ruleset.board.spaces.items() if sp.kamikaze), key=lambda z: (len(z), z))
        lines += [f"  # Kamikaze: {rules.kamikaze.tokens} in the game, in the kamikaze zones ({', '.join(zones)}); none without this key.",
                  f"  #   kamikaze: [{{zones: [{zones[0]}], targets: [battleship, aircraft carrier], count: 1}}]" if zones else
                  "  #   kamikaze: [{targets: [battleship, aircraft carrier], count: 1}]"]
    if rules.economy.tribute_paid_by_enemies and any(sp.tribute and sp.original_owner == power for sp in ruleset.board.spaces.values()):
        allies = [p for p in ruleset.turn_order if p != power and ruleset.side_of(p) == ruleset.side_of(power)]
        lines += ["  # Who pays an enemy for the tribute spaces it holds, in order (default: you, then your allies in turn order):",
                  f"  #   tribute_payers: [{power}" + (f", {{{allies[0]}: 3}}" if allies else "") + "]"]
    hook = rules.hooks.interjections
    moves = [i for p in ruleset.turn_order for i in (hook(game.config.options, p) if hook else ()) if i.power == power]
    if moves:
        fighters = next((s for s, units in own.items() if units.get("fighter") and ruleset.board.spaces[s].is_land), None)
        near = sorted(t for t in ruleset.board.neighbours(fighters) if ruleset.board.spaces[t].is_land) if fighters else []
        target = near[0] if near else "TERRITORY"
        lines += [f"  # {moves[0].reason}: once per game, a move made after another power's combat move when it attacks the space named:",
                  f"  #   enigma: [{{when_attacked: {target}, units: \"1 fighter\", from: {fighters or 'TERRITORY'}, to: {target}}}]"]
    lines += _own_keys(game, power, own)
    return "\n".join(lines) + "\n"


def _own_keys(game, power: str, own: dict[str, dict[str, int]]) -> list[str]:  # type: ignore[no-untyped-def]
    """Lines for the keys only this system's own rules read for the power (Rules.hooks.standing_keys),
    and AMS's technology chart."""
    hook = game.rules.hooks.standing_keys
    keys = hook(game.config.options, power) if hook else frozenset()
    lines = []
    if "kaiten" in keys:
        zone = next((z for z, units in own.items() if units.get("submarine") and game.ruleset.board.spaces[z].is_sea), "SZ 60")
        lines += ["  # Kaiten Torpedoes: in a policy, kaiten: N designates N defending submarines of a sea zone beside an orange",
                  "  # territory Japan controls to fire in the opening fire at 3 (4 with Super Submarines), and be lost for it;",
                  f"  # e.g. under territories: {zone}: {{kaiten: 1}}"]
    for key in sorted(k for k in keys if k.startswith("choices:")):
        option = key.partition(":")[2]
        lines += [f"  # {option}: the territories you prefer, in order, when the rule leaves the choice to you:",
                  f"  #   choices: {{{option}: [{', '.join(sorted(s for s, sp in game.ruleset.board.spaces.items() if sp.original_owner == power and sp.is_land)[:2])}]}}"]
    if "liberation_units" in keys:
        lines += ["  # When the Allies first liberate France, 12 IPCs worth of land or air units of your choice are placed there",
                  "  # (default: 4 infantry):",
                  "  #   liberation_units: {tank: 1, infantry: 2}"]
    if game.rules.technology is not None:
        charts = sorted(game.rules.technology.charts)
        lines += [f"  # A technology roll the rules leave to you (\"Either\") is on this chart ({', '.join(charts)}; default: the",
                  "  # chart with more breakthroughs you lack):",
                  f"  #   tech_chart: {charts[0]}"]
    return lines
