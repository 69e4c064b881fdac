"""Turn reports: every format rendered from one scripted turn, compared byte for byte with golden
files, and checked for what each place players read them needs (balanced BBCode, parseable HTML,
schema-valid JSON, 78-column text).

Regenerate the golden files after an intended change with PBEM_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.report.render import (
    FORMATS,
    ReportDataError,
    bb_escape,
    default_templates_dir,
    fixed_table,
    md_code,
    plural,
    render_email,
    render_report,
    units_text,
    validate_report,
)

HERE = Path(__file__).parent
FIXTURE = HERE / "fixtures" / "full_turn.json"
GOLDEN = HERE / "golden"
EXTENSIONS = {"md": "md", "bbcode": "bbcode", "html": "html", "text": "txt", "json": "json"}
UPDATE = os.environ.get("PBEM_UPDATE_GOLDEN") == "1"


def full_turn() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def quiet_turn() -> dict[str, Any]:
    """A turn with nothing in it, committed dice and a finished game: every optional branch off."""
    data = full_turn()
    for key in ("moves", "battles", "bombing", "captures", "placements", "refunds", "economy",
                "victory_cities", "defaults_used", "luck", "notes"):
        data[key] = []
    data["purchases"] = None
    data["awaiting"] = None
    data["game"]["title"] = None
    del data["map"]
    data["dice"] = {
        "mode": "committed",
        "algorithm": "pbem-dice-v1",
        "commitment": "9f2c1e0b",
        "revealed": "https://example.org/games/g-1942-07/round-3",
        "seed": "c0ffee",
        "verify": "pbem audit games/g-1942-07 --round 3",
        "note": None,
    }
    return data


# ------------------------------------------------------------------ checkers


BB_TAG = re.compile(r"\[(/?)([a-z*]+)(=[^\]]*)?\]")
BB_ALLOWED = {"b", "i", "u", "color", "list", "*", "code", "url"}


def bbcode_problems(text: str) -> list[str]:
    """Unbalanced, misnested or unknown BBCode tags; [*] closes itself; [code] content is opaque."""
    problems: list[str] = []
    stack: list[str] = []
    for match in BB_TAG.finditer(text):
        closing, name = match.group(1), match.group(2)
        if stack and stack[-1] == "code" and not (closing and name == "code"):
            continue
        if name not in BB_ALLOWED:
            problems.append(f"unknown tag {match.group(0)} at {match.start()}")
        elif name == "*":
            if closing:
                problems.append(f"[/*] at {match.start()}")
        elif not closing:
            stack.append(name)
        elif not stack or stack[-1] != name:
            problems.append(f"{match.group(0)} at {match.start()} closes {stack[-1:] or 'nothing'}")
        else:
            stack.pop()
    problems.extend(f"[{name}] never closed" for name in stack)
    return problems


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class StrictHTML(HTMLParser):
    """Records misnested or unclosed elements, and what email clients would strip."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.tags: set[str] = set()
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if "class" in dict(attrs) and "svg" not in self.stack:
            self.problems.append(f"class attribute on <{tag}>: styles must be inline")
        if tag not in VOID:
            self.stack.append(tag)
        self._in_title = tag == "title"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'} at {self.getpos()}")
            return
        self.stack.pop()
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def html_problems(text: str) -> tuple[StrictHTML, list[str]]:
    parser = StrictHTML()
    parser.feed(text)
    parser.close()
    problems = parser.problems + [f"<{tag}> never closed" for tag in parser.stack]
    problems += [f"<{tag}> is not for email" for tag in ("style", "script", "link") if tag in parser.tags]
    return parser, problems


