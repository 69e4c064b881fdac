"""Render one turn's report data to every format players read: Markdown, BBCode, HTML, text, JSON.

All formats are fed by the same report data (described by `schemas/report.schema.json`), so a
fact shown in one is shown in all.  The wording and layout live in Jinja2 templates under
`templates/`; a user may point to a directory of their own templates, which override ours file by
file (a missing file falls back to ours).  Output is byte-identical for the same data: nothing
here reads the clock, and unit-count maps are shown sorted by unit name.
"""

from __future__ import annotations

import json
import re
import textwrap
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from pbem.engine.words import plural, possessive  # one English for rule messages and reports

if TYPE_CHECKING:  # pragma: no cover - typing only
    import jinja2

FORMATS: tuple[str, ...] = ("md", "bbcode", "html", "text", "json")

TEMPLATE_NAMES: dict[str, str] = {
    "md": "report.md.j2",
    "bbcode": "report.bbcode.j2",
    "html": "report.html.j2",
    "text": "report.txt.j2",
}

SCHEMA_FILE = "report.schema.json"


class ReportDataError(ValueError):
    """The report data does not match the schema: a bug in whatever produced it, listed in full."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__(
            "report data does not match schemas/report.schema.json:\n  " + "\n  ".join(errors)
        )


def default_templates_dir() -> Path:
    """Our templates (`templates/` of a checkout, or `share/pbem/templates` of a wheel)."""
    from pbem.resources import data_dir

    return data_dir("templates")


def schema_path() -> Path:
    """The report-data schema, `schemas/report.schema.json` beside the `pbem` package."""
    from pbem.resources import data_dir

    return data_dir("schemas") / SCHEMA_FILE


@lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema  # lazily: only reports need it

    # The schema itself is checked against its meta-schema by the test suite (tests/io/test_schemas.py),
    # not on every run: that check cost 0.38 s of each `pbem adjudicate`.
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _leaves(error: Any) -> list[Any]:
    """The errors that say what is wrong: inside a "null or object" choice, the object's errors
    rather than "is not valid under any of the given schemas" with the whole value printed."""
    if not error.context:
        return [error]
    here = list(error.absolute_path)
    useful = [
        sub
        for sub in error.context
        if not (sub.validator == "type" and list(sub.absolute_path) == here)
    ]
    if not useful:
        return [error]
    return [leaf for sub in useful for leaf in _leaves(sub)]


def _describe(error: Any) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
    message = error.message if len(error.message) <= 200 else error.message[:199] + "…"
    return f"{where}: {message}"


def validate_report(data: Mapping[str, Any]) -> None:
    """Raise ReportDataError naming every place where `data` breaks the schema."""
    leaves = [leaf for error in _validator().iter_errors(data) for leaf in _leaves(error)]
    described = sorted(set(_describe(leaf) for leaf in leaves))
    if described:
        raise ReportDataError(described)


# ---------------------------------------------------------------- filters shared by all templates

def count_of(count: int, word: str) -> str:
    """ "1 hit", "2 hits"."""
    return f"{count} {plural(word, count)}"


def units_text(units: Mapping[str, int]) -> str:
    """A unit-count map as "3 infantry, 2 tanks", sorted by unit name so any key order reads the same."""
    if not units:
        return "none"
    return ", ".join(count_of(units[name], name) for name in sorted(units))


def unused_hits_text(hits: int) -> str:
    """Hits no unit could take, said in every format: "2 hits lost: no unit these dice can hit is left"."""
    return f"{count_of(hits, 'hit')} lost: no unit these dice can hit is left"


def low_luck_text(pool: Mapping[str, Any], arrow: str = "->") -> str:
    """Low Luck's pooled strength, as "Low Luck: 5 infantry @2, 1 tank @3 = strength 13 -> 2 sure hits"."""
    units = ", ".join(f"{count_of(u['count'], u['unit'])} @{u['value']}" + (f" x{u['dice_each']} dice" if u.get("dice_each") else "")
                      for u in pool["units"])
    return f"Low Luck: {units} = strength {pool['strength']} {arrow} {count_of(pool['sure_hits'], 'sure hit')}"


