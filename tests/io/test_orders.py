"""Reading orders files: the words of battle directives."""

from __future__ import annotations

import pytest

from pbem.engine.orders import CallOff
from pbem.engine.problems import ProblemsError
from pbem.io.orders import read_call_off, read_orders_text
from pbem.io.rulesets import load_ruleset


@pytest.mark.parametrize("words, kind, value", [
    ("never", "never", 0),
    (False, "never", 0),
    ("always", "always", 0),
    (True, "always", 0),
    ("when landing < 3", "landing_at_most", 2),
    ("landing<=2", "landing_at_most", 2),
    ("when  land units  at most 1", "landing_at_most", 1),
    ("when landing < 0", "landing_at_most", 0),
    ("when defenders outnumber us", "defenders_outnumber", 0),
    ("Outnumbered", "defenders_outnumber", 0),
])
def test_call_off_words(words: object, kind: str, value: int) -> None:
    """Amphibious Assaults (Revised; Europe and Pacific, Note): the attacker may call off the landing;
    the directive's condition is written in words of the retreat conditions' kind."""
    got = read_call_off(words)
    assert isinstance(got, CallOff) and (got.kind, got.value) == (kind, value)


@pytest.mark.parametrize("words", ["sometimes", "when landing", "after round 1", "landing > 2"])
def test_call_off_words_not_understood(words: str) -> None:
    assert read_call_off(words) is None


@pytest.mark.parametrize("words, kind, value", [
    ("after round 2", "after_round", 2),
    ("when attackers < 3", "attackers_at_most", 2),
    ("when no land units left", "no_land_units", 0),
    ("no land units", "no_land_units", 0),
    ("when the last land unit is lost", "no_land_units", 0),
    ("land units < 1", "no_land_units", 0),
])
def test_retreat_words(words: str, kind: str, value: int) -> None:
    """General Combat, Step 6: the attacker's retreat condition; "when no land units left" is the
    Pacific rulebook's Amphibious Assault Example #1 ("Without a land unit to take Guam, Japan decides
    to retreat")."""
    from pbem.io.orders import parse_retreat_condition

    got = parse_retreat_condition(words)
    assert got is not None and (got.kind, got.value) == (kind, value)


@pytest.mark.parametrize("words", ["when land units < 2", "no units", "when no land"])
def test_retreat_words_not_understood(words: str) -> None:
    from pbem.io.orders import parse_retreat_condition

    assert parse_retreat_condition(words) is None


def test_a_scramble_from_an_inland_territory_says_it_has_no_sea_zone_beside_it() -> None:
    """Scramble (1940, E16): into an adjacent sea zone; an inland base has none, and the hint says
    so rather than listing nothing."""
    text = "power: Germany\nstanding_orders:\n  scramble:\n    - {from: Slovakia Hungary, zones: [SZ 112]}\n"
    with pytest.raises(ProblemsError) as caught:
        read_orders_text(text, "standing.yaml", load_ruleset("global-1940"))
    found = [p for p in caught.value.problems if p.code == "standing.scramble-zone"]
    assert found and found[0].hint == "sea zones next to it: none"


def test_units_written_as_a_list() -> None:
    """Units as a YAML list, one entry per kind, read as the text form; a bad entry is located."""
    ruleset = load_ruleset("1942-2e")
    _, orders = read_orders_text("power: Soviet Union\nround: 1\npurchase: [3 infantry, tank]\n", "o.yaml", ruleset)
    assert dict(orders.purchase) == {"infantry": 3, "tank": 1}
    with pytest.raises(ProblemsError) as err:
        read_orders_text("power: Soviet Union\nround: 1\npurchase: [3 infantry, 2 tnak]\n", "o.yaml", ruleset)
    (problem,) = err.value.problems
    assert "unknown unit 'tnak'" in problem.message and problem.line == 3
    # a power of several countries lists each country's purchase the same way (Pacific)
    _, orders = read_orders_text("power: Great Britain\nround: 1\npurchase: {India: [2 infantry], Australia: 1 tank}\n",
                                 "o.yaml", load_ruleset("pacific-2001"))
    assert dict(orders.purchase) == {"infantry": 2, "tank": 1}


def test_a_count_that_is_no_number_is_an_error_not_a_crash() -> None:
    """The standing orders fuzz found `liberation_units: {tank: [1]}` past a schema that let any
    mapping through, and a TypeError out of the reader.  The schema now holds every units value to
    one form, and the reader reports a bad count wherever a schema might still let one by."""
    from pbem.io.orders import _Reader
    from pbem.io.schemas import check

    reader = _Reader(load_ruleset("global-1940-ams"))
    assert reader.units({"tank": [1], "infantry": 2}, ("standing_orders", "liberation_units")) == {"infantry": 2}
    assert [p.code for p in reader.problems] == ["units.syntax"] and "not a number of units" in reader.problems[0].message
    problems = check("standing", {"power": "France", "standing_orders": {"liberation_units": {"tank": [1]}}})
    assert problems and "tank is [1]" in problems[0].message


