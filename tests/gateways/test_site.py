"""`pbem site`: a static site of a game, checked as a person would see it and against the game's facts."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.game.audit import luck_data
from pbem.game.game import Game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", params=["1942-2e", "revised"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp(f"site-{request.param}")
    game, site = base / "game", base / "site"
    assert CliRunner().invoke(cli, ["demo", str(game), "--ruleset", request.param, "--rounds", "3"]).exit_code == 0
    result = CliRunner().invoke(cli, ["site", "--game", str(game), "--out", str(site)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return game, site


def test_the_site_has_an_index_a_page_per_turn_and_json_that_matches_its_schema(built: tuple[Path, Path]) -> None:
    game, site = built
    data = json.loads((site / "site.json").read_text())
    jsonschema.validate(data, json.loads((ROOT / "schemas" / "site.schema.json").read_text()))
    assert len(data["turns"]) == Game(game).adjudications() == 15
    for turn in data["turns"]:
        page = (site / turn["page"]).read_text()
        assert f"Round {turn['round']}: {turn['power']}" in page and turn["commit"][:12] in page
        assert (site / turn["board"]).is_file()
    us = next(t for t in data["turns"] if t["power"] == "United States")
    assert "The board after United States&#39; turn" in (site / us["page"]).read_text()  # not "United States's"
    index = (site / "index.html").read_text()
    assert data["game"]["id"] in index and "Audit: every turn reproduced" in index
    assert all(p["name"] in index for p in data["powers"])


def test_every_link_and_image_on_every_page_resolves(built: tuple[Path, Path]) -> None:
    _, site = built
    for page in site.rglob("*.html"):
        for ref in re.findall(r'(?:href|src)="([^"#]+)"', page.read_text()):
            if ref.startswith(("http://", "https://", "mailto:")):
                continue
            assert (page.parent / ref).resolve().is_file(), f"{page.relative_to(site)} links to missing {ref}"


def test_the_charts_say_what_pbem_luck_and_the_states_say(built: tuple[Path, Path]) -> None:
    """Property: the luck figures are pbem luck's, income and unit value are the states' own."""
    game, site = built
    data = json.loads((site / "site.json").read_text())
    last = data["turns"][-1]
    for row in luck_data(game)["powers"]:
        assert last["luck"][row["power"]]["actual_hits"] == row["actual_hits"]
        assert abs(last["luck"][row["power"]]["expected_hits"] - row["expected_hits"]) < 1e-3
    g = Game(game)
    for turn in data["turns"]:
        state = g.state(turn["commit"])
        for power, income in turn["income"].items():
            assert income == sum(g.ruleset.board.spaces[t].ipc for t, o in state.control.items() if o == power)
        assert turn["treasury"] == {p: state.treasury.get(p, 0) for p in turn["treasury"]}
    for chart in ("income", "tuv", "luck", "battles"):
        svg = (site / "charts" / f"{chart}.svg").read_text()
        assert svg.startswith("<svg") and all(p["name"] in svg for p in data["powers"] if chart != "battles")


def test_the_site_is_rebuilt_whole_and_never_written_over_other_files(built: tuple[Path, Path], tmp_path: Path) -> None:
    game, site = built
    before = (site / "site.json").read_bytes()
    assert CliRunner().invoke(cli, ["site", "--game", str(game), "--out", str(site)]).exit_code == 0
    assert (site / "site.json").read_bytes() == before  # deterministic
    other = tmp_path / "photos"
    other.mkdir()
    (other / "holiday.jpg").write_bytes(b"x")
    result = CliRunner().invoke(cli, ["site", "--game", str(game), "--out", str(other)])
    assert result.exit_code != 0 and "not a pbem site" in result.output
    assert (other / "holiday.jpg").read_bytes() == b"x"


def _browser() -> str | None:
    return shutil.which("chromium-headless-shell") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium here (Debian: apt-get install chromium-headless-shell)")
def test_every_page_loads_in_a_browser_without_errors(built: tuple[Path, Path]) -> None:
    """Opened in headless Chromium: every page loads with no console error; screenshots of the index and
    one turn page are kept as build artefacts ($PBEM_ARTIFACTS, else beside the site)."""
    game, site = built
    out = Path(os.environ.get("PBEM_ARTIFACTS", site.parent / "artefacts"))
    out.mkdir(parents=True, exist_ok=True)
    pages = sorted(site.rglob("*.html"))
    first_turn = sorted((site / "turns").glob("*.html"))[1]
    for page in pages:
        shot = page in (site / "index.html", first_turn)
        args = [_browser() or "", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--enable-logging=stderr",
                "--v=0", "--window-size=1000,2000"]
        args += [f"--screenshot={out / (game.parent.name + '-' + page.stem + '.png')}"] if shot else ["--dump-dom"]
        run = subprocess.run([*args, page.as_uri()], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr[-2000:]
        console = [line for line in run.stderr.splitlines() if ":CONSOLE" in line]
        assert not console, f"{page.name}: {console}"
        if not shot:
            assert "</html>" in run.stdout
    assert (out / f"{game.parent.name}-index.png").stat().st_size > 10_000


def test_report_mail_links_the_turns_page_when_the_site_has_an_address(tmp_path: Path) -> None:
    from pbem.gateways.turns import Adjudicated, report_message
    from tests.gateways.helpers import ROUND_ONE, example, make_game

    game = make_game(tmp_path / "g", hosting={"report_map": "none", "site_url": "https://league.test/games/demo/"})
    game.submit(example(ROUND_ONE[0]), "orders.yaml")
    sha, report = game.adjudicate()
    mail = report_message(game, Adjudicated(sha, 1, "Soviet Union", report), "host@league.test", ["a@players.test"])
    text = mail.get_body(("plain",)).get_content()
    link = "https://league.test/games/demo/turns/01-1-soviet-union.html"
    assert link in " ".join(text.split())
    assert CliRunner().invoke(cli, ["site", "--game", str(tmp_path / "g"), "--out", str(tmp_path / "site")]).exit_code == 0
    assert (tmp_path / "site" / link.split("/games/demo/")[1]).is_file()
    plain = make_game(tmp_path / "h", hosting={"report_map": "none"})
    plain.submit(example(ROUND_ONE[0]), "orders.yaml")
    sha, report = plain.adjudicate()
    mail = report_message(plain, Adjudicated(sha, 1, "Soviet Union", report), "host@league.test", ["a@players.test"])
    assert "game's site" not in mail.get_body(("plain",)).get_content()


def test_a_site_address_that_is_no_web_address_is_refused(tmp_path: Path) -> None:
    from pbem.game.game import GameError
    from pbem.gateways.hosting import check_hosting
    from pbem.io.rulesets import load_ruleset

    with pytest.raises(GameError, match="site_url"):
        check_hosting({"site_url": "league.test/games"}, load_ruleset("1942-2e"))


GOLDEN = Path(__file__).resolve().parent / "golden"


def test_site_json_is_golden(built: tuple[Path, Path]) -> None:
    """The demo games' site.json, byte for byte but for commit ids (they carry the time of each commit).
    Regenerate after an intended change with PBEM_UPDATE_GOLDEN=1 and review the diff."""
    game, site = built
    data = json.loads((site / "site.json").read_text())
    for turn in data["turns"]:
        turn["commit"] = "0" * 40
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    golden = GOLDEN / f"site-{data['game']['ruleset']['id']}.json"
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(text)
    assert golden.exists(), f"missing {golden.name}: run with PBEM_UPDATE_GOLDEN=1"
    assert text == golden.read_text(), f"{golden.name} differs: review, then PBEM_UPDATE_GOLDEN=1"


def test_cargo_lost_with_its_ship_counts_to_the_side_that_owned_it(tmp_path: Path) -> None:
    """The value lost in a battle includes the land units and fighters that went down aboard a sunk
    ship ("Cargo ... is lost with the ship carrying it", 1942 Second Edition, p. 16), on the side of
    their owner: an ally's fighter aboard the attacker's carrier is the attackers' loss."""
    from pbem.gateways.site import _battle_summary
    from pbem.game.game import new_game

    game = new_game(tmp_path / "g", "1942-2e", {}, game_id="site-cargo", dice_mode="local")
    battle = {"space": "SZ 6", "kind": "sea", "attacker": "United Kingdom", "defenders": ["Germany"], "result": "defender-won",
              "odds": None, "luck": {s: {"expected_hits": 0.0, "actual_hits": 0} for s in ("attacker", "defender")},
              "rounds": [{"number": 1, "steps": [{"casualties": [
                  {"power": "United Kingdom", "unit": "aircraft carrier", "count": 1, "damaged": False}]}]}],
              "lost_aboard": [{"power": "United States", "unit": "fighter", "count": 1, "aboard": "aircraft carrier"},
                              {"power": "Germany", "unit": "tank", "count": 2, "aboard": "transport"}]}
    carrier, fighter, tank = (game.ruleset.units[u].cost for u in ("aircraft carrier", "fighter", "tank"))
    assert _battle_summary(game, battle)["tuv_lost"] == {"attacker": carrier + fighter, "defender": 2 * tank}
