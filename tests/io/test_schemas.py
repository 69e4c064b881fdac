"""Every JSON Schema we ship is itself valid (checked here once, not at every start-up)."""

from __future__ import annotations

import json

import jsonschema
import pytest

from pbem.io.schemas import schemas_dir

SCHEMAS = sorted(schemas_dir().glob("*.schema.json"))


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.name for p in SCHEMAS])
def test_schema_is_valid(path) -> None:  # type: ignore[no-untyped-def]
    schema = json.loads(path.read_text())
    jsonschema.validators.validator_for(schema).check_schema(schema)


def test_every_user_file_has_a_schema() -> None:
    names = {p.name for p in SCHEMAS}
    for needed in ("orders", "standing", "state", "game", "report", "units", "map", "setup", "ruleset"):
        assert f"{needed}.schema.json" in names
