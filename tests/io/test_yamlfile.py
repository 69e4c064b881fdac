"""pbem.io.yamlfile: hostile input is refused fast and located; dump/load round-trips."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine.problems import Problem, ProblemsError
from pbem.io.yamlfile import dump_yaml, load_yaml


@pytest.fixture(autouse=True, params=["libyaml", "pure-python"])
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs on both parsers PyYAML may use: libyaml when the wheel bundles it (its own
    limits and messages differ: issue 12), and the pure-Python one."""
    import yaml

    from pbem.io import yamlfile

    if request.param == "libyaml":
        if not getattr(yaml, "__with_libyaml__", False):
            pytest.skip("this PyYAML has no libyaml")
        monkeypatch.setattr(yamlfile, "_Loader", yaml.CSafeLoader)
    else:
        monkeypatch.setattr(yamlfile, "_Loader", yaml.SafeLoader)
    return str(request.param)


def refused(text: str | bytes, **options: object) -> Problem:
    with pytest.raises(ProblemsError) as caught:
        load_yaml(text, "orders.yaml", **options)  # type: ignore[arg-type]
    problems = caught.value.problems
    assert problems, "ProblemsError must carry at least one problem"
    for problem in problems:
        assert problem.kind == "invalid"
        assert problem.file == "orders.yaml"
        assert problem.line is not None and problem.line >= 1
        assert problem.column is not None and problem.column >= 1
        assert problem.hint
    return problems[0]


# ------------------------------------------------------------------ well-formed input


def test_plain_data_and_yaml11_scalars() -> None:
    doc = load_yaml(
        "a: 1\nb: 2.5\nc: yes\nd: off\ne: ~\nf: 'yes'\ng: 0x1f\nh: 2024-05-01\ni: text\nj:\n",
        "x.yaml")
    assert doc.data == {"a": 1, "b": 2.5, "c": True, "d": False, "e": None, "f": "yes",
                        "g": 31, "h": "2024-05-01", "i": "text", "j": None}
    assert type(doc.data["h"]) is str  # timestamps stay text: data is always plain


def test_bytes_with_bom_and_str_with_bom() -> None:
    assert load_yaml(b"\xef\xbb\xbfa: \xc3\xbc\n", "x").data == {"a": "ü"}
    assert load_yaml("\ufeffa: 1\n", "x").data == {"a": 1}


def test_empty_document_is_none_unless_a_mapping_is_expected() -> None:
    assert load_yaml("", "x").data is None
    assert load_yaml("# only a comment\n", "x").data is None
    assert "empty" in refused("", expect_mapping=True).message


def test_single_explicit_document_is_fine() -> None:
    assert load_yaml("---\na: 1\n...\n", "x").data == {"a": 1}


def test_anchor_without_alias_is_harmless() -> None:
    assert load_yaml("a: &x 1\n", "x").data == {"a": 1}


# ------------------------------------------------------------------ locating


NESTED = """\
powers:
  germany:
    units:
      - {type: infantry, at: Berlin}
      - type: tank
        at: Poland
  japan: {}
list:
  - - 1
    - 2
  - 3
"""


def test_locate_nested_maps_and_lists() -> None:
    doc = load_yaml(NESTED, "s.yaml")
    assert doc.locate(()) == (1, 1)
    assert doc.locate(("powers",)) == (2, 3)
    assert doc.key_location(("powers",)) == (1, 1)
    assert doc.locate(("powers", "germany", "units", 0)) == (4, 9)
    assert doc.locate(("powers", "germany", "units", 0, "at")) == (4, 30)
    assert doc.key_location(("powers", "germany", "units", 0, "at")) == (4, 26)
    assert doc.locate(("powers", "germany", "units", 1, "at")) == (6, 13)
    assert doc.key_location(("powers", "germany", "units", 1, "at")) == (6, 9)
    assert doc.locate(("powers", "japan")) == (7, 10)
    assert doc.locate(("list", 0, 1)) == (10, 7)
    assert doc.locate(("list", 1)) == (11, 5)


def test_locate_falls_back_to_nearest_ancestor() -> None:
    doc = load_yaml(NESTED, "s.yaml")
    assert doc.locate(("powers", "germany", "units", 7, "type")) == doc.locate(
        ("powers", "germany", "units"))
    assert doc.locate(("nope", "deeper")) == (1, 1)
    assert doc.key_location(("powers", "italy")) == doc.key_location(("powers",))


def test_problem_gets_located() -> None:
    doc = load_yaml(NESTED, "s.yaml")
    located = doc.problem(Problem(kind="illegal", message="no", path=("powers", "germany")))
    assert (located.file, located.line, located.column) == ("s.yaml", 3, 5)


# ------------------------------------------------------------------ hostile and broken input


def test_malformed_yaml_is_located_in_plain_english() -> None:
    problem = refused("a: 1\nb: c: d\n")
    assert (problem.line, problem.column) == (2, 5)
    assert "malformed" in problem.message and "quoted" in problem.hint


