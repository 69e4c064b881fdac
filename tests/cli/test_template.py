"""`pbem orders template`: real names from the game's own map and the rule system's own order keys
(issue 14), and a file that validates as it is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.game import Game


def new(tmp_path: Path, ruleset: str, *options: str) -> Path:
    target = tmp_path / ruleset
    args = ["new", str(target), "--id", "demo", "--dice", "local", "--ruleset", ruleset]
    for o in options:
        args += ["--option", o]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return target


def template(game: Path) -> str:
    result = CliRunner().invoke(cli, ["orders", "template", "--game", str(game)])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("ruleset", ["1942-2e", "revised"])
def test_the_examples_name_real_spaces_of_this_map(tmp_path: Path, ruleset: str) -> None:
    """The attack and retreat in the comments are a real enemy territory beside the power's own
    units, so a new player can uncomment them and see them checked, not 'Ukraine' from another map."""
    game = new(tmp_path, ruleset)
    text = template(game)
    g = Game(game)
    state = g.state()
    move = re.search(r"#   - \{units: \"1 ([a-z ]+)\", from: ([^,]+), to: ([^}]+)\}", text)
    assert move, text
    unit, base, target = move.groups()
    assert g.ruleset.board.are_adjacent(base, target)
    assert state.control[target] in g.ruleset.enemies("Soviet Union")
    assert state.units[base]["Soviet Union"].get(unit)
    directive = re.search(rf"#   {re.escape(target)}: (\{{.*\}})", text)
    assert directive and yaml.safe_load(directive.group(1))["retreat"]["to"] == base


def test_the_template_validates_as_it_is(tmp_path: Path) -> None:
    game = new(tmp_path, "1942-2e")
    f = tmp_path / "orders.yaml"
    f.write_text(template(game))
    result = CliRunner().invoke(cli, ["validate", str(f), "--game", str(game)])
    assert result.exit_code == 0, result.output


def test_revised_lists_its_own_order_keys_with_the_games_options(tmp_path: Path) -> None:
    """Revised has Develop Weapons; a declaration appears only when its option is on in this game."""
    plain = template(new(tmp_path / "a", "revised"))
    assert "#   develop: {development: Jet Fighters, dice: 1}" in plain
    assert "declare:" not in plain
    winter = template(new(tmp_path / "b", "revised", "russian_winter=true"))
    assert "#   declare: [russian_winter]" in winter
    uncommented = yaml.safe_load(re.search(r"#   (develop: .*)", winter).group(1))  # type: ignore[union-attr]
    assert uncommented == {"develop": {"development": "Jet Fighters", "dice": 1}}


def test_1942_has_no_research_key(tmp_path: Path) -> None:
    assert "develop:" not in template(new(tmp_path, "1942-2e"))


def test_revised_shows_fighters_boarding_a_new_carrier_and_the_example_validates(tmp_path: Path) -> None:
    """Revised FAQ: existing fighters in a complex's territory board a carrier built beside it. The
    template of a power with such fighters shows the order, and it validates once the carrier is bought
    and placed; 1942 Second Edition, which has no such rule, does not show it."""
    path = new(tmp_path, "revised")
    game = Game(path)
    for power in ("Soviet Union", "Germany"):  # to the United Kingdom's turn
        game.submit(f"game: demo\npower: {power}\nround: 1\n".encode(), "pass.yaml")
        game.adjudicate()
        game = Game(path)
    text = template(path)
    found = re.search(r"#   (onto_new_carriers: .*)", text)
    assert found, text
    boarding = yaml.safe_load(found.group(1))["onto_new_carriers"][0]
    orders = {"game": "demo", "power": "United Kingdom", "round": 1, "purchase": {"aircraft carrier": 1},
              "place": {boarding["to"]: "1 aircraft carrier"}, "onto_new_carriers": [boarding]}
    f = tmp_path / "orders.yaml"
    f.write_text(yaml.safe_dump(orders))
    result = CliRunner().invoke(cli, ["validate", str(f), "--game", str(path)])
    assert result.exit_code == 0, result.output
    assert "onto_new_carriers" not in template(new(tmp_path / "b", "1942-2e"))


def test_the_unit_list_is_written_as_orders_write_units(tmp_path: Path) -> None:
    """The list of the power's units reads "2 fighters", as the orders may write it; and every
    line of it parses back as the units standing there."""
    from pbem.io.orders import read_orders_text

    game = new(tmp_path, "pacific-2001")
    text = template(game)
    assert "#   SZ 20: 3 aircraft carriers, 6 fighters" in text
    g = Game(game)
    state = g.state()
    listed = dict(re.findall(r"^#   ([^:{]+): (.+)$", text.split("units:\n", 1)[1], flags=re.M))
    assert listed
    for space, units in listed.items():
        _, orders = read_orders_text(f"game: demo\npower: Japan\nround: 1\ncombat_move:\n  - {{units: \"{units}\", from: Japan, to: Korea}}\n",
                                     "o.yaml", g.ruleset)
        assert orders.combat_moves[0].units == state.units[space]["Japan"], space


def test_a_finished_game_has_no_template(tmp_path: Path) -> None:
    """Orders for a game that is over would be refused on submission (`Game.submit`); the template
    says so instead of writing one."""
    import dataclasses
    import subprocess

    from pbem.io.state import dump_state

    game_dir = new(tmp_path, "1942-2e")
    game = Game(game_dir)
    won = dataclasses.replace(game.state(), winner="Axis", victory={"level": "standard", "cities": 9, "needed": 9})
    (game_dir / "state.yaml").write_text(dump_state(won, game.ruleset))
    subprocess.run(["git", "-C", str(game_dir), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "won"], check=True)
    result = CliRunner().invoke(cli, ["orders", "template", "--game", str(game_dir)])
    assert result.exit_code != 0 and "the game is over: the Axis won" in result.output
    # standing orders too: nothing is fought any more (the mail gateway refuses them the same way)
    result = CliRunner().invoke(cli, ["orders", "template", "--standing", "Germany", "--game", str(game_dir)])
    assert result.exit_code != 0 and "the game is over: the Axis won" in result.output
    standing = tmp_path / "standing.yaml"
    standing.write_text("game: demo\npower: Germany\nstanding_orders:\n  default: {order_of_loss: [infantry]}\n")
    for command in ("validate", "submit"):
        result = CliRunner().invoke(cli, [command, str(standing), "--game", str(game_dir)])
        assert result.exit_code != 0 and "the game is over: the Axis won" in result.output, (command, result.output)


def test_the_unit_example_names_two_different_units() -> None:
    """A power whose only land units beside an enemy are infantry (Great Britain in Pacific) was
    shown '3 infantry, 1 infantry'."""
    from pbem.cli.template import _second_unit
    from pbem.io.rulesets import load_ruleset

    pacific = load_ruleset("pacific-2001")
    assert _second_unit(pacific, "infantry") == "artillery"
    assert _second_unit(pacific, "infantry, tank") == "tank"
    assert _second_unit(load_ruleset("europe-1999"), "infantry") == "artillery"


def test_pacific_united_states_buys_and_divides_nothing_for_china(tmp_path: Path) -> None:
    """Pacific, Phase 1 and Phase 9: "China does not collect IPCs"; the template offers China no
    purchase and no convoy income (the British player's two countries do share theirs)."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "pacific-2001"))
    state = g.state()
    us = replace(state, turn_index=g.ruleset.turn_order.index("United States"))
    g.state = lambda: us  # type: ignore[method-assign]
    text = orders_template(g)
    assert "purchase: {USA: {}}" in text and "convoy_income" not in text
    britain = replace(state, turn_index=g.ruleset.turn_order.index("Great Britain"))
    g.state = lambda: britain  # type: ignore[method-assign]
    text = orders_template(g)
    assert "purchase: {India: {}, Australia: {}}" in text and "#   convoy_income: {Australia: 6}" in text


def test_1940_lists_the_declarations_of_war_open_this_turn(tmp_path: Path) -> None:
    """1940 political rules: Germany may declare war on the Soviet Union from the start; the United
    States may not before the Collect Income phase of its turn 3 (DIGEST §1.2), when a declaration in
    its orders is made; the template says which, and when, with the order key."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "global-1940"))
    state = g.state()
    text = orders_template(g)
    assert "# Germany is at peace with Soviet Union, United States, China;" in text
    assert "#   declare_war: [Soviet Union]" in text
    us = replace(state, turn_index=g.ruleset.turn_order.index("United States"))
    g.state = lambda: us  # type: ignore[method-assign]
    text = orders_template(g)
    assert "# United States is at peace with Germany, Japan, Italy;" in text
    assert "It may declare war on none of them this turn." in text and "declare_war:" not in text
    third = replace(us, round=3)  # "until the Collect Income phase of its turn 3"
    g.state = lambda: third  # type: ignore[method-assign]
    assert ("# It may declare war at this turn's Collect Income phase on: Germany, Japan, Italy (a declaration in these orders "
            "is made then).") in orders_template(g)
    g.state = lambda: us  # type: ignore[method-assign]
    f = tmp_path / "orders.yaml"
    f.write_text(template(g.path).replace("#   declare_war: [Soviet Union]", "declare_war: [Soviet Union]"))
    result = CliRunner().invoke(cli, ["validate", str(f), "--game", str(g.path)])
    assert result.exit_code == 0, result.output


def test_ams_shows_an_airborne_assault_from_a_real_base(tmp_path: Path) -> None:
    """AMS, Airborne Assault: "up to 2 infantry units positioned on each territory with an
    operational airstrip may attack hostile territories up to 2 spaces away"; the template's
    example jumps from a base of the power's own, and with a ground attack beside it validates."""
    g = new(tmp_path, "global-1940-ams")
    text = template(g)
    line = re.search(r"#   - (\{units: \"2 infantry\", from: ([^,]+), to: ([^,]+), mission: airborne\})", text)
    assert line, text
    base, target = line.group(2), line.group(3)
    own = Game(g).state().units[base]["Germany"]
    assert own.get("air base") or own.get("air strip"), own
    f = tmp_path / "orders.yaml"
    f.write_text(f"game: demo\npower: Germany\nround: 1\ncombat_move:\n  - {line.group(1)}\n"
                 f"  - {{units: 1 artillery, from: Holland Belgium, to: {target}}}\n")
    result = CliRunner().invoke(cli, ["validate", str(f), "--game", str(g)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("ruleset", ["1942-2e", "revised", "europe-1999", "pacific-2001", "global-1940", "global-1940-ams"])
def test_every_powers_standing_template_validates_with_its_examples_taken_up(tmp_path: Path, ruleset: str) -> None:
    """`pbem orders template --standing POWER`: the defaults written out, and each key the rule system
    gives the power (scramble, kamikaze, tribute payers, AMS's liberation units and technology chart) with
    an example that validates once uncommented, with no warning of a key the game never reads."""
    g = new(tmp_path, ruleset)
    seen = set()
    for power in Game(g).ruleset.turn_order:
        result = CliRunner().invoke(cli, ["orders", "template", "--game", str(g), "--standing", power])
        assert result.exit_code == 0, result.output
        text = result.stdout
        assert f"power: {power}\n" in text and "  default: {order_of_loss: [" in text
        for key in ("scramble", "kamikaze", "tribute_payers", "liberation_units", "tech_chart"):
            if f"  #   {key}:" in text:
                seen.add(key)
                text = text.replace(f"  #   {key}:", f"  {key}:")
        f = tmp_path / f"{power}.yaml"
        f.write_text(text)
        result = CliRunner().invoke(cli, ["validate", str(f), "--game", str(g)])
        assert result.exit_code == 0 and "warning" not in result.output, (power, result.output, text)
    expected = {"global-1940": {"scramble", "kamikaze"}, "global-1940-ams": {"scramble", "kamikaze", "liberation_units", "tech_chart"},
                "pacific-2001": {"kamikaze"}, "europe-1999": {"tribute_payers"}}.get(ruleset, set())
    assert seen == expected


def test_a_standing_template_for_an_unknown_power_is_refused(tmp_path: Path) -> None:
    g = new(tmp_path, "europe-1999")
    result = CliRunner().invoke(cli, ["orders", "template", "--game", str(g), "--standing", "Sweden"])
    assert result.exit_code == 2 and "unknown power 'Sweden'" in result.output and "Great Britain" in result.output


def test_revised_standing_template_shows_enigma_where_the_game_plays_it(tmp_path: Path) -> None:
    """Revised's Enigma Decoded, played as the United Kingdom's standing order `enigma:` (the rules'
    interjections), appears where the game's options have it and for that power only."""
    g = new(tmp_path, "revised", "enigma_decoded", "kaiten_torpedoes")
    uk = CliRunner().invoke(cli, ["orders", "template", "--game", str(g), "--standing", "United Kingdom"]).stdout
    assert "  #   enigma: [{when_attacked:" in uk
    f = tmp_path / "uk.yaml"
    f.write_text(uk.replace("  #   enigma:", "  enigma:"))
    result = CliRunner().invoke(cli, ["validate", str(f), "--game", str(g)])
    assert result.exit_code == 0, result.output
    assert "Enigma Decoded" in uk
    japan = CliRunner().invoke(cli, ["orders", "template", "--game", str(g), "--standing", "Japan"]).stdout
    assert "enigma" not in japan
    plain = new(tmp_path / "plain", "revised")
    assert "enigma" not in CliRunner().invoke(cli, ["orders", "template", "--game", str(plain), "--standing", "United Kingdom"]).stdout


def test_revised_standing_templates_show_kaiten_and_the_nonaggression_choice_where_the_game_plays_them(tmp_path: Path) -> None:
    """Revised, Kaiten Torpedoes (Japan's standing `kaiten:`) and Nonaggression Treaty (the Soviet
    choice of territory, `choices:`) appear in the templates of the powers that have them, where the
    game's options turn them on; the choice's example validates with no warning."""
    g = new(tmp_path, "revised", "kaiten_torpedoes", "nonaggression_treaty")
    japan = CliRunner().invoke(cli, ["orders", "template", "--game", str(g), "--standing", "Japan"]).stdout
    assert "Kaiten Torpedoes" in japan and "{kaiten: 1}" in japan
    soviet = CliRunner().invoke(cli, ["orders", "template", "--game", str(g), "--standing", "Soviet Union"]).stdout
    assert "  #   choices: {nonaggression_treaty: [" in soviet and "kaiten" not in soviet
    f = tmp_path / "soviet.yaml"
    f.write_text(soviet.replace("  #   choices:", "  choices:"))
    result = CliRunner().invoke(cli, ["validate", str(f), "--game", str(g)])
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    plain = new(tmp_path / "plain", "revised")
    for power in ("Japan", "Soviet Union"):
        text = CliRunner().invoke(cli, ["orders", "template", "--game", str(plain), "--standing", power]).stdout
        assert "kaiten" not in text and "choices" not in text


def test_1940_shows_where_an_upgrade_is_placed(tmp_path: Path) -> None:
    """TripleA factory_upgrade: a purchase placed on the minor complex it raises; the United States'
    template names one of its own (the 1940 cases place it), and a power with no minor complex gets
    the placeholder."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "global-1940"))
    assert "# An upgrade is placed on the facility it raises: {TERRITORY: 1 major industrial complex upgrade}." in orders_template(g)
    us = replace(g.state(), turn_index=g.ruleset.turn_order.index("United States"))
    g.state = lambda: us  # type: ignore[method-assign]
    line = re.search(r"# An upgrade is placed on the facility it raises, e.g. (\{.*\})\.", orders_template(g))
    assert line and line.group(1) == "{Central United States: 1 major industrial complex upgrade}", line


def test_pacific_patrol_example_is_a_zone_with_no_enemy(tmp_path: Path) -> None:
    """Phase 6, Establish Combat Air Patrol: fighters may not fly "where enemies would cause combat".
    At the start the United States' first choice, Midway beside SZ 20, faces Japan's carriers there:
    the example names a clear zone instead."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "pacific-2001"))
    state = replace(g.state(), turn_index=g.ruleset.turn_order.index("United States"))
    assert state.units["SZ 20"].get("Japan")
    g.state = lambda: state  # type: ignore[method-assign]
    line = re.search(r"#   - \{units: \"1 fighter\", from: ([^,]+), to: ([^,]+), mission: cap\}", orders_template(g))
    assert line, orders_template(g)
    zone = line.group(2)
    assert not any(owner == "Japan" for owner in state.units.get(zone, {})), zone
    assert zone in g.ruleset.board.neighbours(line.group(1))


def test_the_template_says_what_the_rules_give_this_turn(tmp_path: Path) -> None:
    """Pacific, Phase 1, China: one infantry per Chinese territory with a value, placed in Szechwan with
    the United States' units; 1940 (TripleA's war production): the United States' mainland complexes
    grow once it is at war.  The player plans with both, so the template names them; none at peace."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "pacific-2001"))
    us = replace(g.state(), turn_index=g.ruleset.turn_order.index("United States"))
    g.state = lambda: us  # type: ignore[method-assign]
    assert re.search(r"# Given this turn by the rules: \d+ Chinese infantry in Szechwan: China's infantry", orders_template(g))
    g = Game(new(tmp_path / "g40", "global-1940"))
    us = replace(g.state(), turn_index=g.ruleset.turn_order.index("United States"))
    g.state = lambda: us  # type: ignore[method-assign]
    assert "Given this turn" not in orders_template(g)
    at_war = replace(us, pending={**us.pending, "war": sorted([*us.pending.get("war", []), ["Japan", "United States"]])})
    g.state = lambda: at_war  # type: ignore[method-assign]
    text = orders_template(g)
    for where in ("Central United States", "Eastern United States", "Western United States"):
        assert text.count(f"# Given this turn by the rules: 1 major industrial complex upgrade in {where}: The United States is at war") == 1, text


@pytest.mark.parametrize("ruleset", ["1942-2e", "revised", "pacific-2001", "global-1940", "global-1940-ams"])
def test_the_attack_example_is_real_and_validates_uncommented(tmp_path: Path, ruleset: str) -> None:
    """Control is kept by country (Pacific's India, 1940's UK Pacific), so the example's enemy
    territory is found through the countries of the powers at war with the mover; Pacific's Japan got
    the placeholder.  Uncommented, the example is a legal attack.  (Europe begins with the cash
    advance, which has no combat move.)"""
    game = new(tmp_path, ruleset)
    text = template(game)
    head = "\n".join(l for l in text.splitlines() if re.match(r"^(game|power|round):", l))
    move = re.search(r"#   - (\{units: \"1 [a-z ]+\", from: [^,]+, to: [^,}]+\})", text)
    assert move and "TERRITORY" not in move.group(1), text
    f = tmp_path / "orders.yaml"
    f.write_text(f"{head}\ncombat_move:\n  - {move.group(1)}\n")
    result = CliRunner().invoke(cli, ["validate", str(f), "--game", str(game)])
    assert result.exit_code == 0, result.output


def test_the_attack_example_moves_a_unit_that_attacks(tmp_path: Path) -> None:
    """Antiaircraft artillery "moves only in noncombat" (1942 Unit Profiles): first by name among a
    territory's units, it made the attack example an illegal order."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "1942-2e"))
    state = g.state()
    base = re.search(r"#   - \{units: \"1 [a-z ]+\", from: ([^,]+), to: ", orders_template(g)).group(1)  # type: ignore[union-attr]
    units = {**state.units, base: {**state.units[base], "Soviet Union": {**state.units[base]["Soviet Union"], "antiaircraft artillery": 1}}}
    g.state = lambda: replace(state, units=units)  # type: ignore[method-assign]
    move = re.search(r"#   - \{units: \"1 ([a-z ]+)\", from: ([^,]+), to: ", orders_template(g))
    assert move and move.group(2) == base and move.group(1) != "antiaircraft artillery", move


def test_1940_template_lists_the_united_kingdoms_damaged_facilities(tmp_path: Path) -> None:
    """1940: control is kept by country (UK Europe) and a base's damage by "Territory/facility";
    the United Kingdom's damaged complex and air base were left out of its repair line."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "global-1940"))
    state = g.state()
    uk = replace(state, turn_index=g.ruleset.turn_order.index("United Kingdom"),
                 damage={"United Kingdom": 3, "Scotland/air base": 2, "Germany": 4})
    g.state = lambda: uk  # type: ignore[method-assign]
    text = orders_template(g)
    assert "# Repair facility damage, 1 IPC a point: Scotland/air base 2, United Kingdom 3." in text, text
    assert "#   repair: {Scotland/air base: 2, United Kingdom: 3}" in text


def test_a_power_with_only_aircraft_by_the_enemy_gets_an_air_attack_example(tmp_path: Path) -> None:
    """Pacific's Great Britain, its armies far from Japan's, had a fighter in Kwangsi beside a
    Japanese army and got the placeholder 'ENEMY TERRITORY'.  Aircraft may attack an enemy army
    (they may not take an empty territory), so the example is a fighter on an occupied territory,
    and it validates uncommented."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "1942-2e"))
    state = g.state()
    air = {s: {o: ({u: n for u, n in c.items() if g.ruleset.units[u].domain == "air"} if o == "Soviet Union" else c)
               for o, c in by.items()} for s, by in state.units.items()}
    units = {s: {o: c for o, c in by.items() if c} for s, by in air.items()}
    g.state = lambda ref=None: replace(state, units=units)  # type: ignore[method-assign]
    text = orders_template(g)
    move = re.search(r"#   - (\{units: \"1 ([a-z ]+)\", from: ([^,]+), to: ([^,}]+)\})", text)
    assert move and move.group(2) == "fighter" and "TERRITORY" not in move.group(4), text
    assert any(n for o, c in units[move.group(4)].items() for n in c.values()), move.group(4)
    head = "\n".join(l for l in text.splitlines() if re.match(r"^(game|power|round):", l))
    g.check(f"{head}\ncombat_move:\n  - {move.group(1)}\n".encode(), "orders.yaml")


def test_a_power_with_only_warships_by_the_enemy_gets_a_sea_attack_example(tmp_path: Path) -> None:
    """Europe's Great Britain, its armies far from Germany's, had a fleet beside a German battleship
    and got the placeholder; the example is now its warship on the enemy fleet, and it validates."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "1942-2e"))
    state = g.state()
    units = {s: {o: c for o, c in by.items() if o != "Soviet Union"} for s, by in state.units.items()}
    units["SZ 4"] = {"Soviet Union": {"destroyer": 1}}
    units["SZ 3"] = {**units.get("SZ 3", {}), "Germany": {"destroyer": 1}}
    g.state = lambda ref=None: replace(state, units={s: by for s, by in units.items() if by})  # type: ignore[method-assign]
    text = orders_template(g)
    move = re.search(r"#   - (\{units: \"1 destroyer\", from: SZ 4, to: SZ 3\})", text)
    assert move, text
    assert "#   SZ 3: {order_of_loss: [destroyer], retreat: {to: SZ 4" in text
    head = "\n".join(l for l in text.splitlines() if re.match(r"^(game|power|round):", l))
    g.check(f"{head}\ncombat_move:\n  - {move.group(1)}\n".encode(), "orders.yaml")


def test_ams_airborne_example_reaches_an_enemy_two_spaces_from_the_base(tmp_path: Path) -> None:
    """AMS, Airborne Assault: the infantry "may attack hostile territories up to 2 spaces away"; a
    base with no enemy beside it (Southern Italy, mid-game) gave the placeholder 'ENEMY TERRITORY'
    rather than an enemy territory two spaces off."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "global-1940-ams"))
    state = g.state()
    base = re.search(r"#   - \{units: \"2 infantry\", from: ([^,]+), to: ", orders_template(g)).group(1)  # type: ignore[union-attr]
    board = g.ruleset.board
    control = {**state.control, **{t: "Germany" for t in board.neighbours(base) if board.spaces[t].is_land and t in state.control}}
    g.state = lambda ref=None: replace(state, control=control)  # type: ignore[method-assign]
    line = re.search(r"#   - \{units: \"2 infantry\", from: ([^,]+), to: ([^,]+), mission: airborne\}", orders_template(g))
    assert line and line.group(1) == base, line
    target = line.group(2)
    assert target not in board.neighbours(base) and any(target in board.neighbours(t) for t in board.neighbours(base)), target
    assert g.ruleset.side_of(g.ruleset.power_name(control[target])) != "Axis", control[target]


def test_pacific_cap_landing_example_names_a_real_landing(tmp_path: Path) -> None:
    """Pacific, Phase 2: fighters on combat air patrol land "to the sea zone or any friendly carrier,
    island or island group that is within the sea zone" or next to it; the example named the
    placeholder TERRITORY.  It now names the first friendly territory beside the zone, and validates."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "pacific-2001"))
    state = g.state()
    units = {**state.units, "SZ 36": {**state.units.get("SZ 36", {}), "Japan": {**state.units.get("SZ 36", {}).get("Japan", {}), "fighter": 1}}}
    g.state = lambda ref=None: replace(state, units=units, pending={**state.pending, "cap": {"SZ 36": {"Japan": 1}}})  # type: ignore[method-assign]
    text = orders_template(g)
    line = re.search(r"#   (cap_landing: \{SZ 36: ([^}]+)\})", text)
    assert line and line.group(2) in ("Japan", "Korea"), text
    head = "\n".join(l for l in text.splitlines() if re.match(r"^(game|power|round):", l))
    g.check(f"{head}\n{line.group(1)}\n".encode(), "orders.yaml")


def test_ams_airborne_example_prefers_a_base_with_an_enemy_in_reach(tmp_path: Path) -> None:
    """The United Kingdom's first base by name, India, has no enemy at war within two spaces at the
    start; the example took it, with the placeholder, though its base in the United Kingdom has
    German-held Holland Belgium in reach."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "global-1940-ams"))
    state = g.state()
    uk = [p.name for p in g.ruleset.powers].index("United Kingdom")
    g.state = lambda ref=None: replace(state, turn_index=uk)  # type: ignore[method-assign]
    line = re.search(r"#   - \{units: \"\d infantry\", from: ([^,]+), to: ([^,]+), mission: airborne\}", orders_template(g))
    assert line and line.groups() == ("United Kingdom", "Holland Belgium"), line


def test_1940_upgrade_example_is_a_facility_that_may_be_raised(tmp_path: Path) -> None:
    """An upgrade "must still meet build restrictions for the higher level facility" (AMS guide): a
    major complex goes in an original territory worth 3 or more.  ANZAC's only minor complex is in
    New South Wales, worth 2; the example named it, an order the validator refuses."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "global-1940"))
    state = g.state()
    anzac = [p.name for p in g.ruleset.powers].index("ANZAC")
    g.state = lambda ref=None: replace(state, turn_index=anzac)  # type: ignore[method-assign]
    text = orders_template(g)
    assert "{New South Wales: 1 major industrial complex upgrade}" not in text
    assert "none of ANZAC's facilities stands where the higher one may be built now" in text


def test_the_template_says_a_power_without_its_capital_buys_nothing(tmp_path: Path) -> None:
    """1942 Second Edition, Capturing an Enemy Capital: a power whose capital is held by the enemy
    "can't purchase new units"; the template offered the unit costs and an empty purchase without a
    word (1940's France, Paris taken)."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "1942-2e"))
    state = g.state()
    assert "cannot buy while" not in orders_template(g)
    g.state = lambda ref=None: replace(state, control={**state.control, "Russia": "Germany"})  # type: ignore[method-assign]
    assert "# Soviet Union cannot buy while its capital is in enemy hands (Russia)." in orders_template(g)


def test_1940_china_is_offered_only_what_it_may_buy(tmp_path: Path) -> None:
    """China "builds only infantry, plus 1 artillery per turn while the Burma Road is open" (P10,
    restated by the AMS guide); its template listed battleships and complexes at their prices."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "global-1940"))
    state = g.state()
    china = [p.name for p in g.ruleset.powers].index("China")
    g.state = lambda ref=None: replace(state, turn_index=china)  # type: ignore[method-assign]
    costs = next(l for l in orders_template(g).splitlines() if l.startswith("# Unit costs:"))
    assert costs == "# Unit costs: infantry 3, artillery 4 (at most 1 this turn)", costs
    assert "upgrade" not in orders_template(g)
    g.state = lambda ref=None: replace(state, turn_index=china, control={**state.control, "Burma": "Japan"})  # type: ignore[method-assign]
    costs = next(l for l in orders_template(g).splitlines() if l.startswith("# Unit costs:"))
    assert costs == "# Unit costs: infantry 3", costs


def test_ams_airborne_example_reaches_three_spaces_from_an_air_base(tmp_path: Path) -> None:
    """AMS, Airborne Assault: the reach is 2 spaces, "3 from an air base" (the template's own line
    says so); Western Germany has an air base, so with no enemy within two spaces the example names
    one three spaces away."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "global-1940-ams"))
    state = g.state()
    board = g.ruleset.board
    assert state.units["Western Germany"]["Germany"].get("air base")
    ring = {"Western Germany"}
    for _ in range(2):
        ring |= {t for s in ring for t in board.neighbours(s)}
    control = {**state.control, **{t: "Germany" for t in ring if board.spaces[t].is_land and t in state.control}}
    g.state = lambda ref=None: replace(state, control=control)  # type: ignore[method-assign]
    line = re.search(r"#   - \{units: \"2 infantry\", from: Western Germany, to: ([^,]+), mission: airborne\}", orders_template(g))
    assert line and line.group(1) not in ring and line.group(1) != "ENEMY TERRITORY", line


def test_ams_rockets_are_told_as_air_bases_fire_them(tmp_path: Path) -> None:
    """AMS Tech Chart 1, 2. Rockets: "Each operational airbase may launch one rocket at an enemy
    facility up to 4 spaces away ... airstrip ... up to 3 spaces and roll one die. No rockets may be
    launched over neutral territory" - not the box's antiaircraft guns at complexes."""
    from dataclasses import replace

    from pbem.cli.template import orders_template

    g = Game(new(tmp_path, "global-1940-ams"))
    state = g.state()
    g.state = lambda ref=None: replace(state, developments={**state.developments, "Germany": ("rockets",)})  # type: ignore[method-assign]
    text = orders_template(g)
    line = next(l for l in text.splitlines() if l.startswith("# Rocket strikes"))
    assert "never over a neutral" in line and "an air base 4 spaces (2 dice, the best), an air strip 3 spaces (1 die)" in line and "AA GUN" not in text, line


def test_the_commands_the_template_names_carry_the_game_it_was_made_for(tmp_path: Path) -> None:
    """`pbem orders template --game DIR > my-orders.yaml`, then the file's own advice, `pbem validate
    FILE`, run where the player stands: it names `--game DIR`, or it would fail outside the game."""
    game_dir = new(tmp_path, "1942-2e")
    text = CliRunner().invoke(cli, ["orders", "template", "--game", str(game_dir)]).output
    assert f"`pbem validate FILE --game {game_dir}`" in text and f"`pbem submit FILE --game {game_dir}`" in text
    text = CliRunner().invoke(cli, ["orders", "template", "--standing", "Germany", "--game", str(game_dir)]).output
    assert f"`pbem validate FILE --game {game_dir}`" in text