def reverse_dict_order(value: Any) -> Any:
    """The same data with every mapping's keys in reverse order."""
    if isinstance(value, dict):
        return {key: reverse_dict_order(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reverse_dict_order(item) for item in value]
    return value


# ------------------------------------------------------------------ golden files


@pytest.mark.parametrize("fmt", FORMATS)
def test_golden(fmt: str) -> None:
    rendered = render_report(full_turn(), fmt)
    golden = GOLDEN / f"full_turn.{EXTENSIONS[fmt]}"
    if UPDATE:
        golden.write_bytes(rendered.encode("utf-8"))
    assert golden.exists(), f"missing {golden.name}: run with PBEM_UPDATE_GOLDEN=1"
    assert rendered.encode("utf-8") == golden.read_bytes(), f"{golden.name} differs: review, then PBEM_UPDATE_GOLDEN=1"


@pytest.mark.parametrize("fmt", FORMATS)
def test_same_data_in_any_key_order_gives_the_same_bytes(fmt: str) -> None:
    data = full_turn()
    first = render_report(data, fmt)
    assert render_report(copy.deepcopy(data), fmt) == first
    assert render_report(reverse_dict_order(data), fmt) == first


def test_every_kind_of_event_is_shown_in_every_format() -> None:
    """The scripted turn's facts appear in each human format, not only in the golden files."""
    facts = [
        "Purchases", "repair Germany", "Combat moves", "Noncombat moves", "amphibious assault",
        "AA fire", "Bombardment", "Submarines fire first (attacker)", "submerged 1 submarine",
        "Retreat", "Baltic States", "captures United Kingdom", "strategic bombing",
        "Damage 3 → 10", "plunder", "Japan", "Placements", "Refunds", "Economy", "Treasury",
        "Victory conditions", "7 held, 9 needed", "Defaults used", "cheapest units first", "Luck",
        "41.2%", "1 2 6 4 3 5", "NOT", "pbem audit games/g-1942-07 --round 3", "Next",
        "Friday 18:00 UTC", "maps/round-03.svg", "directive", "only choice", "rule",
    ]
    for fmt in ("md", "bbcode", "html", "text"):
        out = render_report(full_turn(), fmt)
        if fmt == "text":
            out = out.replace("->", "→")
        flat = re.sub(r"\s+", " ", out)
        missing = [fact for fact in facts if fact.lower() not in flat.lower()]
        assert not missing, f"{fmt} lacks {missing}"


# ------------------------------------------------------------------ per-format checks


@pytest.mark.parametrize("make", [full_turn, quiet_turn])
def test_bbcode_tags_are_balanced(make: Any) -> None:
    out = render_report(make(), "bbcode")
    assert bbcode_problems(out) == []
    assert "[list]" in out or make is quiet_turn


def test_bbcode_checker_catches_what_it_should() -> None:
    assert bbcode_problems("[b]x[/b][list][*]a[*]b[/list]") == []
    assert bbcode_problems("[b]x[i]y[/b][/i]")
    assert bbcode_problems("[b]x")
    assert bbcode_problems("[size=150]x[/size]")


def test_user_text_cannot_open_bbcode_tags() -> None:
    out = render_report(full_turn(), "bbcode")
    assert "[\u200bb]scones[\u200b/b]" in out


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("[]/=*bicodelurst x"), max_size=40))
def test_bb_escape_leaves_no_tag(text: str) -> None:
    escaped = bb_escape(text)
    assert not BB_TAG.search(escaped)
    assert escaped.replace("\u200b", "") == text


@pytest.mark.parametrize("make", [full_turn, quiet_turn])
def test_html_parses_with_every_element_closed(make: Any) -> None:
    parser, problems = html_problems(render_report(make(), "html"))
    assert problems == []
    assert parser.title.startswith("Round 3: Germany")


def test_html_escapes_user_text_and_embeds_the_map() -> None:
    out = render_report(full_turn(), "html")
    assert "&lt;London&gt;" in out and "<London>" not in out
    assert '<svg style="max-width:100%;height:auto" xmlns="http://www.w3.org/2000/svg"' in out
    assert 'href="maps/round-03.svg"' in out
    assert "max-width" in out and " width=\"" not in out.split("<svg")[0]


def test_html_without_inline_svg_links_an_image_with_alt_text() -> None:
    data = full_turn()
    data["map"]["svg"] = None
    out = render_report(data, "html")
    assert '<img src="maps/round-03.svg" alt="The board after Germany&#39;s turn, round 3"' in out
    assert html_problems(out)[1] == []


def test_markdown_escapes_user_text() -> None:
    out = render_report(full_turn(), "md")
    assert r"\[b\]scones\[/b\] in \<London\> \| \*now\* \_please\_ \`now\`" in out
    assert "![The board after Germany's turn, round 3](<maps/round-03.svg>)" in out


def test_markdown_tables_have_a_cell_per_column() -> None:
    out = render_report(full_turn(), "md")
    for block in re.findall(r"(?:^\|.*\|\n)+", out, flags=re.M):
        rows = block.strip("\n").split("\n")
        widths = {len(re.split(r"(?<!\\)\|", row)) for row in rows}
        assert len(widths) == 1, block


