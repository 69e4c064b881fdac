"""`pbem site`: a static site of a game - the board after every turn, the reports, and the charts
players keep spreadsheets for (income, unit value, what each battle cost, luck).

A turn report is read once; a game is followed for months.  Everything here is read from the game's
history (the adjudication commits, their reports and states), so the site says nothing the audit
cannot check, and it carries the audit's verdict.  The output is plain files any web server or a
forge's pages service can publish: HTML that needs no JavaScript, SVG charts and boards, and
`site.json` (schemas/site.schema.json) holding every figure the pages show.

It lives with the gateways because it is one more place players meet a game, like mail and git;
it composes the game, its reports and the audit, and writes nothing into the game repository.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.game.game import Game, GameError, board_svg, possessive, report_path, slug

SITE_VERSION = 1


def turn_page(round_: int, turn_index: int, power: str) -> str:
    """A power-turn's page in the site, relative to its root (report mails link it)."""
    return f"turns/{round_:02d}-{turn_index + 1}-{slug(power)}.html"


def _tuv(game: Game, units: Mapping[str, Mapping[str, Mapping[str, int]]]) -> dict[str, int]:
    """Total unit value per power: the purchase cost of every unit on the board (facilities excluded)."""
    out = {p.name: 0 for p in game.ruleset.powers}
    for by_owner in units.values():
        for owner, counts in by_owner.items():
            for unit, n in counts.items():
                profile = game.ruleset.units.get(unit)
                if profile is not None and profile.domain != "structure" and owner in out:
                    out[owner] += profile.cost * n
    return out


def _income(game: Game, control: Mapping[str, str]) -> dict[str, int]:
    from pbem.engine.economy import income

    return {p.name: sum(income(game.ruleset, game.rules.economy, control, c.name) for c in p.economies) for p in game.ruleset.powers}


def _battle_summary(game: Game, battle: Mapping[str, Any]) -> dict[str, Any]:
    """A battle as the site shows it: odds before the dice, result, unit value lost by each side,
    and each side's hits against what was expected (was that unlucky?)."""
    lost = {"attacker": 0, "defender": 0}
    rows = [c for rnd in battle["rounds"] for step in rnd["steps"] for c in step["casualties"]]
    rows += list(battle.get("removed", []))
    for c in rows:
        if c["damaged"]:
            continue
        profile = game.ruleset.units.get(c["unit"])
        side = "attacker" if c["power"] == battle["attacker"] else "defender"
        lost[side] += (profile.cost if profile is not None else 0) * c["count"]
    attackers = game.ruleset.side_of(battle["attacker"])
    for c in battle.get("lost_aboard", []):  # cargo went down with its ship: an ally's, on either side
        profile = game.ruleset.units.get(c["unit"])
        side = "attacker" if game.ruleset.side_of(c["power"]) == attackers else "defender"
        lost[side] += (profile.cost if profile is not None else 0) * c["count"]
    odds = battle.get("odds")
    return {
        "space": battle["space"], "kind": battle["kind"], "attacker": battle["attacker"],
        "defenders": list(battle["defenders"]), "result": battle["result"],
        "attacker_win_odds": None if odds is None else odds["attacker_win"],
        "tuv_lost": lost,
        "luck": {side: {"expected_hits": battle["luck"][side]["expected_hits"], "actual_hits": battle["luck"][side]["actual_hits"]}
                 for side in ("attacker", "defender")},
    }


def _luck_of_report(report: Mapping[str, Any]) -> dict[str, tuple[float, float, int]]:
    """Per power: (expected hits, variance, actual hits) of every battle die in one report; the same
    dice and thresholds `pbem luck` counts (pbem.game.audit.luck_records)."""
    from pbem.game.audit import report_luck_records
    from pbem.game.luck import tally

    out: dict[str, tuple[float, float, int]] = {}
    for record in report_luck_records(report):
        t = tally(record)
        e, v, a = out.get(record.power, (0.0, 0.0, 0))
        out[record.power] = (e + t.expected, v + t.variance, a + t.actual)
    return out


