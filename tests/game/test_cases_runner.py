"""The rule-case runner itself: failures say why, mistakes in case files are located, dice are
checked both ways, and `pbem case run` prints a line per case and the count (issue 13)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.cases import run_paths

CASE = """\
ruleset: 1942-2e
cases:
  - name: {name}
    section: "Land combat"
    state:
      power: Germany
      clear: [Karelia S.S.R.]
      units: {{Karelia S.S.R.: {{Soviet Union: 1 infantry}}}}
    orders:
      combat_move:
        - {{units: 1 infantry, from: Finland, to: Karelia S.S.R.}}
    dice: {dice}
    expect: {expect}
"""


def write(tmp_path: Path, name: str = "infantry beats infantry", dice: str = "", expect: str = "") -> Path:
    path = tmp_path / "case.yaml"
    dice = dice or '{"battle/Karelia S.S.R./round-1/attacker": [1], "battle/Karelia S.S.R./round-1/defender": [6]}'
    expect = expect or "{control: {Karelia S.S.R.: Germany}}"
    path.write_text(CASE.format(name=name, dice=dice, expect=expect))
    return path


def lines(path: Path) -> list[str]:
    return [r.line() for r in run_paths([path])]


def test_a_passing_case(tmp_path: Path) -> None:
    assert lines(write(tmp_path)) == [f"PASS {tmp_path / 'case.yaml'}::infantry beats infantry"]


def test_a_wrong_expectation_fails_and_says_what_happened(tmp_path: Path) -> None:
    (line,) = lines(write(tmp_path, expect="{control: {Karelia S.S.R.: Soviet Union}}"))
    assert line.startswith("FAIL") and "Karelia S.S.R. is held by Germany, expected Soviet Union" in line


def test_dice_the_turn_rolls_but_the_case_does_not_give_fail_naming_the_label(tmp_path: Path) -> None:
    (line,) = lines(write(tmp_path, dice='{"battle/Karelia S.S.R./round-1/attacker": [1]}'))
    assert "battle/Karelia S.S.R./round-1/defender" in line and line.startswith("FAIL")


def test_dice_given_but_not_rolled_fail_unless_optional(tmp_path: Path) -> None:
    extra = ('{"battle/Karelia S.S.R./round-1/attacker": [1], "battle/Karelia S.S.R./round-1/defender": [6], '
             '"battle/Karelia S.S.R./round-2/attacker": [3]}')
    (line,) = lines(write(tmp_path, dice=extra))
    assert "dice given but not rolled: battle/Karelia S.S.R./round-2/attacker [3]" in line
    path = write(tmp_path, dice=extra.replace('"battle/Karelia S.S.R./round-2/attacker": [3]', '"x": [1]'))
    text = path.read_text().replace('"x": [1]}', '}\n    optional_dice: {"battle/Karelia S.S.R./round-2/attacker": [3]}')
    path.write_text(text.replace(', }', '}'))
    assert lines(path)[0].startswith("PASS"), lines(path)


def test_mistakes_in_a_case_file_are_located_failures(tmp_path: Path) -> None:
    (line,) = lines(write(tmp_path, expect="{control: {Atlantis: Germany}}"))
    assert f"{tmp_path / 'case.yaml'}:" in line and "unknown territory or sea zone 'Atlantis'" in line
    bad = tmp_path / "bad.yaml"
    bad.write_text("cases:\n  - name: x\n    expect: {}\n")
    (line,) = lines(bad)
    assert line.startswith(f"FAIL {bad}") and "section" in line
    (tmp_path / "broken.yaml").write_text("cases: [\n")
    assert lines(tmp_path / "broken.yaml")[0].startswith("FAIL")


def test_the_command_prints_a_line_per_case_and_the_count(tmp_path: Path) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    write(folder)
    (folder / "case.yaml").rename(folder / "a.yaml")
    write(folder, name="wrong", expect="{control: {Karelia S.S.R.: Soviet Union}}")
    result = CliRunner().invoke(cli, ["case", "run", str(folder)])
    assert result.exit_code == 1
    out = result.output.splitlines()
    assert out[0].startswith("PASS") and out[1].startswith("FAIL") and out[-1] == "1 passed, 1 failed"
    listed = CliRunner().invoke(cli, ["case", "list", str(folder)])
    assert listed.exit_code == 0 and listed.output.startswith("Land combat\t")

    # a file that cannot be read lists nothing: `case list` says so and fails, as `case run` does
    (folder / "broken.yaml").write_text("ruleset: 1942-2e\ncases:\n  - name: y\n    state: {power: Germany}\n")
    listed = CliRunner().invoke(cli, ["case", "list", str(folder)])
    assert listed.exit_code == 1 and "'section' is missing" in listed.output


def test_orders_refused_as_expected(tmp_path: Path) -> None:
    path = tmp_path / "refused.yaml"
    path.write_text(textwrap.dedent("""\
        ruleset: 1942-2e
        cases:
          - name: moving where no battle is
            section: "Combat Move: every combat move must end in combat"
            state: {power: Soviet Union}
            orders:
              combat_move:
                - {units: 1 infantry, from: Russia, to: Caucasus}
            expect:
              problems: [move.not-combat]
        """))
    assert lines(path)[0].startswith("PASS")


def test_the_readme_example_case_passes(tmp_path: Path) -> None:
    """The README's example of the case format is a real, passing case."""
    import re

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = re.search(r"## Rule cases.*?```yaml\n(.*?)```", readme, re.S)
    assert block
    path = tmp_path / "readme.yaml"
    path.write_text(block.group(1))
    assert [r.line() for r in run_paths([path])] == [f"PASS {path}::a bombing raid is capped at twice the territory's value"]


