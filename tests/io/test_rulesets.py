"""The ruleset loader: names, caching, schema and cross-file validation, the data hash, the helpers."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
import yaml

from pbem.engine.model import TAGS
from pbem.engine.problems import ProblemsError
from pbem.io.rulesets import (
    available_rulesets,
    load_ruleset,
    load_ruleset_dir,
    resolve_ruleset_id,
    ruleset_dir,
    schemas_dir,
)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A writable copy of the 1942 folder to break."""
    target = tmp_path / "aa1942_2e"
    shutil.copytree(
        ruleset_dir("1942-2e"),
        target,
        ignore=shutil.ignore_patterns("*.py", "__pycache__", "*.json"),
    )
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize(
    "name", ["1942-2e", "1942", "aa1942_2e", "AA1942_2E", "1942 2E", " 1942-2nd ", "A42"]
)
def test_aliases_resolve_to_one_cached_ruleset(name: str) -> None:
    assert resolve_ruleset_id(name) == "1942-2e"
    assert load_ruleset(name) is load_ruleset("1942-2e")


def test_unknown_ruleset() -> None:
    with pytest.raises(ProblemsError) as e:
        load_ruleset("1941")
    assert "unknown ruleset '1941'" in str(e.value) and "1942-2e" in e.value.problems[0].hint


def test_available_rulesets() -> None:
    assert available_rulesets() == ["1942-2e", "europe-1999", "global-1940", "global-1940-ams", "pacific-2001", "revised"]


def test_schemas_found_and_units_tags_match_the_model() -> None:
    """The JSON Schema's tag list must be the engine's, or data could use a tag no code reads."""
    d = schemas_dir()
    for name in ("ruleset", "units", "map", "setup"):
        assert (d / f"{name}.schema.json").is_file()
    schema = json.loads((d / "units.schema.json").read_text())
    tags = schema["properties"]["units"]["additionalProperties"]["properties"]["tags"]["items"][
        "enum"
    ]
    assert set(tags) == TAGS


def test_schema_rejects_a_broken_file_with_file_path_and_line(copy: Path) -> None:
    edit(copy / "units.yaml", "    cost: 4\n", "    cost: four\n")
    with pytest.raises(ProblemsError) as e:
        load_ruleset_dir(copy)
    (p,) = e.value.problems
    assert p.file == "aa1942_2e/units.yaml"
    assert p.path == ("units", "artillery", "cost")
    assert "'four' is not of type 'integer'" in p.message
    line = (copy / "units.yaml").read_text().splitlines()[p.line - 1]
    assert line.strip() == "cost: four"
    assert "aa1942_2e/units.yaml:" in str(e.value)


def test_unknown_field_and_yaml_syntax(copy: Path) -> None:
    edit(copy / "ruleset.yaml", "name: Axis", "nmae: Axis")
    edit(copy / "setup.yaml", "treasury:\n", "treasury: [\n")
    with pytest.raises(ProblemsError) as e:
        load_ruleset_dir(copy)
    by_file: dict[str, list] = {}
    for p in e.value.problems:
        by_file.setdefault(p.file, []).append(p)
    ruleset_messages = " | ".join(p.message for p in by_file["aa1942_2e/ruleset.yaml"])
    assert (
        "'nmae' was unexpected" in ruleset_messages
        and "'name' is a required property" in ruleset_messages
    )
    (syntax,) = by_file["aa1942_2e/setup.yaml"]
    opened = (copy / "setup.yaml").read_text().splitlines().index("treasury: [") + 1
    assert (
        syntax.code == "yaml.syntax"
        and syntax.line is not None
        and opened <= syntax.line <= opened + 3
    )


def test_cross_file_problems_are_all_reported(copy: Path) -> None:
    """Names must exist across files, adjacency must be mutual and the treasuries must agree."""
    edit(copy / "map.yaml", "      - Trans-Jordan  #", "      - Atlantis  #")
    edit(copy / "setup.yaml", "      infantry: 4\n", "      infantery: 4\n")
    edit(copy / "ruleset.yaml", "starting_treasury: 24", "starting_treasury: 25")
    with pytest.raises(ProblemsError) as e:
        load_ruleset_dir(copy)
    text = str(e.value)
    assert "adjacent space 'Atlantis' does not exist" in text
    assert (
        "Trans-Jordan lists Anglo-Egyptian Sudan as adjacent but Anglo-Egyptian Sudan does not list Trans-Jordan"
        in text
    )
    assert "unknown unit 'infantery'" in text
    assert "Soviet Union starts with 24 IPCs in setup.yaml but 25 in ruleset.yaml" in text