def site_data(game_dir: str | Path) -> dict[str, Any]:
    """Every figure the site shows, from the game's history; `site.json` is this, written out."""
    from pbem.game.audit import audit_game, trailers

    game = Game(game_dir)
    ruleset = game.ruleset
    powers = [p.name for p in ruleset.powers]
    turns: list[dict[str, Any]] = []
    luck = {p: (0.0, 0.0, 0) for p in powers}
    with game.repo.batch_reads():  # a report and a state per power-turn: one git process, not two
        for c in game.repo.history():
            t = trailers(c)
            if t.get("Phase") != "adjudication":
                continue
            round_, power = int(t["Round"]), t["Power"]
            index = ruleset.turn_order.index(power)
            raw = game.repo.read(report_path(round_, index, power, "json"), c.sha)
            if raw is None:
                continue
            report = json.loads(raw)
            state = game.state(c.sha)
            for p, (e, v, a) in _luck_of_report(report).items():
                if p in luck:
                    pe, pv, pa = luck[p]
                    luck[p] = (pe + e, pv + v, pa + a)
            turns.append({
                "number": len(turns) + 1,
                "round": round_,
                "power": power,
                "commit": c.sha,
                "page": turn_page(round_, index, power),
                "board": turn_page(round_, index, power).removesuffix(".html") + ".svg",
                "income": _income(game, state.control),
                "treasury": {p: game.ruleset.treasury_of(state.treasury, p) for p in powers},
                "tuv": _tuv(game, state.units),
                "battles": [_battle_summary(game, b) for b in report.get("battles", [])],
                "luck": {p: {"expected_hits": round(luck[p][0], 4), "actual_hits": luck[p][2],
                             "luck": round(luck[p][2] - luck[p][0], 4), "band": round(2 * math.sqrt(luck[p][1]), 4)}
                         for p in powers},
            })
    state = game.state()
    audit = audit_game(game_dir)
    capitals = {p.name: all(state.control.get(c.capital) == c.name for c in p.economies) for p in ruleset.powers}
    held: dict[str, list[str]] = {}
    for name, space in sorted(ruleset.board.spaces.items()):
        if space.victory_city and name in state.control:
            held.setdefault(ruleset.side_of(state.control[name]), []).append(space.victory_city)
    deadline = None
    try:
        from pbem.gateways.hosting import deadline_of, hosting_of

        when = deadline_of(game, hosting_of(game))
        deadline = when.isoformat() if when is not None else None
    except GameError:
        deadline = None
    return {
        "version": SITE_VERSION,
        "game": {"id": game.config.game, "ruleset": {"id": ruleset.id, "name": ruleset.name},
                 "round": state.round, "to_move": None if state.winner else game.power_to_move(state),
                 "deadline": deadline, "winner": state.winner},
        "powers": [{"name": p.name, "side": p.side, "player": game.config.players.get(p.name),
                    "capital": p.capital, "capital_held": capitals[p.name], "income": _income(game, state.control)[p.name],
                    "treasury": ruleset.treasury_of(state.treasury, p.name), "colour": p.colour} for p in ruleset.powers],
        "victory_cities": {side: sorted(held.get(side, [])) for side in sorted({p.side for p in ruleset.powers})},
        "turns": turns,
        "audit": {"ok": audit.ok, "turns": len(audit.turns),
                  "first_problem": None if audit.first is None else audit.first.format(with_diff=False),
                  "command": "pbem audit --game ."},
    }