def test_damage_first_reads_true_false_or_two_hit_units() -> None:
    """damage_first: a battle directive's or a policy's choice of which two-hit units take their
    first hit before any loss; a unit that takes one hit is refused with the ones that take two."""
    ruleset = load_ruleset("global-1940")
    _, standing = read_orders_text("power: United Kingdom\nstanding_orders:\n  default: {damage_first: [battleship]}\n"
                                   "  territories: {SZ 102: {damage_first: false}}\n", "s.yaml", ruleset)
    assert standing.policy_for("SZ 1").damage_first == ("battleship",)  # type: ignore[union-attr]
    assert standing.policy_for("SZ 102").damage_first is False  # type: ignore[union-attr]
    _, orders = read_orders_text("game: g\npower: Germany\nround: 1\nbattles: {SZ 110: {damage_first: false}}\n", "o.yaml", ruleset)
    assert orders.battles["SZ 110"].damage_first is False  # type: ignore[union-attr]
    with pytest.raises(ProblemsError) as err:
        read_orders_text("power: United Kingdom\nstanding_orders:\n  default: {damage_first: [destroyer]}\n", "s.yaml", ruleset)
    problem = err.value.problems[0]
    assert "destroyer takes one hit" in problem.message and "aircraft carrier, battleship" in problem.hint
    assert (problem.line, problem.column) == (3, 28)  # at "destroyer"


@pytest.mark.parametrize("text, line, column", [
    ("power: Soviet Union\nround: 1\nbattles:\n  Baltic States: {retreat: {to: Karelia S.S.R., when: after round 1}}\n"
     "  baltic states: {order_of_loss: [infantry]}\n", 5, 3),
    ("power: Soviet Union\nround: 1\nrepair: {Karelia S.S.R.: 1, karelia: 2}\n", 3, 29),
    ("power: Soviet Union\nstanding_orders:\n  territories:\n    Karelia S.S.R.: {order_of_loss: [infantry]}\n"
     "    karelia: {order_of_loss: [tank]}\n", 5, 5),
])
def test_one_space_keyed_twice_under_two_spellings_is_refused_at_the_second_key(text: str, line: int, column: int) -> None:
    """A space that keys a mapping, spelt two ways, would let the later entry silently replace the
    earlier one (a retreat lost), as a duplicate key would: the second is refused, at its key."""
    with pytest.raises(ProblemsError) as caught:
        read_orders_text(text, "o.yaml", load_ruleset("1942-2e"))
    (problem,) = [p for p in caught.value.problems if p.code == "orders.duplicate-space"]
    assert "Karelia S.S.R. is named twice" in problem.message or "Baltic States is named twice" in problem.message
    assert (problem.line, problem.column) == (line, column)


def test_units_bought_straight_under_purchase_by_a_power_of_two_economies_say_how_to_split_them() -> None:
    """1940's UK buys for UK Europe and UK Pacific apart: `purchase: {infantry: 6}` was refused as
    "purchase is 6, which is not text, a mapping ...", which does not say what to write."""
    with pytest.raises(ProblemsError) as err:
        read_orders_text("power: United Kingdom\nround: 1\npurchase: {infantry: 6}\n", "uk.yaml", load_ruleset("global-1940"))
    [problem] = err.value.problems
    assert problem.code == "purchase.by-country" and "buys for each of its countries (UK Europe, UK Pacific)" in problem.message
    # the player's own units, under the first country: no unit the player did not order
    assert problem.hint == "write purchase: {UK Europe: {infantry: 6}}, with what UK Pacific buys under its own name"
    assert (problem.line, problem.column) == (3, 11)


def test_the_split_purchase_hint_names_only_countries_that_buy_and_the_power_by_its_name() -> None:
    """Pacific's China has no IPCs, so the hint for the United States names the USA alone; a power
    written by an alias is named by its name."""
    with pytest.raises(ProblemsError) as err:
        read_orders_text("power: United States\nround: 1\npurchase: {fighter: 1}\n", "us.yaml", load_ruleset("pacific-2001"))
    assert [p.hint for p in err.value.problems] == ["write purchase: {USA: {fighter: 1}}"]
    with pytest.raises(ProblemsError) as err:
        read_orders_text("power: british\nround: 1\npurchase: {infantry: 6}\n", "uk.yaml", load_ruleset("global-1940"))
    assert err.value.problems[0].message.startswith("United Kingdom buys for each of its countries")