def test_unclosed_bracket_and_quote() -> None:
    assert "bracket" in refused("a: [1, 2\nb: 3\n").hint
    assert "quote" in refused("a: 'open\n").hint


def test_tab_indentation() -> None:
    problem = refused("a:\n\tb: 1\n")
    assert problem.line == 2 and "tab" in problem.hint


def test_control_character_located() -> None:
    problem = refused("a: ok\nb: x\x07y\n")
    assert (problem.line, problem.column) == (2, 5)


def test_duplicate_keys_name_both_lines_and_all_are_reported() -> None:
    with pytest.raises(ProblemsError) as caught:
        load_yaml("a: 1\nb:\n  c: 1\n  c: 2\na: 3\n", "o.yaml")
    problems = caught.value.problems
    assert [(p.line, p.code) for p in problems] == [(4, "yaml.duplicate-key"),
                                                    (5, "yaml.duplicate-key")]
    assert "line 3" in problems[0].message and "3" in problems[0].hint
    assert "line 1" in problems[1].message


def test_aliases_refused() -> None:
    problem = refused("base: &b {infantry: 1}\ncopy: *b\n")
    assert problem.code == "yaml.alias" and problem.line == 2


def test_billion_laughs_refused_fast() -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        refs = ",".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    problem = refused("\n".join(lines) + "\n")  # how fast: benchmarks/bench_yaml.py
    assert problem.code == "yaml.alias"


@pytest.mark.parametrize("text", [
    "a: !!python/object:os.system {}\n",
    "a: !!python/object/apply:os.system ['true']\n",
    "a: !foo bar\n",
    "a: !!binary aGVsbG8=\n",
    "a: !!str 1\n",
    "!!map {a: 1}\n",
    "a: ! x\n",
    "a: !<tag:example.com,2000:x> 1\n",
])
def test_any_explicit_tag_refused(text: str) -> None:
    problem = refused(text)
    assert "tags are not allowed" in problem.message
    assert problem.code == "yaml.tag"


def test_merge_key_refused() -> None:
    assert refused("a:\n  <<: {x: 1}\n").code == "yaml.merge"


def test_size_limit() -> None:
    big = "a: " + "x" * (1 << 20) + "\n"
    assert refused(big).code == "yaml.too-large"
    assert refused("a: 12345\n", max_bytes=5).code == "yaml.too-large"
    assert load_yaml("a: 1\n", "x", max_bytes=5).data == {"a": 1}


def test_nesting_limit_and_absurd_nesting() -> None:
    """Both parsers refuse absurd nesting as too deep: the pure-Python one by recursion, libyaml by its
    own 1,000-level limit (PyYAML 6.0.4's bundled libyaml); how fast is measured in benchmarks/."""
    assert load_yaml("x: " + "[" * 63 + "]" * 63, "x").data is not None
    assert refused("x: " + "[" * 64 + "]" * 64).code == "yaml.too-deep"
    assert refused("[" * 500_000).code == "yaml.too-deep"
    block = "".join("  " * i + f"k{i}:\n" for i in range(80))
    assert refused(block).code == "yaml.too-deep"
    assert refused("x: [[[1]]]\n", max_depth=3).code == "yaml.too-deep"


def test_huge_integer_refused_not_crashed() -> None:
    assert refused("a: " + "9" * 10_000 + "\n").code == "yaml.number"


def test_non_utf8_bytes() -> None:
    problem = refused(b"a: ok\nb: caf\xe9\n")
    assert (problem.line, problem.column) == (2, 7)
    assert "UTF-8" in problem.message
    assert "UTF-16" in refused("a: 1\n".encode("utf-16")).message


def test_not_a_mapping_when_one_is_expected() -> None:
    assert "list" in refused("- 1\n- 2\n", expect_mapping=True).message
    assert "string" in refused("just text\n", expect_mapping=True).message
    assert load_yaml("- 1\n", "x").data == [1]


def test_multiple_documents_refused() -> None:
    problem = refused("a: 1\n---\nb: 2\n")
    assert problem.code == "yaml.multiple-documents" and problem.line == 2


@pytest.mark.parametrize("key", ["1", "null", "~", "yes", "no", "on", "1.5"])
def test_keys_must_be_strings(key: str) -> None:
    problem = refused(f"{key}: x\nok: 1\n")
    assert problem.code == "yaml.key-not-string"
    assert (problem.line, problem.column) == (1, 1)
    assert f'"{key}"' in problem.hint
    quoted = f'"{key}": x\n'
    assert load_yaml(quoted, "x").data == {key: "x"}


def test_empty_key_refused() -> None:
    assert refused("? \n: x\n").code == "yaml.key-not-string"
    assert load_yaml('"": x\n', "x").data == {"": "x"}


def test_complex_keys_refused_with_rest_still_checked() -> None:
    with pytest.raises(ProblemsError) as caught:
        load_yaml("? [a, b]\n: 1\n? {c: 1}\n: {d: 2}\ne: 1\ne: 2\n", "x")
    assert [p.code for p in caught.value.problems] == [
        "yaml.key-not-string", "yaml.key-not-string", "yaml.duplicate-key"]