def raid_roll_text(roll: Mapping[str, Any], arrow: str = "->") -> str:
    """One roll of a raid as a sentence naming who rolled and at what: the same in every format."""
    dice = dice_text(roll["dice"])
    note = f" ({roll['note']})" if roll["note"] else ""
    if roll["step"] == "damage":
        return f"Damage, {count_of(roll['count'], 'die')} for the {plural(roll['unit'])}{note}: {dice} = {roll['result']}"
    # the air battle's dice name the units that rolled them, as every other roll does
    raiders = "the escorts" if roll["unit"] == "escort" else f"the raiders' {plural(roll['unit'])}"
    who = {"escort": f"Air battle, {raiders}", "interceptor": f"Air battle, the interceptors' {plural(roll['unit'])}",
           "aa": f"AA fire ({roll['unit']}) at {roll['target']}"}.get(roll["step"], roll["step"])
    return f"{who}: {count_of(roll['count'], 'die')} @{roll['hit_on']}{note}: {dice} {arrow} {count_of(roll['result'], 'hit')}"


def shot_down_text(raid: Mapping[str, Any]) -> str:
    """The raiders the guns and interceptors downed, named: "1 bomber shot down" ("raiders" when
    several kinds raided)."""
    kinds = raid["bombers"]
    return f"{count_of(raid['shot_down'], next(iter(kinds)) if len(kinds) == 1 else 'raider')} shot down"


def air_battle_text(battle: Mapping[str, int]) -> str:
    """What the air battle of a raid cost each side: "1 escort and 0 interceptors lost in the air battle"."""
    if battle.get("told_with"):  # 1940: one air battle for the territory's raids
        return f"its raiders fought in the air battle told above, with the raid on the {battle['told_with']}"
    where = "to the AA fire and in the air battle" if battle.get("with_aa") else "in the air battle"
    beside = f" (the raiders of the {' and the '.join(battle['with_raids'])} fought in it too)" if battle.get("with_raids") else ""
    return f"{count_of(battle['escorts_lost'], 'escort')} and {count_of(battle['interceptors_lost'], 'interceptor')} lost {where}{beside}"


def roll_text(roll: Mapping[str, Any], arrow: str = "->") -> str:
    """A roll outside battles (research, rockets): "Germany, research dice for Jet Fighters: 3 6 -> no breakthrough"."""
    return f"{roll['power']}, {roll['what']}: {dice_text(roll['dice'])} {arrow} {roll['result']}"


ODDS_DIGITS = 10


def stored_odds(value: float) -> float:
    """A chance as reports store it and every command shows it: rounded to ten decimals (by
    Python's own correctly rounded `round`, the same everywhere).  The calculator's last bits move
    whenever its sums are reordered (a faster solve, another processor), and audit replays reports
    byte for byte: rounded, a figure changes with such a move (about 1e-15) only if it lies that
    close to a rounding boundary, about one figure in 100,000, not in most battles of a game."""
    return round(float(value), ODDS_DIGITS)


def percent(value: float) -> str:
    return f"{stored_odds(value) * 100:.1f}%"


def odds_phrase(odds: Mapping[str, Any], kind: str = "land") -> str:
    """The odds as every command and report says them, each from the stored figure
    (`stored_odds`), so that `pbem validate`, the reports and `pbem odds` show the same figures."""
    parts = [f"attacker wins {percent(odds['attacker_win'])}", f"defender wins {percent(odds['defender_win'])}",
             f"both destroyed {percent(odds['draw'])}"]
    if odds.get("retreat"):
        parts.append(f"attacker retreats {percent(odds['retreat'])}")
    if odds.get("stalemate"):
        parts.append(f"stalemate {percent(odds['stalemate'])}")
    if kind != "sea" and odds.get("capture") is not None:
        parts.append(f"capture {percent(odds['capture'])}")
    if odds.get("exact") is False:  # too large to compute exactly within the odds' bound
        parts.append(f"simulated, within ±{100 * float(odds.get('confidence') or 0):.1f} points")
    return ", ".join(parts)


def fixed(value: float, digits: int = 1) -> str:
    return f"{value:.{digits}f}"


def signed(value: float, digits: int = 1) -> str:
    return f"{value:+.{digits}f}"


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(str(d) for d in dice) if dice else "-"


_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~])")