def test_units_may_be_a_list_and_an_empty_entry_means_none(tmp_path: Path) -> None:
    """A case writes units as orders do, and also as a YAML list ([2 infantry, tank]); a power
    given no units at all (`Soviet Union:`) has none."""
    path = tmp_path / "case.yaml"
    path.write_text(CASE.format(name="listed", dice='{"battle/Karelia S.S.R./round-1/attacker": [1, 6], '
                                                   '"battle/Karelia S.S.R./round-1/defender": [6]}',
                                expect="{units: {Karelia S.S.R.: {Germany: [2 infantry], Soviet Union: }}}")
                    .replace("units: {Karelia S.S.R.: {Soviet Union: 1 infantry}}",
                             "units: {Karelia S.S.R.: {Soviet Union: [infantry]}, Finland: {Germany: [2 infantry]}}")
                    .replace("{units: 1 infantry, from: Finland", "{units: [2 infantry], from: Finland"))
    assert lines(path) == [f"PASS {path}::listed"]


def test_orders_valid_when_submitted_but_refused_after_the_dice_say_so(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A check the dice can change (a battle gone, a retreat zone left hostile) must not refuse a
    validated turn: a case that shows one says it was refused at adjudication, not "refused"."""
    import pbem.game.cases as cases
    from pbem.engine.problems import Problem

    real = cases.run_turn

    def refusing(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = real(*args, **kwargs)
        if args[7] is not None:  # adjudicating, with dice
            result.problems.append(Problem("illegal", "a check the dice changed", code="x.dice"))
        return result
    monkeypatch.setattr(cases, "run_turn", refusing)
    (line,) = lines(write(tmp_path))
    assert line.startswith("FAIL") and "valid when submitted, were refused at adjudication: x.dice" in line, line


def test_a_power_of_two_economies_named_as_a_country_says_which_to_write(tmp_path: Path) -> None:
    """1940 Global, UK Global: "One power with two economies" - control and treasury are kept by
    country, so a case naming the power where a country belongs is told the two names."""
    path = tmp_path / "case.yaml"
    path.write_text("ruleset: global-1940\ncases:\n  - name: by country\n    section: UK Global (P34)\n"
                    "    state: {power: Germany, control: {Egypt: United Kingdom}}\n    expect: {}\n")
    (line,) = lines(path)
    assert line.startswith("FAIL") and "United Kingdom keeps control and treasury by country: write UK Europe or UK Pacific" in line