# ------------------------------------------------------------------ dumping


def test_dump_is_readable_block_yaml() -> None:
    data = {"b": {"infantry": 3, "tank": 1}, "a": ["yes", "1", "null", "2024-01-01", "ü"],
            "notes": "two\nlines\n", "empty": {}, "none": None}
    assert dump_yaml(data) == (
        "b:\n  infantry: 3\n  tank: 1\n"
        "a:\n  - 'yes'\n  - '1'\n  - 'null'\n  - '2024-01-01'\n  - ü\n"
        "notes: |\n  two\n  lines\n"
        "empty: {}\n"
        "none: null\n")


def test_dump_flow_leaves() -> None:
    data = {"germany": {"units": {"infantry": 3, "tank": 1}, "owned": ["Berlin", "Poland"],
                        "long": {f"territory_{i}": i for i in range(12)}}}
    text = dump_yaml(data, flow_leaves=True)
    assert "  units: {infantry: 3, tank: 1}\n" in text
    assert "  owned: [Berlin, Poland]\n" in text
    assert "  long:\n    territory_0: 0\n" in text  # too long for one line
    assert load_yaml(text, "x").data == data


def test_dump_never_writes_aliases() -> None:
    shared = {"infantry": 1}
    text = dump_yaml({"a": shared, "b": shared, "c": [shared, shared]})
    assert "&" not in text and "*" not in text
    assert load_yaml(text, "x").data == {"a": shared, "b": shared, "c": [shared, shared]}


def test_dump_is_deterministic_and_ends_with_newline() -> None:
    data = {"z": 1, "a": [1.5, 0.1, 1e20, -0.0, math.inf], "m": "x"}
    assert dump_yaml(data) == dump_yaml(dict(data))
    for value in ({}, [], "x", 1, None, {"a": "b"}):
        assert dump_yaml(value).endswith("\n") and not dump_yaml(value).endswith("\n\n")
        assert load_yaml(dump_yaml(value), "x").data == value


scalars = (st.none() | st.booleans() | st.integers(-(10**30), 10**30)
           | st.floats(allow_nan=False) | st.text(max_size=20))
plain = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(plain, st.booleans())
def test_dump_load_round_trip(data: object, flow_leaves: bool) -> None:
    text = dump_yaml(data, flow_leaves=flow_leaves)
    assert load_yaml(text, "x").data == data
    assert dump_yaml(load_yaml(text, "x").data, flow_leaves=flow_leaves) == text


def test_a_200_line_state_loads_and_dumps() -> None:
    """The size of a real state file (its timings are in benchmarks/bench_yaml.py)."""
    state = {f"territory_{i}": {"owner": "Germany", "units": {"infantry": i, "tank": 1}}
             for i in range(67)}
    text = dump_yaml(state)
    assert text.count("\n") >= 200
    assert load_yaml(text, "state.yaml").data == state
    assert load_yaml(dump_yaml(state, flow_leaves=True), "state.yaml").data == state


@pytest.mark.parametrize("text, code", [
    ("a: 1\nb: c: d\n", "yaml.syntax"),
    ("a: &x 1\nb: *x\n", "yaml.alias"),
    ("a: !!binary aGVsbG8=\n", "yaml.tag"),
    ("a: 1\na: 2\n", "yaml.duplicate-key"),
    ("x: " + "[" * 100 + "]" * 100, "yaml.too-deep"),
    ("a: 1\n---\nb: 2\n", "yaml.multiple-documents"),
    ("1: x\n", "yaml.key-not-string"),
])
def test_pure_python_parser_behaves_the_same(monkeypatch: pytest.MonkeyPatch, text: str,
                                             code: str) -> None:
    import yaml

    from pbem.io import yamlfile

    monkeypatch.setattr(yamlfile, "_Loader", yaml.SafeLoader)
    problem = refused(text)
    assert problem.code == code
    monkeypatch.undo()
    assert refused(text).line == problem.line
    monkeypatch.setattr(yamlfile, "_Loader", yaml.SafeLoader)
    assert load_yaml(NESTED, "s.yaml").locate(("powers", "germany", "units", 1, "at")) == (6, 13)


yamlish = st.lists(st.sampled_from(list("ab1 :-?[]{},&*!|>'\"#\n\t\\%@`~.")
                                   + ["yes", "null", "<<", "---", "\n  ", "\n- "]),
                   max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=80) | yamlish | st.text(max_size=40))
def test_arbitrary_input_never_crashes(text: bytes | str) -> None:
    try:
        doc = load_yaml(text, "fuzz.yaml")
    except ProblemsError as error:
        for problem in error.problems:
            assert problem.kind == "invalid" and problem.line and problem.column
    else:
        doc.locate(("a", 0, "b"))
        assert load_yaml(dump_yaml(doc.data), "x").data == doc.data


def test_lone_surrogate_in_text_is_a_problem() -> None:
    assert refused("a: ok\nb: \ud800\n").line == 2
