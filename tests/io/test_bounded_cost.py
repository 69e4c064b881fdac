"""Bounded cost for any input (issue 12): however large or hostile a file, reading it costs at most
the size limit, lists a bounded number of problems, and echoes nothing at length."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.engine.problems import ProblemsError
from pbem.io.orders import LISTED_PROBLEMS, read_orders_text
from pbem.io.rulesets import load_ruleset
from pbem.io.yamlfile import DEFAULT_MAX_BYTES, read_user_file

HEAD = "game: demo\npower: Soviet Union\nround: 1\n"


def problems(text: str) -> list:
    with pytest.raises(ProblemsError) as caught:
        read_orders_text(text, "orders.yaml", load_ruleset("1942-2e"))
    return caught.value.problems


def test_fifty_thousand_unknown_names_list_a_bounded_number_of_problems() -> None:
    """Each suggestion is a search; they are made for the first few dozen problems, and past a
    hundred the rest are counted in one closing line."""
    body = HEAD + "purchase:\n" + "".join(f"  unit{i:05d}x: 1\n" for i in range(50_000))
    found = problems(body)
    assert len(found) == LISTED_PROBLEMS + 1
    assert found[-1].code == "problems.unlisted" and "49,900 more problems" in found[-1].message
    assert all(p.line for p in found[:-1])
    assert not found[LISTED_PROBLEMS - 1].hint  # no suggestion searched that far in


def test_fifty_thousand_unknown_keys_are_counted_too() -> None:
    found = problems(HEAD + "".join(f"key{i:05d}: 1\n" for i in range(50_000)))
    assert len(found) == 101 and "49,900 more problems" in found[-1].message


def test_a_huge_name_is_not_echoed_whole() -> None:
    found = problems(HEAD + 'purchase: "1 ' + "y" * 100_000 + '"\n')
    assert len(found[0].message) < 200 and "(100,000 characters)" in found[0].message


def test_a_huge_number_is_refused_with_its_place() -> None:
    found = problems(HEAD.replace("round: 1", "round: " + "9" * 5000))
    assert found[0].code == "yaml.number" and (found[0].line, found[0].column) == (3, 8)
    assert len(found[0].message) < 200


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(100 * DEFAULT_MAX_BYTES)  # a sparse 100 MB file: reading it would show
    with pytest.raises(ProblemsError) as caught:
        read_user_file(big)
    assert "104,857,600 bytes" in caught.value.problems[0].message


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_file_that_never_ends_is_read_only_up_to_the_limit() -> None:
    with pytest.raises(ProblemsError) as caught:
        read_user_file("/dev/zero")
    assert caught.value.problems[0].code == "yaml.too-large"


def test_a_file_at_the_limit_is_read(tmp_path: Path) -> None:
    f = tmp_path / "ok.yaml"
    f.write_bytes(b"a: 1\n")
    assert read_user_file(f) == b"a: 1\n"


def test_standing_orders_for_a_neutral_territory_are_refused() -> None:
    """1942 Second Edition, Neutral Territories: they cannot be entered, so no battle is fought
    there and standing orders for one can only be a mistake."""
    found = problems("power: Soviet Union\nstanding_orders:\n  territories:\n    Afghanistan: {order_of_loss: [infantry]}\n")
    assert found[0].code == "standing.neutral" and found[0].line == 4


def test_thousands_of_refused_moves_are_listed_to_a_bound_and_counted(tmp_path: Path) -> None:
    """The turn's own checks too: every bad move is found (the count is exact), a hundred are listed,
    and finding them stays linear in the number of moves (no pairwise comparison of problems)."""
    from pbem.game.game import Game, new_game

    new_game(tmp_path / "g", "1942-2e", {}, game_id="demo", dice_mode="local")
    moves = "".join('  - {units: "1 infantry", from: Russia, to: Russia}\n' for _ in range(3000))
    text = HEAD + "combat_move:\n" + moves
    with pytest.raises(ProblemsError) as caught:
        Game(tmp_path / "g").check(text, "orders.yaml")
    found = caught.value.problems
    assert len(found) == LISTED_PROBLEMS + 1
    assert found[-1].code == "problems.unlisted" and "2,900 more problems" in found[-1].message
    assert all(p.code == "move.not-combat" and p.line for p in found[:-1])


def test_a_wrong_unit_in_liberation_units_is_refused_at_its_line() -> None:
    """AMS standing orders: it was read after the check, so a typo was silently dropped."""
    from pbem.io.orders import read_orders_text as read

    text = "game: demo\npower: France\nstanding_orders:\n  liberation_units: {xyzzy: 1, infantry: 1}\n"
    with pytest.raises(ProblemsError) as caught:
        read(text, "standing.yaml", load_ruleset("global-1940-ams"))
    found = caught.value.problems
    assert [(p.line, p.message) for p in found] == [(4, "unknown unit 'xyzzy'")]