def md_escape(text: Any) -> str:
    """Escape Markdown's special characters so names and quoted orders show as typed."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def md_code(text: Any) -> str:
    """An inline code span that survives backticks inside the text."""
    text = str(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_BB_TAG = re.compile(r"\[(?=/?[A-Za-z*])")


def bb_escape(text: Any) -> str:
    """Stop user text from opening or closing BBCode tags.

    BBCode has no escape character that phpBB and SMF both honour, so a zero-width space goes after
    any "[" that could start a tag: the text reads the same and no forum parses it as a tag.
    """
    return _BB_TAG.sub("[\u200b", str(text))


def columns(items: Iterable[Mapping[str, Any]], *keys: str) -> list[list[Any]]:
    """Table rows from a list of mappings: `economy|columns("power", "treasury")`."""
    return [[item[key] for key in keys] for item in items]


def fixed_table(header: Sequence[Any], rows: Iterable[Sequence[Any]], align: str = "") -> str:
    """A fixed-width table for text and [code] blocks: header, a rule, the rows.

    `align` has one letter per column, "l" or "r" (default "l").  Widths are the widest cell;
    None shows as "-".
    """

    def cell(value: Any) -> str:
        return "-" if value is None else str(value)

    table = [[cell(c) for c in header]] + [[cell(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    aligns = align.ljust(len(header), "l")

    def line(cells: Sequence[str]) -> str:
        out = [
            cell.rjust(widths[i]) if aligns[i] == "r" else cell.ljust(widths[i])
            for i, cell in enumerate(cells)
        ]
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(table[0]), rule] + [line(row) for row in table[1:]])


def wrap(text: Any, width: int = 78, indent: str = "", subsequent: str | None = None) -> str:
    """Wrap a paragraph for the text format; long words (links) are never broken."""
    return textwrap.fill(
        str(text),
        width=width,
        initial_indent=indent,
        subsequent_indent=indent if subsequent is None else subsequent,
        break_long_words=False,
        break_on_hyphens=False,
    )


_SVG_PROLOG = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*|<!DOCTYPE[^>]*>\s*|<!--.*?-->\s*)*", re.S)
_SVG_ROOT = re.compile(r"<svg\b([^>]*)>")


def inline_svg(svg: str) -> Any:
    """The map's SVG ready to sit inside HTML: no XML prolog (invalid mid-document), and the root
    scaled down to the screen (`max-width:100%`) however wide the map renderer drew it.

    The SVG comes from pbem's own map renderer, so it is trusted markup; the schema refuses
    anything without an <svg> root or with a <script>.
    """
    from markupsafe import Markup  # lazily, with Jinja2

    body = _SVG_PROLOG.sub("", svg, count=1)

    def scale(match: re.Match[str]) -> str:
        attrs = match.group(1)
        if re.search(r"\sstyle\s*=", attrs):
            return match.group(0)
        return f'<svg style="max-width:100%;height:auto"{attrs}>'

    return Markup(_SVG_ROOT.sub(scale, body, count=1))


STEP_LABELS: dict[str, str] = {
    "aa": "AA fire",
    "bombard": "Bombardment",
    "surprise-attacker": "Submarines fire first (attacker)",
    "surprise-defender": "Submarines fire first (defender)",
    # units that fire once and are lost for it: Revised's kamikaze (attacker) and kaiten (defender),
    # Pacific's kamikaze (defender); the dice groups name which
    "sacrifice-attacker": "Suicide strike (attacker)",
    "sacrifice-defender": "Suicide strike (defender)",
    "attacker": "Attacker fires",
    "defender": "Defender fires",
    "parting-shot": "Hit submarines' parting shot (defender)",
}

RESULT_LABELS: dict[str, str] = {
    "attacker-won": "attacker won",
    "defender-won": "defender won",
    "draw": "draw: both sides destroyed",
    "retreated": "attacker retreated",
    "stalemate": "stalemate: neither side can hit the other",
}

CHOSEN_BY_LABELS: dict[str, str] = {
    "directive": "directive",
    "default": "default",
    "rule": "rule",
    "only-choice": "only choice",
}


def _filters() -> dict[str, Any]:
    return {
        "plural": plural,
        "possessive": possessive,
        "count_of": count_of,
        "units": units_text,
        "percent": percent,
        "odds_phrase": odds_phrase,
        "fixed": fixed,
        "signed": signed,
        "dice": dice_text,
        "raid_roll": raid_roll_text,
        "air_battle": air_battle_text,
        "shot_down": shot_down_text,
        "low_luck": low_luck_text,
        "unused_hits": unused_hits_text,
        "roll": roll_text,
        "md": md_escape,
        "md_code": md_code,
        "bb": bb_escape,
        "table": fixed_table,
        "columns": columns,
        "inline_svg": inline_svg,
        "wrap": wrap,
        "step_label": STEP_LABELS.__getitem__,
        "result_label": RESULT_LABELS.__getitem__,
        "chosen_by_label": CHOSEN_BY_LABELS.__getitem__,
    }


# ---------------------------------------------------------------- rendering


def _bytecode_cache() -> Any:
    """Compiled templates kept between runs (0.24 s of every report otherwise), in the user's
    cache directory like the validated rulesets; none when there is no usable cache directory.
    Jinja keys each entry by the template's source, so an edited template is compiled again."""
    import os

    import jinja2

    if os.environ.get("PBEM_NO_CACHE"):
        return None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    try:
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
        directory = base / "pbem" / "templates"
        directory.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):
        return None
    return jinja2.FileSystemBytecodeCache(str(directory))