@pytest.mark.parametrize("make", [full_turn, quiet_turn])
def test_text_fits_78_columns(make: Any) -> None:
    out = render_report(make(), "text")
    assert [line for line in out.splitlines() if len(line) > 78] == []
    assert out.endswith("\n") and not out.endswith("\n\n")


@pytest.mark.parametrize("make", [full_turn, quiet_turn])
def test_json_is_the_data_and_validates(make: Any) -> None:
    import jsonschema

    data = make()
    out = render_report(data, "json")
    assert json.loads(out) == data
    schema = json.loads((default_templates_dir().parent / "schemas" / "report.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(json.loads(out))


def test_local_seed_is_flagged_and_committed_dice_are_not() -> None:
    for fmt in ("md", "bbcode", "html", "text"):
        loud = render_report(full_turn(), fmt)
        assert "not verifiable: local seed" in loud.lower()
        quiet = render_report(quiet_turn(), fmt)
        assert "not verifiable" not in quiet.lower()
        assert "https://example.org/games/g-1942-07/round-3" in quiet
        assert "9f2c1e0b" in quiet and "The game is over." in quiet


def test_fixed_seed_is_flagged_too() -> None:
    data = full_turn()
    data["dice"]["mode"] = "fixed"
    data["dice"]["seed"] = "42"
    assert "NOT VERIFIABLE: FIXED SEED" in render_report(data, "text")


# ------------------------------------------------------------------ email, errors, user templates


def test_email_is_html_with_the_text_report_as_alternative() -> None:
    html, text = render_email(full_turn())
    assert html == render_report(full_turn(), "html")
    assert text == render_report(full_turn(), "text")


def test_bad_report_data_names_every_problem() -> None:
    data = full_turn()
    del data["round"]
    data["battles"][1]["kind"] = "air"
    data["moves"][0]["units"]["tank"] = 0
    with pytest.raises(ReportDataError) as caught:
        render_report(data, "md")
    message = str(caught.value)
    assert "report.schema.json" in message
    assert "'round' is a required property" in message
    assert "battles/1/kind" in message and "'air'" in message
    assert "moves/0/units/tank" in message
    assert len(caught.value.errors) == 3


def test_errors_inside_optional_parts_point_at_the_field() -> None:
    data = full_turn()
    data["purchases"]["total"] = -1
    data["awaiting"]["phase"] = ""
    with pytest.raises(ReportDataError) as caught:
        validate_report(data)
    assert caught.value.errors == [
        "awaiting/phase: '' should be non-empty",
        "purchases/total: -1 is less than the minimum of 0",
    ]


def test_unknown_keys_are_refused() -> None:
    data = full_turn()
    data["battles"][0]["odds"]["attacker_wins"] = 0.5
    with pytest.raises(ReportDataError, match="battles/0/odds"):
        validate_report(data)


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="md, bbcode, html, text, json"):
        render_report(full_turn(), "pdf")


def test_user_templates_override_one_format_and_fall_back_for_the_rest(tmp_path: Path) -> None:
    (tmp_path / "report.md.j2").write_text(
        "{{ report.power|md }} played round {{ report.round }}; {{ report.economy|length }} powers.\n",
        encoding="utf-8",
    )
    assert render_report(full_turn(), "md", templates_dir=tmp_path) == "Germany played round 3; 5 powers.\n"
    assert render_report(full_turn(), "text", templates_dir=tmp_path) == render_report(full_turn(), "text")


def test_user_template_with_a_typo_fails_loudly_with_its_file_and_line(tmp_path: Path) -> None:
    """A user error, not a traceback: the template's file and line, and Jinja's message."""
    (tmp_path / "report.txt.j2").write_text("first line\n{{ report.powr }}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"report\.txt\.j2:2: UndefinedError: .*powr"):
        render_report(full_turn(), "text", templates_dir=tmp_path)
    (tmp_path / "report.txt.j2").write_text("{% if %}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"report\.txt\.j2:1: TemplateSyntaxError"):
        render_report(full_turn(), "text", templates_dir=tmp_path)


def test_user_templates_are_sandboxed(tmp_path: Path) -> None:
    """A player's own template reads the report, never Python's internals."""
    (tmp_path / "report.md.j2").write_text("{{ cycler.__init__.__globals__ }}\n", encoding="utf-8")
    with pytest.raises(ValueError, match="SecurityError"):
        render_report(full_turn(), "md", templates_dir=tmp_path)


def test_missing_user_templates_dir_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        render_report(full_turn(), "md", templates_dir=tmp_path / "nowhere")


def test_our_templates_are_found() -> None:
    names = {path.name for path in default_templates_dir().iterdir()}
    assert {"report.md.j2", "report.bbcode.j2", "report.html.j2", "report.txt.j2"} <= names


def test_importing_the_renderer_loads_neither_jinja_nor_jsonschema() -> None:
    code = "import sys, pbem.report.render; print('jinja2' in sys.modules, 'jsonschema' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


# ------------------------------------------------------------------ filters


def test_plurals_of_unit_names() -> None:
    assert [plural(w) for w in ("tank", "infantry", "antiaircraft artillery", "industrial complex",
                                "battleship", "die", "aircraft carrier", "factory", "destroyer")] == [
        "tanks", "infantry", "antiaircraft artillery", "industrial complexes", "battleships", "dice",
        "aircraft carriers", "factories", "destroyers"]
    assert plural("tank", 1) == "tank"
    assert plural("armor") == "armor"  # Europe's rulebook: "two armor", never "armors"
    assert units_text({"tank": 2, "infantry": 1, "battleship": 1}) == "1 battleship, 1 infantry, 2 tanks"
    assert units_text({}) == "none"


def test_fixed_table_aligns_columns() -> None:
    assert fixed_table(["Power", "IPC"], [["Japan", 4], ["Germany", 98], ["UK", None]], "lr") == (
        "Power    IPC\n"
        "-------  ---\n"
        "Japan      4\n"
        "Germany   98\n"
        "UK         -"
    )


def test_md_code_survives_backticks() -> None:
    assert md_code("pbem audit") == "`pbem audit`"
    assert md_code("a `b` c") == "``a `b` c``"
    assert md_code("`x`") == "`` `x` ``"


def test_map_svg_with_an_xml_prolog_and_fixed_size_is_embedded_scaled() -> None:
    data = full_turn()
    data["map"]["svg"] = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 900 500" width="900" height="500">'
        '<title id="t">Board</title><rect width="900" height="500" fill="#cfe3f7"/></svg>'
    )
    out = render_report(data, "html")
    assert "<?xml" not in out
    assert '<svg style="max-width:100%;height:auto" xmlns="http://www.w3.org/2000/svg"' in out
    assert html_problems(out)[1] == []


def test_map_svg_must_be_svg_without_scripts() -> None:
    data = full_turn()
    data["map"]["svg"] = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    with pytest.raises(ReportDataError, match="map/svg"):
        render_report(data, "html")
    data["map"]["svg"] = "<div>not a map</div>"
    with pytest.raises(ReportDataError, match="map/svg"):
        render_report(data, "html")


def test_lines_ending_in_a_condition_keep_their_line_break() -> None:
    """A line whose last tag is `{% endif %}` lost its newline to trim_blocks: units lost aboard a
    sunk transport ran into the battle's result, and Pacific's victory points into the next heading."""
    data = full_turn()
    data["battles"][1]["lost_aboard"] = [
        {"power": "Germany", "unit": "infantry", "count": 2, "aboard": "transport"},
        {"power": "Germany", "unit": "fighter", "count": 2, "aboard": "aircraft carrier", "ships": 2},
    ]
    data["victory_points"] = {"power": "Japan", "total": 5, "to_win": 22, "scored": 2}
    md = render_report(data, "md").splitlines()
    assert "- Germany lost 2 infantry aboard the sunk transport" in md
    assert "- Germany lost 2 fighters aboard 2 sunk aircraft carriers" in md
    assert "- **Japan**: 5 of the 22 that win, 2 scored this turn" in md
    heading = md.index("## Victory points")
    assert md[heading + 4].startswith("## ") and md[heading + 3] == "", md[heading:heading + 5]
    bb = render_report(data, "bbcode").splitlines()
    assert "[*]Germany lost 2 infantry aboard the sunk transport" in bb
    assert "[*]Germany lost 2 fighters aboard 2 sunk aircraft carriers" in bb
    assert "[b]Japan[/b]: 5 of the 22 that win, 2 scored this turn" in bb