def test_power_alias_may_not_be_a_territory(copy: Path) -> None:
    """ "Russia" is a territory: as an alias of the Soviet Union it would make orders ambiguous."""
    edit(copy / "ruleset.yaml", "aliases: [Russians,", "aliases: [Russia, Russians,")
    with pytest.raises(ProblemsError, match="alias 'Russia' is also the name of a space"):
        load_ruleset_dir(copy)


def test_data_hash_is_of_the_data_not_the_bytes(copy: Path) -> None:
    original = load_ruleset("1942-2e").data_hash
    assert len(original) == 64 and int(original, 16) >= 0
    m = copy / "map.yaml"
    m.write_text(
        yaml.safe_dump(
            yaml.safe_load(m.read_text()), sort_keys=True, default_flow_style=True
        ).replace("\n", "\r\n")
    )
    assert load_ruleset_dir(copy).data_hash == original
    edit(copy / "units.yaml", "    cost: 4\n", "    cost: 5\n")
    assert load_ruleset_dir(copy).data_hash != original


def test_helpers() -> None:
    rs = load_ruleset("1942")
    assert rs.power("russians").name == rs.power("USSR").name == "Soviet Union"
    assert rs.power(" united   kingdom ").name == "United Kingdom"
    with pytest.raises(KeyError, match="no power 'Russia'"):
        rs.power("Russia")
    assert rs.side_of("US") == "Allies" and rs.side_of("Germans") == "Axis"
    assert rs.allies("Japan") == ("Germany",)
    assert rs.enemies("UK") == ("Germany", "Japan")
    assert rs.unit("Armour").name == rs.unit("TANK").name == "tank"
    assert rs.unit("aaGun").name == "antiaircraft artillery"
    with pytest.raises(KeyError):
        rs.unit("mech infantry")


def test_ruleset_is_immutable() -> None:
    rs = load_ruleset("1942-2e")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        rs.units["tank"] = rs.units["infantry"]  # type: ignore[index]
    with pytest.raises(TypeError):
        rs.setup.control["Germany"] = "Japan"  # type: ignore[index]


def test_duplicate_territory_is_refused(copy: Path) -> None:
    """A territory written twice would silently lose one of them; the loader refuses it."""
    edit(copy / "map.yaml", "  Alaska:\n", "  Algeria:\n")
    with pytest.raises(ProblemsError) as e:
        load_ruleset_dir(copy)
    assert any(p.file == "aa1942_2e/map.yaml" and "Algeria" in p.message for p in e.value.problems)


def test_the_ruleset_cache_is_keyed_by_the_libraries_that_validated_it(tmp_path, monkeypatch) -> None:
    """A cached validation says nothing about another jsonschema, PyYAML or Python: a change of
    any of them misses the cache (issue 21)."""
    import shutil

    from pbem.io import rulesets as r

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("PBEM_NO_CACHE", raising=False)
    folder = tmp_path / "aa1942_2e"
    shutil.copytree(r.ruleset_dir("1942-2e"), folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    here = r._environment()
    assert "jsonschema=" in here and "PyYAML=" in here and "python=" in here
    r.load_ruleset_dir(folder)
    cache = tmp_path / "cache" / "pbem" / "rulesets"
    assert len(list(cache.glob("*.json"))) == 1
    monkeypatch.setattr(r, "_environment", lambda: "python=(3, 99, 0);jsonschema=99.0;PyYAML=9.9;pure")
    r.load_ruleset_dir(folder)
    assert len(list(cache.glob("*.json"))) == 2


def test_city_groups_are_counted_after_one_power_or_held_for_a_round_not_both(tmp_path: Path) -> None:
    """1940 Global's victory is held "for a complete round of play" (checked after every turn); a
    ruleset naming a power to count after as well says two things, and is refused."""
    target = tmp_path / "global_1940"
    shutil.copytree(ruleset_dir("global-1940"), target, ignore=shutil.ignore_patterns("*.py", "__pycache__", "*.json"))
    edit(target / "ruleset.yaml", "  held_for_a_round: true\n", "  held_for_a_round: true\n  checked_after: France\n")
    with pytest.raises(ProblemsError, match="checked_after.*or held for a complete round.*one of the two"):
        load_ruleset_dir(target)