def _charts(data: Mapping[str, Any]) -> dict[str, str]:
    from pbem.gateways.sitecharts import Series, colours_for, line_chart, paired_bars

    colours = colours_for({p["name"]: p["colour"] for p in data["powers"]})
    names = [p["name"] for p in data["powers"]]
    turns = data["turns"]
    rounds = sorted({t["round"] for t in turns})
    last_of_round = {r: [t for t in turns if t["round"] == r][-1] for r in rounds}
    income = [Series(p, colours[p], tuple(float(last_of_round[r]["income"][p]) for r in rounds)) for p in names]
    tuv = [Series(p, colours[p], tuple(float(last_of_round[r]["tuv"][p]) for r in rounds)) for p in names]
    luck = [Series(p, colours[p], tuple(t["luck"][p]["luck"] for t in turns),
                   band=tuple((-t["luck"][p]["band"], t["luck"][p]["band"]) for t in turns)) for p in names]
    battles = [(t, b) for t in turns for b in t["battles"]]
    return {
        "income.svg": line_chart("Income per power, end of each round", [f"R{r}" for r in rounds], income, y_label="IPC"),
        "tuv.svg": line_chart("Total unit value per power, end of each round", [f"R{r}" for r in rounds], tuv, y_label="IPC"),
        "luck.svg": line_chart("Cumulative luck per turn: hits scored minus hits expected", [str(t["number"]) for t in turns],
                               luck, y_label="hits", zero_line=True),
        "battles.svg": paired_bars("Unit value each battle cost (IPC)",
                                   [f"R{t['round']} {b['attacker']}: {b['space']}" for t, b in battles],
                                   [(b["tuv_lost"]["attacker"], b["tuv_lost"]["defender"]) for _, b in battles]),
    }


def write_site(game_dir: str | Path, out_dir: str | Path) -> list[Path]:
    """Build the site into `out_dir` (replaced whole, never left half-written); the files written."""
    from pbem.report.render import render_report

    out = Path(out_dir)
    if out.exists() and not (out / "site.json").is_file() and any(out.iterdir()):
        raise GameError(f"{out} exists and is not a pbem site: choose an empty or new directory")
    game = Game(game_dir)
    data = site_data(game_dir)
    env = _environment()
    files: dict[str, str] = {"site.json": json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"}
    files.update({f"charts/{name}": svg for name, svg in _charts(data).items()})
    turns = data["turns"]
    for i, turn in enumerate(turns):
        index = game.ruleset.turn_order.index(turn["power"])
        report = json.loads(game.repo.read(report_path(turn["round"], index, turn["power"], "json"), turn["commit"]) or b"{}")
        svg = game.repo.read(report_path(turn["round"], index, turn["power"], "svg"), turn["commit"])
        board = svg.decode("utf-8") if svg is not None else board_svg(game.ruleset, game.state(turn["commit"]), report)
        if board is not None:
            files[turn["board"]] = board
        if report.get("map"):  # the report's map link points at the board beside the page
            report = dict(report, map=dict(report["map"], href=turn["board"].rsplit("/", 1)[-1]))
        files[turn["page"]] = env.get_template("turn.html.j2").render(
            site=data, turn=turn, has_board=board is not None, report_html=_report_body(render_report(report, "html")),
            previous=turns[i - 1] if i else None, next=turns[i + 1] if i + 1 < len(turns) else None,
            title=f"{data['game']['id']}: round {turn['round']}, {possessive(turn['power'])} turn")
    latest = turns[-1] if turns else None
    files["index.html"] = env.get_template("index.html.j2").render(site=data, latest=latest, title=data["game"]["id"])
    files["site.css"] = env.get_template("site.css.j2").render()
    staging = Path(tempfile.mkdtemp(prefix=".pbem-site-", dir=out.parent if out.parent.exists() else None))
    try:
        for name, text in sorted(files.items()):
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        if out.exists():
            old = out.with_name(out.name + ".old-pbem-site")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(out, old)
            os.replace(staging, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [out / name for name in sorted(files)]


def _report_body(html: str) -> str:
    """The inside of the report's <body>: the report is a whole HTML document made for mail."""
    start = html.find("<body")
    start = html.find(">", start) + 1 if start >= 0 else 0
    end = html.rfind("</body>")
    return html[start:end if end >= 0 else len(html)]


def _environment() -> Any:
    import jinja2

    from pbem.report.render import _filters, default_templates_dir

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(default_templates_dir() / "site")),
                             autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.filters.update(_filters())
    return env