@lru_cache(maxsize=8)
def _environment(templates_dir: str | None) -> "jinja2.Environment":
    """One environment per templates directory, so each template is compiled once per process
    (Jinja still reloads a template whose file changed)."""
    import jinja2  # lazily: keeps `pbem` start-up fast

    import jinja2.sandbox

    search = [templates_dir] if templates_dir is not None else []
    search.append(str(default_templates_dir()))
    # a player's own templates run sandboxed: they read the report, never Python's internals
    kind = jinja2.sandbox.SandboxedEnvironment if templates_dir is not None else jinja2.Environment
    env = kind(
        loader=jinja2.FileSystemLoader(search, encoding="utf-8"),
        bytecode_cache=_bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        # HTML only: the other formats escape with their own filters (md, bb).
        autoescape=lambda name: bool(name) and (name.endswith(".html.j2") or name.startswith("_html")),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(_filters())
    return env


def render_report(data: Mapping[str, Any], fmt: str, *, templates_dir: Path | None = None, validate: bool = True) -> str:
    """Validate `data` against the schema and render it in `fmt` (one of FORMATS).  `validate=False`
    is for `pbem audit`, which compares what it renders with files checked when they were written."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if validate:
        validate_report(data)
    if fmt == "json":
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if templates_dir is not None and not Path(templates_dir).is_dir():
        raise ValueError(f"templates directory {templates_dir} does not exist")
    key = str(Path(templates_dir).resolve()) if templates_dir is not None else None
    import jinja2

    try:
        template = _environment(key).get_template(TEMPLATE_NAMES[fmt])
        return template.render(report=data)
    except jinja2.TemplateError as err:
        if key is None:
            raise  # pbem's own templates: a bug, not a user error
        raise TemplateProblem(_template_error(err)) from None


class TemplateProblem(ValueError):
    """A report template of the user's that does not compile or render: file:line and Jinja's message."""


def _template_error(err: Exception) -> str:
    """"FILE:LINE: message" for a Jinja error: the syntax error's own place, else the deepest
    template frame of the traceback (Jinja maps template frames to template lines)."""
    import traceback

    where = getattr(err, "filename", None), getattr(err, "lineno", None)
    if where[0] is None:
        frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename.endswith(".j2")]
        if frames:
            where = frames[-1].filename, frames[-1].lineno
    place = f"{where[0]}:{where[1]}: " if where[0] else ""
    return f"{place}{type(err).__name__}: {err.message or err}" if hasattr(err, "message") else f"{place}{err}"


def render_email(
    data: Mapping[str, Any], *, templates_dir: Path | None = None
) -> tuple[str, str]:
    """The HTML body and its plain-text alternative, for a multipart/alternative email."""
    return (
        render_report(data, "html", templates_dir=templates_dir),
        render_report(data, "text", templates_dir=templates_dir),
    )
