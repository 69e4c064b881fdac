"""The 1940 Global data converted so far (issue 17, in progress): the import reproduces the
committed files, and the opening treasuries are the guide's starting IPCs."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbem.io.triplea import import_triplea

REPO = Path(__file__).resolve().parents[2]
XML = REPO.parent / "shared" / "data" / "triplea" / "global_1940" / "ww2global40_2nd_edition.xml"
COMMITTED = REPO / "pbem" / "rulesets" / "global_1940"


@pytest.mark.skipif(not XML.is_file(), reason="shared TripleA data not present")
@pytest.mark.parametrize("name", ["map.yaml", "setup.yaml"])
def test_import_reproduces_committed_file(tmp_path: Path, name: str) -> None:
    import_triplea(XML, tmp_path, ruleset_id="global-1940")
    assert (tmp_path / name).read_bytes() == (COMMITTED / name).read_bytes()


def test_starting_ipcs_are_the_guides() -> None:
    """DIGEST §1.2, from the AMS set-up: "Germany 30, USSR 37, Italy 10, Japan 26, ANZAC 10, UK
    Europe 28, China 12, France 19, UK Pacific 17, United States 52"."""
    setup = yaml.safe_load((COMMITTED / "setup.yaml").read_text())
    assert setup["treasury"] == {"ANZAC": 10, "China": 12, "France": 19, "Germany": 30, "Italy": 10, "Japan": 26,
                                 "Soviet Union": 37, "UK Europe": 28, "UK Pacific": 17, "United States": 52}


def test_the_united_kingdoms_units_are_one_powers() -> None:
    """DIGEST §1.2: the UK is "one power with two economies": control by country, units by power."""
    setup = yaml.safe_load((COMMITTED / "setup.yaml").read_text())
    owners = {o for by in setup["units"].values() for o in by}
    assert "United Kingdom" in owners and not {"UK Europe", "UK Pacific"} & owners
    assert {"UK Europe", "UK Pacific"} <= set(setup["control"].values())
