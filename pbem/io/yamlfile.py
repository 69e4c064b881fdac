"""Reading players' YAML safely and precisely, and writing state files players can diff.

Why not `yaml.safe_load`: it crashes or hangs on hostile input (alias bombs, deep nesting, huge
numbers), accepts duplicate keys silently (the last one wins: a lost order), and forgets where
each value was, so errors could not point at a line. Here the parser's *event stream* (libyaml's
C parser when available, PyYAML's pure one otherwise) is turned into plain data by a small
iterative builder that refuses what we do not want before it can cost anything, and records the
line and column of every key and value as it goes.

What is refused, always as `ProblemsError([Problem(kind="invalid", ...)])` with file, line,
column and a hint: malformed YAML, non-UTF-8 bytes, input over `max_bytes`, nesting deeper than
`max_depth`, aliases (`*name`, so alias bombs never expand), any explicit tag (`!!python/...`,
`!foo`, even `!!str`), merge keys (`<<`), keys that are not strings, duplicate keys, more than one
document, and (with `expect_mapping=True`) a document that is not a mapping.

YAML 1.1 scalars, as PyYAML resolves them, are kept on purpose so that a file means the same here
as in any other PyYAML tool: plain `yes`/`no`/`on`/`off`/`true`/`false` (any case variant PyYAML
knows) are booleans, `~`/`null`/empty are None, `0x1F`/`0o17`/`1_000`/`1:30` (sexagesimal) are
ints, `.inf`/`.nan` are floats. Two deliberate differences: timestamps (`2024-05-01`) stay
strings, so data is always plain JSON-like values; and since keys must be strings, a plain key
such as `no:` or `1:` is an error whose hint says to quote it.
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode

from pbem.engine.problems import PathItem, Problem, ProblemsError

try:  # libyaml: ~10x faster; the pure parser gives the same events.
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

__all__ = ["YamlDocument", "load_yaml", "read_user_file", "dump_yaml", "DEFAULT_MAX_BYTES", "DEFAULT_MAX_DEPTH"]

DEFAULT_MAX_BYTES = 1 << 20
DEFAULT_MAX_DEPTH = 64

_STR = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_SCALAR_BUILDERS = {
    "tag:yaml.org,2002:bool": _CONSTRUCTOR.construct_yaml_bool,
    "tag:yaml.org,2002:int": _CONSTRUCTOR.construct_yaml_int,
    "tag:yaml.org,2002:float": _CONSTRUCTOR.construct_yaml_float,
    "tag:yaml.org,2002:null": _CONSTRUCTOR.construct_yaml_null,
}
Location = tuple[int, int]
_TAG_NAMES = {
    "tag:yaml.org,2002:bool": "a boolean (YAML 1.1 reads yes/no/on/off as true/false)",
    "tag:yaml.org,2002:int": "a number",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:null": "null (nothing)",
}


@dataclass(frozen=True)
class YamlDocument:
    """Plain data plus where each part of it was written, for pointing errors at lines."""

    data: Any
    filename: str
    # path -> (line, column) of the value node, and of the key for mapping entries; 1-based.
    _values: dict[tuple[PathItem, ...], Location] = field(default_factory=dict, repr=False)
    _keys: dict[tuple[PathItem, ...], Location] = field(default_factory=dict, repr=False)

    def locate(self, path: tuple[PathItem, ...]) -> Location:
        """Line and column of the value at `path`, or of its nearest existing ancestor."""
        return _nearest(self._values, tuple(path))

    def key_location(self, path: tuple[PathItem, ...]) -> Location:
        """Line and column of the key naming `path` (list items and the root: their value)."""
        path = tuple(path)
        for end in range(len(path), -1, -1):
            prefix = path[:end]
            if prefix in self._keys:
                return self._keys[prefix]
            if prefix in self._values:
                return self._values[prefix]
        return (1, 1)

    def problem(self, problem: Problem) -> Problem:
        """`problem` with this file's name and the line/column of its `path` filled in."""
        line, column = self.locate(problem.path)
        return problem.located(self.filename, line, column)


def _nearest(index: dict[tuple[PathItem, ...], Location], path: tuple[PathItem, ...]) -> Location:
    for end in range(len(path), -1, -1):
        found = index.get(path[:end])
        if found is not None:
            return found
    return (1, 1)


