"""The error text of typical mistakes: file:line:column, the rule broken and what would be right."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("g") / "demo"
    result = CliRunner().invoke(cli, ["new", str(target), "--id", "demo", "--dice", "local"])
    assert result.exit_code == 0, result.output
    return target


def check(game: Path, tmp_path: Path, body: str) -> str:
    file = tmp_path / "orders.yaml"
    file.write_text(textwrap.dedent(body))
    result = CliRunner().invoke(cli, ["validate", str(file), "--game", str(game)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.output


HEAD = "game: demo\npower: Soviet Union\nround: 1\n"

CASES = [
    # (orders body, expected fragments)
    # issue 14: words players use, and values written the way people write them
    (HEAD + "research: {development: Jet Fighters, dice: 1}\n", ["orders.yaml:4:1", "unknown key 'research'", "did you mean 'develop'"]),
    (HEAD + "noncombat_move:\n", ["orders.yaml:4:", "noncombat_move has no value", "write noncombat_move: [] for none"]),
    (HEAD + "purchase: {infantry: \"8\"}\n", ["orders.yaml:4:22", "'8' is text, not a number", "write 8 without quotes"]),
    ("game: demo\npower: Soviet Union\nround: 1\npurchase: 9 infantry\n", ["orders.yaml:4:", "costs 27 IPCs", "Purchase Units"]),
    (HEAD + "purchase: 2 tanx\n", ["orders.yaml:4:11", "unknown unit 'tanx'", "did you mean 'tank'"]),
    (HEAD + "combat_move:\n  - {units: 1 infantry, from: Russia, to: Ukraine S.S.R}\n",
     ["orders.yaml:5:", "is 2 spaces", "movement left", "the shortest way: Russia - "]),
    (HEAD + "combat_move:\n  - {units: 2 tank, from: Russia, to: Germany}\n", ["takes", "movement", "orders.yaml:5:"]),
    (HEAD + "combat_move:\n  - {units: 5 fighter, from: Russia, to: West Russia}\n", ["has 1 fighter in Russia, not 5"]),
    (HEAD + "combat_move:\n  - {units: 1 infantry, from: Russia, to: Archangel}\n", ["starts no combat", "Combat Move: every combat move must end in combat"]),
    (HEAD + "combat_move:\n  - {units: 1 infantry, from: Caucasus, to: Turkey}\n", ["impassable neutral"]),
    (HEAD + "purchase: 1 infantry\nplace:\n  Archangel: 1 infantry\n", ["no industrial complex in Archangel", "Mobilize New Units"]),
    (HEAD + "purchase: 1 infantry\nplace:\n  Russia: 2 infantry\n", ["only 1 more were bought"]),
    (HEAD + "purchase: 1 submarine\nplace:\n  SZ 2: 1 submarine\n",
     ["SZ 2 is not next to an industrial complex", "sea zones next to such a complex: SZ 4"]),
    (HEAD + "purchase: 1 infantry\nunits: 3\n", ["unknown key 'units'", "orders.yaml:5:1"]),
    # an order of loss unbracketed inside { }: its comma starts a new key
    (HEAD + "combat_move:\n  - {units: 3 infantry, from: Russia, to: West Russia}\nbattles:\n  West Russia: {order_of_loss: infantry, artillery}\n",
     ["orders.yaml:7:42", "unknown key 'artillery'", "a list goes in brackets", "order_of_loss: [..., artillery]"]),
    # values shown as YAML writes them: true, not Python's True
    (HEAD + "purchase: {infantry: true}\n", ["orders.yaml:4:22", "infantry is true, which is not a whole number"]),
    # a list of units unquoted inside { }: its comma starts a new key
    (HEAD + "combat_move:\n  - {units: 1 infantry, 1 tank, from: Russia, to: West Russia}\n",
     ["orders.yaml:5:25", "unknown key '1 tank'", "quote a list of units", 'units: "..., 1 tank"']),
    (HEAD + "purchase: {infantry: 1}\npurchase: {tank: 1}\n", ["duplicate", "orders.yaml:5"]),
    ("game: demo\npower: Germany\nround: 1\n", ["it is Soviet Union's turn"]),
    (HEAD + "combat_move: [ {units: 1 infantry, from: Russia\n", ["orders.yaml:5:1", "malformed"]),
    (HEAD + "noncombat_move:\n  - {units: 1 antiaircraft artillery, from: Russia, to: Sahara}\n", ["impassable neutral"]),
    (HEAD + "combat_move:\n  - {units: 1 aaa, from: Russia, to: West Russia}\n", ["antiaircraft artillery cannot move in combat move"]),
    (HEAD + "purchase: 1 infantry\nplace:\n  SZ 4: 1 infantry\n", ["only sea units"]),
    (HEAD + "combat_move:\n  - {units: 1 infantry, from: Rusia, to: West Russia}\n", ["unknown territory or sea zone 'Rusia'", "did you mean 'Russia'"]),
    (HEAD + "combat_move:\n  - {units: 3 infantry, from: Karelia S.S.R., to: West Russia}\nbattles:\n  West Russia: {call_off: sometimes}\n",
     ["orders.yaml:7:", "cannot read the call-off condition 'sometimes'", "when landing < N"]),
]


@pytest.mark.parametrize("body, fragments", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_typical_mistakes(game: Path, tmp_path: Path, body: str, fragments: list[str]) -> None:
    """Each error names the file, line and column, the rule (with the rulebook section) and a fix."""
    output = check(game, tmp_path, body)
    for fragment in fragments:
        assert fragment in output, output


def test_all_errors_reported_at_once(game: Path, tmp_path: Path) -> None:
    output = check(game, tmp_path, HEAD + "purchase: 2 tanx\ncombat_move:\n  - {units: 1 infantry, from: Rusia, to: Moskow}\n")
    assert "tanx" in output and "Rusia" in output and "Moskow" in output
    assert "3 problems found" in output


def test_alias_bomb_refused(game: Path, tmp_path: Path) -> None:
    output = check(game, tmp_path, HEAD + 'a: &a ["x","x"]\nb: [*a,*a]\n')
    assert "alias" in output.lower()


def test_validate_json_lists_problems_for_machines(game: Path, tmp_path: Path) -> None:
    import json

    file = tmp_path / "orders.yaml"
    file.write_text(HEAD + "purchase: 2 tanx\n")
    result = CliRunner().invoke(cli, ["validate", str(file), "--game", str(game), "--json"])
    assert result.exit_code == 2
    data = json.loads(result.output)
    assert data["valid"] is False and data["problems"][0]["line"] == 4 and data["problems"][0]["code"] == "name.unknown-unit"


def test_placement_errors_reported_with_combat_move_errors(game: Path, tmp_path: Path) -> None:
    """All errors at once: a wrong combat move does not hide a wrong placement."""
    output = check(game, tmp_path, HEAD + "purchase: 1 infantry\ncombat_move:\n  - {units: 1 infantry, from: Russia, to: Archangel}\n"
                   "place:\n  Archangel: 1 infantry\n")
    assert "starts no combat" in output and "no industrial complex in Archangel" in output


def test_every_problem_is_reported_in_one_run(game: Path, tmp_path: Path) -> None:
    """A wrong name no longer hides the purchase check, and a refused combat move no longer hides
    the noncombat moves (README: "every problem is reported at once"; issue 14)."""
    out = check(game, tmp_path, HEAD + textwrap.dedent("""\
        purchase: {infantry: 20}
        combat_move:
          - {units: 1 infantry, from: Russia, to: Caucasusx}
        noncombat_move:
          - {units: 1 tank, from: Archangel, to: Russia}
        """))
    assert "orders.yaml:4:" in out and "costs 60 IPCs" in out
    assert "orders.yaml:6:" in out and "unknown territory or sea zone 'Caucasusx'" in out
    assert out.index("costs 60 IPCs") < out.index("Caucasusx")  # in file order


def test_noncombat_moves_are_checked_after_a_refused_combat_move(game: Path, tmp_path: Path) -> None:
    out = check(game, tmp_path, HEAD + textwrap.dedent("""\
        combat_move:
          - {units: 1 infantry, from: Russia, to: Caucasus}
        noncombat_move:
          - {units: 9 infantry, from: Kazakh S.S.R., to: Novosibirsk}
        """))
    assert "starts no combat" in out
    assert "has 1 infantry in Kazakh S.S.R., not 9" in out


def test_a_refused_move_does_not_make_the_moves_after_it_fail_too(game: Path, tmp_path: Path) -> None:
    """The second move only fails because the first (refused) one did not bring its units: it is
    not reported, though the first is (issue 14: no errors pointing at correct lines)."""
    out = check(game, tmp_path, HEAD + textwrap.dedent("""\
        combat_move:
          - {units: 9 infantry, from: Karelia S.S.R., to: West Russia}
        noncombat_move:
          - {units: 9 infantry, from: West Russia, to: Russia}
        """))
    assert "has 4 infantry in Karelia S.S.R., not 9" in out
    assert "in West Russia, not 9" not in out
    assert "1 problem found" in out


def test_a_move_with_a_wrong_name_does_not_make_the_moves_after_it_fail_too(game: Path, tmp_path: Path) -> None:
    out = check(game, tmp_path, HEAD + textwrap.dedent("""\
        combat_move:
          - {units: 3 infantry, from: Karelia S.S.R., to: West Russiaa}
        noncombat_move:
          - {units: 3 infantry, from: West Russia, to: Russia}
          - {units: 9 tank, from: Archangel, to: Russia}
        """))
    assert "unknown territory or sea zone 'West Russiaa'" in out
    assert "in West Russia, not 3" not in out
    assert "has 1 tank in Archangel, not 9" in out  # a move of its own, checked as ever


def test_a_format_fault_does_not_hide_the_rule_checks_of_the_rest(game: Path, tmp_path: Path) -> None:
    """A key the file format does not know (here a misspelt `mission`) leaves out its own move
    only: the other moves are still checked against the rules, and a move that only fails because
    the left-out one did not bring its units is not reported (README: "every problem is reported
    at once")."""
    out = check(game, tmp_path, HEAD + textwrap.dedent("""\
        combat_move:
          - {units: 3 infantry, from: Karelia S.S.R., to: West Russia, missin: x}
          - {units: 9 infantry, from: Caucasus, to: Ukraine S.S.R.}
        noncombat_move:
          - {units: 3 infantry, from: West Russia, to: Russia}
        bogus: 1
        """))
    assert "orders.yaml:5:" in out and "unknown key 'missin'" in out
    assert "orders.yaml:6:" in out and "in Caucasus, not 9" in out
    assert "in West Russia, not 3" not in out
    assert "orders.yaml:9:" in out and "unknown key 'bogus'" in out
    assert "3 problems found" in out


def test_a_purchase_format_fault_leaves_the_placements_unchecked(game: Path, tmp_path: Path) -> None:
    """A purchase that cannot be read is not checked against the placements (they would all be
    "not bought"), but the moves still are."""
    out = check(game, tmp_path, HEAD + textwrap.dedent("""\
        purchase: {infantry: -2}
        combat_move:
          - {units: 9 infantry, from: Caucasus, to: Ukraine S.S.R.}
        place:
          Russia: 2 infantry
        """))
    assert "orders.yaml:4:" in out and "below the least allowed" in out
    assert "in Caucasus, not 9" in out
    assert "orders.yaml:8:" not in out
    assert "2 problems found" in out


def test_a_fault_in_power_or_round_stops_the_reading(game: Path, tmp_path: Path) -> None:
    """Without a power and round nothing else can be checked: the fault is told alone."""
    out = check(game, tmp_path, "game: demo\npower: Soviet Union\nround: one\n"
                "combat_move:\n  - {units: 9 infantry, from: Caucasus, to: Ukraine S.S.R.}\n")
    assert "round" in out and "Caucasus" not in out


def test_a_directive_that_can_never_take_effect_gets_a_warning(game: Path, tmp_path: Path) -> None:
    """Amphibious Assault (1942 Second Edition): attacking seaborne units cannot retreat. A retreat
    directive for an assault by seaborne land units alone is legal but idle: validation says so,
    with its line, and the orders are still valid (issue 13)."""
    from pbem.game.game import Game

    g = Game(game)
    state = g.state()
    from dataclasses import replace

    units = {s: {o: dict(t) for o, t in by.items()} for s, by in state.units.items() if s not in ("SZ 8", "France")}
    units["SZ 8"] = {"United Kingdom": {"transport": 1, "infantry": 2, "destroyer": 1}}
    units["France"] = {"Germany": {"infantry": 1}}
    from pbem.engine.turn import run_turn
    from pbem.io.orders import locate, read_orders_text

    text = HEAD.replace("Soviet Union", "United Kingdom") + textwrap.dedent("""\
        combat_move:
          - {units: 2 infantry, from: SZ 8, to: France}
        battles:
          France: {retreat: after round 1}
        """)
    doc, orders = read_orders_text(text, "orders.yaml", g.ruleset)
    uk = replace(state, turn_index=[p.name for p in g.ruleset.powers].index("United Kingdom"), units=units)
    result = run_turn(g.ruleset, g.rules, g.combat_rules, uk, orders, {}, g.config.options, None)
    assert result.problems == []
    (warning,) = locate(result.warnings, doc, "orders.yaml")
    assert warning.kind == "warning" and warning.line == 7
    assert "seaborne land units cannot retreat from an amphibious assault" in warning.message


def _refused(text: str, ruleset_id: str) -> list:
    """The problems reading these orders gives (they must be refused)."""
    from pbem.engine.problems import ProblemsError
    from pbem.io.orders import read_orders_text
    from pbem.io.rulesets import load_ruleset

    with pytest.raises(ProblemsError) as caught:
        read_orders_text(text, "o.yaml", load_ruleset(ruleset_id))
    return caught.value.problems


def test_a_per_country_purchase_of_a_power_of_one_economy_is_told_in_yaml_words() -> None:
    """Not Python's {'infantry': 2}: what the player wrote, and what to write instead."""
    (p,) = _refused("game: g\npower: Japan\nround: 1\npurchase: {India: {infantry: 2}}\n", "pacific-2001")
    assert p.message == "India is {infantry: 2}, which is not a whole number"
    assert "buys per country, which only a power of several countries does" in p.hint


def test_an_unknown_sea_zone_is_told_how_this_board_names_them() -> None:
    """Europe's sea zones are named, not numbered: the hint showed 'SZ 15', which does not exist there."""
    found = _refused('game: g\npower: Germany\nround: 1\ncombat_move:\n  - {units: 1 submarine, from: Baltic Sea, to: "Sea Zone Q"}\n',
                     "europe-1999")
    assert [p.hint for p in found] == ["sea zones are named as on the board, e.g. 'Adriatic Sea'"]


def test_a_refused_combat_move_does_not_make_its_battle_directive_fail_too(game: Path, tmp_path: Path) -> None:
    """The directive for the battle a refused move was to start is not a second problem: the move's
    own problem says why there is no battle (README: no errors pointing at correct lines)."""
    out = check(game, tmp_path, HEAD + textwrap.dedent("""\
        combat_move:
          - {units: 9 infantry, from: Karelia S.S.R., to: Belorussia}
        battles:
          Belorussia: {order_of_loss: [infantry]}
          Ukraine S.S.R.: {order_of_loss: [infantry]}
        """))
    assert "orders.yaml:5:" in out  # the move's own refusal
    assert "Belorussia, but no battle" not in out
    assert "Ukraine S.S.R., but no battle will be fought there" in out  # a directive with no move of its own still is


def test_standing_orders_with_an_unknown_key_still_have_their_names_checked(game: Path, tmp_path: Path) -> None:
    """A misspelt key in one territory's policy leaves that policy out; the wrong names elsewhere are
    told in the same run, in file order (README: "every problem is reported at once")."""
    file = tmp_path / "standing.yaml"
    file.write_text(textwrap.dedent("""\
        game: demo
        power: Germany
        standing_orders:
          default: {order_of_loss: [infantry, artilery]}
          territories:
            Germani: {hold_territory: true}
            Western Europe: {order_of_los: [infantry]}
        """))
    result = CliRunner().invoke(cli, ["validate", str(file), "--game", str(game)])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if "standing.yaml:" in line]
    assert [line.split("standing.yaml:")[1].split(":")[0] for line in lines] == ["4", "6", "7"]
    assert "unknown unit 'artilery'" in result.output and "'Germani'" in result.output and "unknown key 'order_of_los'" in result.output