def _mark(event: Event) -> Location:
    return (event.start_mark.line + 1, event.start_mark.column + 1)


class _Refused(Exception):
    """A fatal problem: stop building at once (cheap, whatever the rest of the input holds)."""

    def __init__(self, problem: Problem):
        self.problem = problem


@dataclass
class _Frame:
    """An open mapping or sequence while events stream in."""

    container: dict[str, Any] | list[Any]
    path: tuple[PathItem, ...]
    key: str | None = None  # mapping: the key waiting for its value
    key_at: Location = (1, 1)
    key_ok: bool = True  # False after a bad key: its value is skipped, not stored
    seen: dict[str, int] = field(default_factory=dict)  # key -> line, for duplicates


def read_user_file(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """A file a user names, read at most up to the size limit: a 100 MB file is refused from its
    size before it is read, and a file that never ends (a pipe, /dev/zero) after max_bytes + 1
    bytes, so no input can cost more memory or time than the limit."""
    name = os.fspath(path)

    def too_large(size: str) -> ProblemsError:
        return ProblemsError([Problem(kind="invalid", message=f"the file is {size}" + ("" if "over" in size else f", more than the limit of {max_bytes:,} bytes"),
                                      hint="split it up or remove what is not needed; orders and state files are small",
                                      file=name, line=1, column=1, code="yaml.too-large")])

    with open(name, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
            raise too_large(f"{info.st_size:,} bytes")
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise too_large(f"over {max_bytes:,} bytes (reading stopped there)")
    return data


def load_yaml(
    text: str | bytes,
    filename: str,
    *,
    expect_mapping: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> YamlDocument:
    """Parse one YAML document from a player or a data file into plain data with locations.

    Raises ProblemsError (kind "invalid") for anything described in the module docstring; fatal
    problems (syntax, aliases, tags, depth, size, encoding) stop at the first, while duplicate and
    non-string keys are all collected so the player can fix them in one go.
    """
    def invalid(message: str, hint: str, at: Location = (1, 1), code: str = "") -> Problem:
        return Problem(kind="invalid", message=message, hint=hint, file=filename,
                       line=at[0], column=at[1], code=code)

    if isinstance(text, str):
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError as error:  # lone surrogates, e.g. from a bad decode upstream
            raise ProblemsError([invalid(
                f"the text contains an invalid character {text[error.start]!r}",
                "save the file as UTF-8", _position(text, error.start), "yaml.encoding")]) from None
    else:
        size = len(text)
    if size > max_bytes:
        raise ProblemsError([invalid(
            f"the file is {size} bytes, more than the limit of {max_bytes}",
            "split it up or remove what is not needed; orders and state files are small",
            code="yaml.too-large")])
    if isinstance(text, bytes):
        text = _decode(text, invalid)
    elif text.startswith("\ufeff"):
        text = text[1:]

    problems: list[Problem] = []
    values: dict[tuple[PathItem, ...], Location] = {}
    keys: dict[tuple[PathItem, ...], Location] = {}
    try:
        data = _build(_events(text, invalid), values, keys, problems, invalid, max_depth)
    except _Refused as refused:
        raise ProblemsError([refused.problem]) from None
    if problems:
        raise ProblemsError(problems)
    if expect_mapping and not isinstance(data, dict):
        what = "empty" if data is None else f"a {_kind_name(data)}"
        raise ProblemsError([invalid(
            f"the document is {what}, but a mapping of keys to values is expected here",
            "write it as `key: value` lines at the left margin",
            values.get((), (1, 1)), code="yaml.not-mapping")])
    return YamlDocument(data, filename, values, keys)


def _position(text: str, offset: int) -> Location:
    before = text[:offset]
    return (before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1)


def _decode(raw: bytes, invalid: Any) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ProblemsError([invalid(
            "the file is UTF-16 encoded, not UTF-8",
            "save it as UTF-8 (every modern editor has this option)", code="yaml.encoding")])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", "replace")) + 1
        raise ProblemsError([invalid(
            f"the file is not valid UTF-8 (byte 0x{raw[error.start]:02x} at offset {error.start})",
            "save the file as UTF-8; it may have been written as Latin-1 or Windows-1252",
            (line, column), code="yaml.encoding")]) from None


_SYNTAX_HINTS = [
    ("mapping values are not allowed", "a value containing ': ' must be quoted, "
     "or the indentation of this line is wrong"),
    ("could not find expected ':'", "each entry needs `key: value`; check for a missing colon "
     "or a value broken over two lines"),
    ("did not find expected key", "check that this line is indented like its siblings"),
    ("expected <block end>", "check that this line is indented like its siblings"),
    ("'-' indicator", "list items (`- ...`) must line up under each other"),
    ("', but got '<stream end>'", "a bracket was opened and never closed"),
    ("did not find expected ','", "a bracket was opened and never closed, or a comma is missing"),
    ("expected ',' or ']'", "a bracket was opened and never closed, or a comma is missing"),  # the pure-Python parser
    ("expected ',' or '}'", "a bracket was opened and never closed, or a comma is missing"),
    ("unexpected end of stream", "a quote was opened and never closed"),
]


def _syntax_problem(error: yaml.YAMLError, text: str, invalid: Any) -> Problem:
    """A parser error in plain English, located, with a hint for the usual mistakes."""
    if isinstance(error, yaml.reader.ReaderError):
        at = _position(text, error.position)
        return invalid(f"the file contains the control character {chr(error.character)!r}, "
                       "which YAML does not allow", "remove the invisible character "
                       "(it often comes from copying text out of a web page)", at, "yaml.syntax")
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    at = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    context = getattr(error, "context", None)
    lines = text.splitlines()
    offending = lines[at[0] - 1][at[1] - 1: at[1]] if at[0] <= len(lines) else ""
    if offending == "\t":
        problem, hint = "a tab character", "YAML does not allow tabs for indentation; use spaces"
    else:
        hint = next((h for needle, h in _SYNTAX_HINTS if needle in problem),
                    "check the indentation and quoting on this line and the one before it")
    message = f"the YAML is malformed: {problem}" + (f" ({context})" if context else "")
    return invalid(message, hint, at, "yaml.syntax")


def _events(text: str, invalid: Any) -> Iterator[Event]:
    """The parser's events, with its errors turned into located problems."""
    try:
        loader = _Loader(text)
    except yaml.YAMLError as error:  # the pure-Python reader checks every character up front
        raise _Refused(_syntax_problem(error, text, invalid)) from None
    try:
        while True:
            try:
                event = loader.get_event()
            except yaml.YAMLError as error:
                if "nesting depth" in str(getattr(error, "problem", "")):  # libyaml's own limit (1,000 levels)
                    mark = getattr(error, "problem_mark", None)
                    at = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
                    raise _Refused(invalid("the YAML is nested far too deeply", "flatten the structure", at,
                                           code="yaml.too-deep")) from None
                raise _Refused(_syntax_problem(error, text, invalid)) from None
            except RecursionError:  # pure-Python parser on absurd nesting
                raise _Refused(invalid("the YAML is nested far too deeply",
                                       "flatten the structure", code="yaml.too-deep")) from None
            yield event
            if isinstance(event, StreamEndEvent):
                return
    finally:
        loader.dispose()


def _build(
    events: Iterator[Event],
    values: dict[tuple[PathItem, ...], Location],
    keys: dict[tuple[PathItem, ...], Location],
    problems: list[Problem],
    invalid: Any,
    max_depth: int,
) -> Any:
    """Plain data from events, iteratively (no recursion limit), recording every location."""
    stack: list[_Frame] = []
    root: Any = None
    documents = 0

    def place(value: Any, at: Location, event: Event) -> _Frame | None:
        """Put a finished value into the open container; returns its frame if it is one."""
        nonlocal root
        if not stack:
            path: tuple[PathItem, ...] = ()
            root = value
        else:
            top = stack[-1]
            if isinstance(top.container, list):
                path = top.path + (len(top.container),)
                top.container.append(value)
            else:  # a mapping's value; the key was handled when it arrived
                assert top.key is not None or not top.key_ok
                if top.key_ok and top.key is not None:
                    path = top.path + (top.key,)
                    top.container[top.key] = value
                    keys[path] = top.key_at
                else:
                    path = top.path + ("<bad key>",)
                top.key = None
                top.key_ok = True
        values[path] = at
        if isinstance(value, (dict, list)):
            if len(stack) >= max_depth:
                raise _Refused(invalid(
                    f"the YAML is nested more than {max_depth} levels deep",
                    "flatten the structure; no pbem file needs this much nesting",
                    at, "yaml.too-deep"))
            return _Frame(value, path)
        return None

    def awaiting_key() -> bool:
        top = stack[-1] if stack else None
        return isinstance(top, _Frame) and isinstance(top.container, dict) and top.key is None \
            and top.key_ok

    for event in events:
        if isinstance(event, StreamEndEvent):
            break
        if isinstance(event, DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise _Refused(invalid(
                    "the file holds more than one YAML document",
                    "remove the `---` line and everything after it, or split the file",
                    _mark(event), "yaml.multiple-documents"))
            continue
        if isinstance(event, AliasEvent):
            raise _Refused(invalid(
                f"aliases are not allowed (*{event.anchor})",
                "write the value out in full instead of referring to an anchor",
                _mark(event), "yaml.alias"))
        tag = getattr(event, "tag", None)
        if tag is not None:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise _Refused(invalid(
                f"tags are not allowed ({shown})",
                "remove the `!...` tag; write plain values, quoted if they must stay text",
                _mark(event), "yaml.tag"))
        at = _mark(event)
        if isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            stack.pop()
            continue
        if stack and awaiting_key():
            _take_key(stack[-1], event, at, problems, invalid)
            if not stack[-1].key_ok and not isinstance(event, ScalarEvent):
                # a complex key: skip its whole subtree, then skip its value as well
                _skip(events, max_depth, invalid)
            continue
        if isinstance(event, ScalarEvent):
            place(_scalar(event, at, invalid), at, event)
        elif isinstance(event, MappingStartEvent):
            frame = place({}, at, event)
            assert frame is not None
            stack.append(frame)
        elif isinstance(event, SequenceStartEvent):
            frame = place([], at, event)
            assert frame is not None
            stack.append(frame)
    return root


def _take_key(frame: _Frame, event: Event, at: Location, problems: list[Problem],
              invalid: Any) -> None:
    frame.key_at = at
    if not isinstance(event, ScalarEvent):
        frame.key_ok = False
        problems.append(invalid("keys must be plain strings, not a list or a mapping",
                                "write the key as a single word or quoted text", at,
                                "yaml.key-not-string"))
        return
    tag = _STR if not event.implicit[0] else _RESOLVER.resolve(ScalarNode, event.value,
                                                                event.implicit)
    if tag == "tag:yaml.org,2002:merge":
        raise _Refused(invalid("merge keys (<<) are not allowed",
                               "write the entries out in full", at, "yaml.merge"))
    if tag not in (_STR, "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:value"):
        frame.key_ok = False
        kind = _TAG_NAMES.get(tag, tag)
        shown = event.value if event.value else "an empty key"
        problems.append(invalid(
            f"keys must be strings, but {shown} is read as {kind}",
            f"quote it: \"{event.value}\":" if event.value else "give the entry a name",
            at, "yaml.key-not-string"))
        return
    line = frame.seen.get(event.value)
    if line is not None:
        frame.key_ok = False
        problems.append(invalid(
            f"duplicate key {event.value!r}: it is also on line {line}",
            f"keep only one {event.value!r} entry (lines {line} and {at[0]}); YAML would "
            "silently use the last one", at, "yaml.duplicate-key"))
        return
    frame.seen[event.value] = at[0]
    frame.key = event.value


def _skip(events: Iterator[Event], max_depth: int, invalid: Any) -> None:
    """Consume the rest of a collection already opened (used for keys we refused)."""
    depth = 1
    for event in events:
        if isinstance(event, AliasEvent):
            raise _Refused(invalid(f"aliases are not allowed (*{event.anchor})",
                                   "write the value out in full", _mark(event), "yaml.alias"))
        if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
            depth += 1
            if depth > max_depth:
                raise _Refused(invalid(f"the YAML is nested more than {max_depth} levels deep",
                                       "flatten the structure", _mark(event), "yaml.too-deep"))
        elif isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            depth -= 1
            if depth == 0:
                return


def _scalar(event: ScalarEvent, at: Location, invalid: Any) -> Any:
    if not event.implicit[0]:
        return event.value  # quoted: always text
    tag = _RESOLVER.resolve(ScalarNode, event.value, event.implicit)
    build = _SCALAR_BUILDERS.get(tag)
    if build is None:
        return event.value  # str, and timestamps / `=` kept as their text
    node = ScalarNode(tag, event.value, event.start_mark, event.end_mark)
    try:
        return build(node)
    except (ValueError, OverflowError):
        raise _Refused(invalid(f"the number {event.value[:40]!r}... is too large",
                               "use a smaller number, or quote it if it is meant as text", at,
                               "yaml.number")) from None


def _kind_name(value: Any) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "string"


# --------------------------------------------------------------------------- writing


FLOW_LEAF_WIDTH = 72  # rendered length up to which a mapping/list of scalars goes on one line
_PLAINISH = re.compile(r"[^\n\r\x85\u2028\u2029]*")


class _Dumper(yaml.SafeDumper):
    """The pure-Python emitter on purpose: byte-identical output with or without libyaml."""

    flow_leaves = False

    def ignore_aliases(self, data: Any) -> bool:
        return True  # repeated objects are written out again, never as &anchor / *alias

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)  # list items indented under their key: clearer


_UNICODE_BREAKS = re.compile("[\x85\u2028\u2029\ufeff]")


def _represent_str(dumper: _Dumper, value: str) -> yaml.Node:
    style: str | None = None
    if _UNICODE_BREAKS.search(value):
        style = '"'  # PyYAML writes these raw in other styles and reads them back as spaces
    elif "\n" in value and _PLAINISH.fullmatch(value.replace("\n", "")):
        style = "|"
    return dumper.represent_scalar(_STR, value, style=style)


def _represent_float(dumper: _Dumper, value: float) -> yaml.Node:
    if math.isnan(value) or math.isinf(value):
        return yaml.SafeDumper.represent_float(dumper, value)
    text = repr(value)  # shortest round-tripping form, e.g. 0.1 not 0.10000000000000001
    if "." not in text and "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    elif "." not in text:
        text += ".0"
    return dumper.represent_scalar("tag:yaml.org,2002:float", text)


def _short_leaves(nodes: list[yaml.Node]) -> bool:
    width = 0
    for node in nodes:
        if not isinstance(node, ScalarNode) or node.style == "|" or "\n" in node.value:
            return False
        width += len(node.value) + 2
    return width <= FLOW_LEAF_WIDTH


def _represent_dict(dumper: _Dumper, value: dict[Any, Any]) -> yaml.Node:
    node = dumper.represent_mapping("tag:yaml.org,2002:map", value.items())
    node.flow_style = bool(dumper.flow_leaves and value
                           and _short_leaves([n for pair in node.value for n in pair]))
    return node


def _represent_list(dumper: _Dumper, value: list[Any]) -> yaml.Node:
    node = dumper.represent_sequence("tag:yaml.org,2002:seq", value)
    node.flow_style = bool(dumper.flow_leaves and value and _short_leaves(node.value))
    return node


class _FlowLeavesDumper(_Dumper):
    flow_leaves = True


for _cls in (_Dumper, _FlowLeavesDumper):
    _cls.add_representer(str, _represent_str)
    _cls.add_representer(float, _represent_float)
    _cls.add_representer(dict, _represent_dict)
    _cls.add_representer(list, _represent_list)
    _cls.add_representer(tuple, _represent_list)


def dump_yaml(data: Any, *, flow_leaves: bool = False) -> str:
    """Deterministic, block-style YAML for files players read and diff; always ends in a newline.

    Keys keep the order given (callers sort when they want sorted output). Strings that would
    read back as something else (`"yes"`, `"1"`, `"null"`, `"2024-01-01"`) are quoted; unicode is
    written as is; multi-line strings use `|` blocks; no anchors or aliases, ever. With
    `flow_leaves=True`, short mappings and lists whose items are all scalars go on one line,
    e.g. `germany: {infantry: 3, tank: 1}`. Only plain data (dict, list, tuple, str, int, float,
    bool, None) is accepted.
    """
    dumper = _FlowLeavesDumper if flow_leaves else _Dumper
    text = yaml.dump(data, Dumper=dumper, default_flow_style=False, sort_keys=False,
                     allow_unicode=True, width=1_000_000, indent=2, explicit_start=False)
    assert isinstance(text, str)
    if text.endswith("\n...\n"):  # a bare top-level scalar gets a document-end marker
        text = text[: -len("...\n")]
    return text if text.endswith("\n") else text + "\n"
