"""Rule cases as data: one power's turn from a stated position, with fixed dice and expectations.

As the Diplomacy world keeps its rulings in the DATC, pbem keeps the rules it enforces as cases
that anyone can read, run and reuse: `pbem case run PATH...` (format: schemas/case.schema.json,
README "Rule cases"). A case runs the same code path as a real adjudication: the orders and
standing orders are read by the orders reader, the turn by the engine, the report built by the
report builder; only the dice are fixed, per roll label.

Every mistake in a case file is a located message and a FAIL of that case, never a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pbem.engine.problems import ProblemsError
from pbem.engine.turn import run_turn
from pbem.io.yamlfile import YamlDocument, dump_yaml, load_yaml, read_user_file

CASE_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Case:
    """One case, with where it was read from (for messages)."""

    path: Path
    index: int
    data: Mapping[str, Any]
    ruleset: str
    options: Mapping[str, Any]
    doc: YamlDocument

    @property
    def name(self) -> str:
        return str(self.data.get("name", f"case {self.index + 1}"))

    @property
    def section(self) -> str:
        return str(self.data.get("section", ""))

    @property
    def where(self) -> str:
        return f"{self.path}::{self.name}"

    def at(self, *keys: Any) -> str:
        """file:line:column of a key of this case, for messages."""
        line, column = self.doc.locate(("cases", self.index, *keys))
        return f"{self.path}:{line}:{column}"


@dataclass
class CaseResult:
    case: Case | None
    where: str
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def line(self) -> str:
        if self.passed:
            return f"PASS {self.where}"
        return f"FAIL {self.where}: " + "; ".join(self.failures)


class CaseError(Exception):
    """A mistake in a case file; the message is located."""


# ------------------------------------------------------------------ reading
def case_files(paths: Iterable[str | Path]) -> list[Path]:
    """The case files named, folders searched for *.yaml, in a stable order."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.suffix in CASE_SUFFIXES and f.is_file()))
        else:
            out.append(p)
    return out


def read_cases(path: Path) -> tuple[list[Case], list[CaseResult]]:
    """The cases of one file, or one FAIL result saying why the file cannot be read."""
    from pbem.io.schemas import check

    try:
        doc = load_yaml(read_user_file(path), str(path), expect_mapping=True)
    except ProblemsError as err:
        return [], [CaseResult(None, str(path), [p.format().replace("\n", " ") for p in err.problems[:5]])]
    except OSError as err:
        return [], [CaseResult(None, str(path), [f"cannot read the file: {err.strerror or err}"])]
    problems = check("case", doc.data)
    if problems:
        located = []
        for p in problems[:5]:
            line, column = doc.locate(p.path)
            located.append(f"{path}:{line}:{column}: {p.message}" + (f" ({p.hint})" if p.hint else ""))
        return [], [CaseResult(None, str(path), located)]
    data = doc.data
    cases = []
    for i, raw in enumerate(data["cases"]):
        cases.append(Case(path, i, raw, str(raw.get("ruleset") or data.get("ruleset") or ""),
                          {**dict(data.get("options") or {}), **dict(raw.get("options") or {})}, doc))
    return cases, []


# ------------------------------------------------------------------ running
class _CaseGame:
    """What the report builder needs of a game, for a case that has no repository."""

    def __init__(self, ruleset: Any, rules: Any, combat_rules: Any, options: Mapping[str, Any]):
        from pbem.game.game import GameConfig

        self.ruleset, self.rules, self.combat_rules = ruleset, rules, combat_rules
        self.config = GameConfig("case", ruleset.id, ruleset.data_hash, "pbem", {p.name: "" for p in ruleset.powers},
                                 dict(options), {"mode": "local", "algorithm": "fixed dice of the case"})


def run_case(case: Case) -> CaseResult:
    """Run one case; every failure (of the rules or of the case file) is a line of the result."""
    result = CaseResult(case, case.where)
    try:
        _run(case, result.failures)
    except CaseError as err:
        result.failures.append(str(err))
    return result


def run_paths(paths: Iterable[str | Path]) -> Iterator[CaseResult]:
    for path in case_files(paths):
        cases, broken = read_cases(path)
        yield from broken
        for case in cases:
            yield run_case(case)


def _run(case: Case, failures: list[str]) -> None:
    from pbem.dice import DiceExhausted, FixedDice
    from pbem.io.rulesets import load_ruleset, rules_for

    try:
        ruleset = load_ruleset(case.ruleset)
    except (KeyError, ValueError, OSError, ProblemsError) as err:
        raise CaseError(f"{case.at('ruleset') if 'ruleset' in case.data else case.path}: unknown rule system "
                        f"{case.ruleset!r} ({err})") from None
    rules, combat_rules = rules_for(ruleset)
    from pbem.io.options import option_problem

    wrong = option_problem(ruleset, case.options)
    if wrong:
        raise CaseError(f"{case.at('options') if 'options' in case.data else case.path}: {wrong}")
    options = {**ruleset.option_defaults(), **case.options}
    before = _state(case, ruleset, rules, options)
    mover = ruleset.powers[before.turn_index].name
    orders = _orders(case, ruleset, mover, before.round)
    standing = _standing(case, ruleset)
    expect = case.data.get("expect") or {}
    # as a real game does: the orders are validated when submitted, then the turn is adjudicated
    checked = run_turn(ruleset, rules, combat_rules, before, orders, standing, options, None)
    codes = sorted(p.code or "?" for p in checked.problems)
    if "warnings" in expect:
        warned = sorted(p.code or "?" for p in checked.warnings)
        if warned != sorted(expect["warnings"]):
            failures.append(f"warnings {warned or 'none'}, expected {sorted(expect['warnings']) or 'none'}"
                            + "".join(f" [{p.message}]" for p in checked.warnings[:3]))
    warned_text = " ".join(f"{p.message} {p.rule or ''} {p.hint or ''}" for p in checked.warnings)
    for wanted in expect.get("warning_text") or []:
        if wanted not in warned_text:
            failures.append(f"the warnings do not say {wanted!r} (they say: {warned_text[:300] or 'nothing'})")
    if "problems" in expect or checked.problems:
        if "problems" not in expect:
            failures.append("the orders were refused: " + "; ".join(f"{p.code}: {p.message}" for p in checked.problems[:3]))
        elif codes != sorted(expect["problems"]):
            failures.append(f"problems {codes or 'none'}, expected {sorted(expect['problems']) or 'none'}"
                            + "".join(f" [{p.code}: {p.message}]" for p in checked.problems[:3]))
        said = " ".join(f"{p.message} {p.rule or ''} {p.hint or ''}" for p in checked.problems)
        for wanted in expect.get("problem_text") or []:
            if wanted not in said:
                failures.append(f"the refusal does not say {wanted!r} (it says: {said[:300]})")
        return
    dice = FixedDice({**dict(case.data.get("optional_dice") or {}), **dict(case.data.get("dice") or {})})
    try:
        turn = run_turn(ruleset, rules, combat_rules, before, orders, standing, options, dice)
    except DiceExhausted as err:
        failures.append(f"the turn rolled dice the case does not give: {err}")
        return
    if turn.problems:  # validation passed: a check the dice changed refused them (a real game could not go on)
        failures.append("the orders, valid when submitted, were refused at adjudication: "
                        + "; ".join(f"{p.code}: {p.message}" for p in turn.problems[:3]))
        return
    given = dict(case.data.get("dice") or {})
    left = {label: faces for label, faces in dice.remaining().items() if label in given}
    if left:
        failures.append("dice given but not rolled: " + ", ".join(f"{k} {list(v)}" for k, v in sorted(left.items()))
                        + " (list them under optional_dice if they may not be rolled)")
    _check_after(case, ruleset, turn.state, expect, failures)
    if "dice" in expect:
        rolled = [r.label for r in dice.log]
        if rolled != list(expect["dice"]):
            failures.append(f"dice rolled {rolled}, expected {list(expect['dice'])}")
    if "battles" in expect or "report" in expect or "report_not" in expect:
        report = _report(ruleset, rules, combat_rules, options, before, turn, dice)
        _check_battles(case, ruleset, report, expect.get("battles") or [], failures)
        if "report" in expect or "report_not" in expect:
            from pbem.report.render import render_report

            text = " ".join(render_report(report, "text").split())  # as read, whatever the line breaks
            for wanted in expect.get("report") or []:
                if " ".join(wanted.split()) not in text:
                    failures.append(f"the report does not say {wanted!r}")
            for unwanted in expect.get("report_not") or []:
                if " ".join(unwanted.split()) in text:
                    failures.append(f"the report says {unwanted!r}")


def _state(case: Case, ruleset: Any, rules: Any, options: Mapping[str, Any]) -> Any:
    from pbem.io.state import initial_state, load_state

    spec = case.data.get("state") or {}
    if "file" in spec:
        path = (case.path.parent / str(spec["file"])).resolve()
        try:
            state = load_state(read_user_file(path), ruleset, str(path))
        except (OSError, ProblemsError) as err:
            raise CaseError(f"{case.at('state', 'file')}: cannot read the state {spec['file']!r}: {err}") from None
    else:
        # a case of round 0 plays the cash advance; any other starts in round 1 (Rules.hooks.cash_advance)
        state = initial_state(ruleset, options, rules, cash_advance=spec.get("round") == 0)
    units = {s: {o: dict(t) for o, t in by.items()} for s, by in state.units.items() if s not in set(
        _space(case, ruleset, s, ("state", "clear")) for s in spec.get("clear") or [])}
    for text, by_power in (spec.get("units") or {}).items():
        space = _space(case, ruleset, text, ("state", "units", text))
        units[space] = {_power(case, ruleset, p, ("state", "units", text, p)): _units(case, ruleset, u, ("state", "units", text, p))
                        for p, u in by_power.items()}
        units[space] = {p: u for p, u in units[space].items() if u}
    control = dict(state.control)
    for text, power in (spec.get("control") or {}).items():
        control[_space(case, ruleset, text, ("state", "control", text))] = _country(case, ruleset, power, ("state", "control", text))
    treasury = dict(state.treasury)
    for power, amount in (spec.get("treasury") or {}).items():
        treasury[_country(case, ruleset, power, ("state", "treasury", power))] = int(amount)
    damage = dict(state.damage)
    for text, points in (spec.get("damage") or {}).items():
        damage[_damage_key(case, ruleset, text, ("state", "damage", text))] = int(points)
    developments = dict(state.developments)
    for power, names in (spec.get("developments") or {}).items():
        developments[_power(case, ruleset, power, ("state", "developments", power))] = tuple(sorted(
            _development(case, rules, n, ("state", "developments", power)) for n in names))
    pending = dict(state.pending)
    if spec.get("combat_air_patrol"):
        pending["cap"] = {_space(case, ruleset, z, ("state", "combat_air_patrol", z)):
                          {_power(case, ruleset, p, ("state", "combat_air_patrol", z, p)): int(n) for p, n in by.items()}
                          for z, by in spec["combat_air_patrol"].items()}
    if spec.get("victory_points"):
        pending["victory_points"] = {_power(case, ruleset, p, ("state", "victory_points", p)): int(n)
                                     for p, n in spec["victory_points"].items()}
    if spec.get("at_war"):
        # pairs of powers at war besides the opening wars (Rules.politics)
        if rules is None or rules.politics is None:
            raise CaseError(f"{case.at('state', 'at_war')}: in {ruleset.id} the sides are always at war")
        wars = {frozenset(p) for p in (pending.get("war") or rules.politics.at_war)}  # type: ignore[union-attr]
        for i, pair in enumerate(spec["at_war"]):
            wars.add(frozenset(_power(case, ruleset, p, ("state", "at_war", i)) for p in pair))
        pending["war"] = sorted(sorted(p) for p in wars)
    if spec.get("damaged_units"):
        # two-hit units that begin the turn damaged (CombatRules.two_hit_repair keeps the hit)
        pending["damaged"] = {
            _space(case, ruleset, text, ("state", "damaged_units", text)): {
                _power(case, ruleset, p, ("state", "damaged_units", text, p)): _units(case, ruleset, u, ("state", "damaged_units", text, p))
                for p, u in by.items()}
            for text, by in spec["damaged_units"].items()}
    if spec.get("facts"):
        pending["facts"] = sorted({*(pending.get("facts") or []), *(str(f) for f in spec["facts"])})  # type: ignore[misc]
    if spec.get("once"):
        pending["once"] = sorted({*(pending.get("once") or []), *(str(f) for f in spec["once"])})  # type: ignore[misc]
    if spec.get("tokens"):
        # victory tokens held (AMS): objective -> side; each counts as claimed before
        pending["tokens"] = {str(k): str(v) for k, v in sorted(spec["tokens"].items())}
        pending["tokens_claimed"] = sorted({*(pending.get("tokens_claimed") or []), *pending["tokens"]})  # type: ignore[misc]
    if spec.get("tokens_claimed"):
        pending["tokens_claimed"] = sorted({*(pending.get("tokens_claimed") or []), *(str(t) for t in spec["tokens_claimed"])})  # type: ignore[misc]
    if spec.get("victory_held"):
        held = spec["victory_held"]
        if held["side"] not in {p.side for p in ruleset.powers}:
            raise CaseError(f"{case.at('state', 'victory_held', 'side')}: {held['side']!r} is not a side of {ruleset.id}")
        pending["victory_held"] = {"side": str(held["side"]), "round": int(held["round"]),
                                   "power": _power(case, ruleset, held["power"], ("state", "victory_held", "power"))}
    if spec.get("exiles"):
        pending["exiles"] = {str(k): _space(case, ruleset, v, ("state", "exiles", k)) for k, v in sorted(spec["exiles"].items())}
    turn_index = state.turn_index
    if "power" in spec:
        turn_index = [p.name for p in ruleset.powers].index(_power(case, ruleset, spec["power"], ("state", "power")))
    return replace(state, turn_index=turn_index, round=int(spec.get("round", state.round)), units=units, control=control,
                   treasury=treasury, damage=damage, developments=developments, pending=pending)


def _orders(case: Case, ruleset: Any, mover: str, round_: int) -> Any:
    from pbem.engine.orders import Orders
    from pbem.io.orders import read_orders_text

    raw = case.data.get("orders") or {}
    if isinstance(raw, str):
        text = raw
    else:
        text = dump_yaml({"power": mover, "round": round_, **dict(raw)})
    try:
        _, orders = read_orders_text(text, f"{case.where} orders", ruleset)
    except ProblemsError as err:
        raise CaseError(f"{case.at('orders')}: the orders cannot be read: " + "; ".join(p.message for p in err.problems[:3])) from None
    if not isinstance(orders, Orders):
        raise CaseError(f"{case.at('orders')}: these are standing orders; give them under standing:")
    return orders


def _standing(case: Case, ruleset: Any) -> dict[str, Any]:
    from pbem.io.orders import read_orders_text

    out = {}
    for power, body in (case.data.get("standing") or {}).items():
        name = _power(case, ruleset, power, ("standing", power))
        try:
            _, parsed = read_orders_text(dump_yaml({"power": name, "standing_orders": body}), f"{case.where} standing", ruleset)
        except ProblemsError as err:
            raise CaseError(f"{case.at('standing', power)}: the standing orders cannot be read: "
                            + "; ".join(p.message for p in err.problems[:3])) from None
        out[name] = parsed
    return out


def _report(ruleset: Any, rules: Any, combat_rules: Any, options: Mapping[str, Any], before: Any, turn: Any, dice: Any) -> dict[str, Any]:
    from pbem.game.reportdata import build_report

    info = {"mode": "local", "link": "fixed dice of the case", "index": 0, "state_hash": "", "orders_hash": "", "opponents": {}}
    return build_report(_CaseGame(ruleset, rules, combat_rules, options), before, turn, info, dice)  # type: ignore[arg-type]


# ------------------------------------------------------------------ expectations
def _check_after(case: Case, ruleset: Any, after: Any, expect: Mapping[str, Any], failures: list[str]) -> None:
    for text, by_power in (expect.get("units") or {}).items():
        space = _space(case, ruleset, text, ("expect", "units", text))
        for power_text, units in by_power.items():
            power = _power(case, ruleset, power_text, ("expect", "units", text, power_text))
            wanted = _units(case, ruleset, units, ("expect", "units", text, power_text))
            found = {u: n for u, n in (after.units.get(space, {}).get(power) or {}).items() if n}
            if found != wanted:
                failures.append(f"{power} has {_show(found)} in {space}, expected {_show(wanted)}")
    for text, power_text in (expect.get("control") or {}).items():
        space = _space(case, ruleset, text, ("expect", "control", text))
        power = _country(case, ruleset, power_text, ("expect", "control", text))
        if after.control.get(space) != power:
            failures.append(f"{space} is held by {after.control.get(space) or 'nobody'}, expected {power}")
    for power_text, amount in (expect.get("treasury") or {}).items():
        power = _country(case, ruleset, power_text, ("expect", "treasury", power_text))
        if after.treasury.get(power, 0) != int(amount):
            failures.append(f"{power} has {after.treasury.get(power, 0)} IPCs, expected {amount}")
    for text, points in (expect.get("damage") or {}).items():
        space = _damage_key(case, ruleset, text, ("expect", "damage", text))
        if after.damage.get(space, 0) != int(points):
            what = f"the {space.partition('/')[2]} in {space.partition('/')[0]}" if "/" in space else f"the complex in {space}"
            failures.append(f"{what} has {after.damage.get(space, 0)} damage, expected {points}")
    if "damaged" in expect:
        # two-hit units left damaged (GameState.pending["damaged"]); {} : none
        wanted_hurt = {}
        for text, by_power in (expect.get("damaged") or {}).items():
            space = _space(case, ruleset, text, ("expect", "damaged", text))
            for power_text, units in by_power.items():
                power = _power(case, ruleset, power_text, ("expect", "damaged", text, power_text))
                wanted_hurt.setdefault(space, {})[power] = _units(case, ruleset, units, ("expect", "damaged", text, power_text))
        found_hurt = dict(after.pending.get("damaged") or {})
        if found_hurt != wanted_hurt:
            failures.append(f"damaged units {found_hurt}, expected {wanted_hurt}")
    for power_text, points in (expect.get("victory_points") or {}).items():
        power = _power(case, ruleset, power_text, ("expect", "victory_points", power_text))
        found_points = int((after.pending.get("victory_points") or {}).get(power, 0))
        if found_points != int(points):
            failures.append(f"{power} has {found_points} victory points, expected {points}")
    for power_text, names in (expect.get("developments") or {}).items():
        power = _power(case, ruleset, power_text, ("expect", "developments", power_text))
        found_dev = sorted(after.developments.get(power, ()))
        if found_dev != sorted(str(n) for n in names):
            failures.append(f"{power} has developed {found_dev or 'nothing'}, expected {sorted(str(n) for n in names) or 'nothing'}")
    wars = {frozenset(p) for p in (after.pending.get("war") or [])}
    for key, side in (("at_war", True), ("at_peace", False)):
        for i, pair in enumerate(expect.get(key) or []):
            powers = frozenset(_power(case, ruleset, p, ("expect", key, i)) for p in pair)
            if (powers in wars) != side:
                failures.append(f"{' and '.join(sorted(powers))} are {'at peace' if side else 'at war'}, expected {'war' if side else 'peace'}")
    facts = set(after.pending.get("facts") or [])  # type: ignore[call-overload]
    for fact in expect.get("facts") or []:
        if fact not in facts:
            failures.append(f"the game records no fact {fact!r}; it records {sorted(facts) or 'none'}")
    for objective, holder in (expect.get("tokens") or {}).items():
        found_token = (after.pending.get("tokens") or {}).get(str(objective))
        if found_token != holder:
            failures.append(f"the victory token {objective!r} is held by {found_token or 'nobody'}, expected {holder or 'nobody'}")
    for key, value in (expect.get("victory") or {}).items():
        if after.victory.get(key) != value:
            failures.append(f"victory {key} {after.victory.get(key)!r}, expected {value!r}")
    if "winner" in expect and after.winner != expect["winner"]:
        failures.append(f"winner {after.winner!r}, expected {expect['winner']!r}")


def _check_battles(case: Case, ruleset: Any, report: Mapping[str, Any], wanted: list[Mapping[str, Any]], failures: list[str]) -> None:
    battles = {b["space"]: b for b in report.get("battles") or []}
    for i, spec in enumerate(wanted):
        space = _space(case, ruleset, spec["space"], ("expect", "battles", i, "space"))
        battle = battles.get(space)
        if battle is None:
            failures.append(f"no battle in {space} (battles: {', '.join(battles) or 'none'})")
            continue
        if "result" in spec and battle["result"] != spec["result"]:
            failures.append(f"the battle in {space} ended {battle['result']}, expected {spec['result']}")
        if "rounds" in spec and len(battle["rounds"]) != int(spec["rounds"]):
            failures.append(f"the battle in {space} lasted {len(battle['rounds'])} round(s), expected {spec['rounds']}")
        if "casualties" in spec:
            lost: dict[str, dict[str, int]] = {}
            for r in battle["rounds"]:
                for step in r.get("steps", []):
                    for c in step.get("casualties", []):
                        if not c.get("damaged"):
                            units = lost.setdefault(c["power"], {})
                            units[c["unit"]] = units.get(c["unit"], 0) + int(c["count"])
            for power_text, units in spec["casualties"].items():
                power = _power(case, ruleset, power_text, ("expect", "battles", i, "casualties", power_text))
                want = _units(case, ruleset, units, ("expect", "battles", i, "casualties", power_text))
                if lost.get(power, {}) != want:
                    failures.append(f"in {space} {power} lost {_show(lost.get(power, {}))}, expected {_show(want)}")
        if "survivors" in spec:
            left: dict[str, dict[str, int]] = {}
            for side in ("attacker", "defender"):
                for entry in battle["survivors"][side]:
                    left.setdefault(entry["power"], {}).update(entry["units"])
            for power_text, units in spec["survivors"].items():
                power = _power(case, ruleset, power_text, ("expect", "battles", i, "survivors", power_text))
                want = _units(case, ruleset, units, ("expect", "battles", i, "survivors", power_text))
                if left.get(power, {}) != want:
                    failures.append(f"in {space} {power} has {_show(left.get(power, {}))} left, expected {_show(want)}")


# ------------------------------------------------------------------ names
def _space(case: Case, ruleset: Any, text: Any, where: tuple[Any, ...]) -> str:
    from pbem.io.orders import names_for

    found = names_for(ruleset).spaces.resolve(str(text))
    if found.name is None:
        hint = names_for(ruleset).spaces.hint(str(text))
        raise CaseError(f"{case.at(*where)}: unknown territory or sea zone {str(text)!r}" + (f" ({hint})" if hint else ""))
    return found.name


def _country(case: Case, ruleset: Any, text: Any, where: tuple[Any, ...]) -> str:
    """A country (control and treasury are kept by country; a power of one economy is its own)."""
    try:
        return str(ruleset.country(str(text)).name)
    except KeyError:
        # owners that take no turn hold territories too (ruleset.yaml bystanders)
        for b in ruleset.bystanders:
            if str(text).casefold() in (b.name.casefold(), *(a.casefold() for a in b.aliases)):
                return str(b.name)
        several = [p for p in ruleset.powers if p.name.casefold() == str(text).casefold() and len(p.economies) > 1]
        if several:  # a power of two economies keeps control and treasury by country
            raise CaseError(f"{case.at(*where)}: {several[0].name} keeps control and treasury by country: write "
                            + " or ".join(c.name for c in several[0].economies)) from None
        raise CaseError(f"{case.at(*where)}: unknown country {str(text)!r}; countries: {', '.join(ruleset.countries)}") from None


def _damage_key(case: Case, ruleset: Any, text: Any, where: tuple[Any, ...]) -> str:
    """A territory (its complex's damage) or "territory/facility" (another facility's, 1940)."""
    territory, _, facility = str(text).partition("/")
    space = _space(case, ruleset, territory.strip(), where)
    if not facility.strip():
        return space
    found = _units(case, ruleset, {facility.strip(): 1}, where)
    return f"{space}/{next(iter(found))}"


def _development(case: Case, rules: Any, text: Any, where: tuple[Any, ...]) -> str:
    """A development by any of its spellings ("Heavy Bombers", heavy_bombers): an unknown one would
    silently change nothing, and the case would test something else."""
    from pbem.engine.research import NAMES
    from pbem.io.names import NameTable

    known = {**NAMES, **(rules.technology.names if rules.technology is not None else {})}
    table = NameTable({key: (name, key.replace("_", " ")) for key, name in known.items()}, prefixes=True)
    found = table.resolve(str(text))
    if found.name is None:
        raise CaseError(f"{case.at(*where)}: unknown development {str(text)!r}; developments: {', '.join(sorted(known))}")
    return str(found.name)


def _power(case: Case, ruleset: Any, text: Any, where: tuple[Any, ...]) -> str:
    try:
        return str(ruleset.power(str(text)).name)
    except KeyError:
        raise CaseError(f"{case.at(*where)}: unknown power {str(text)!r}; powers: {', '.join(ruleset.turn_order)}") from None


def _units(case: Case, ruleset: Any, value: Any, where: tuple[Any, ...]) -> dict[str, int]:
    from pbem.io.names import parse_unit_list
    from pbem.io.orders import names_for

    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "nothing", "")):
        return {}
    if isinstance(value, str):
        items = parse_unit_list(value)
        if items is None:
            raise CaseError(f"{case.at(*where)}: cannot read the units {value!r}; write them as '3 infantry, 1 tank'")
    elif isinstance(value, list):  # one entry per kind: [2 infantry, tank]
        items = []
        for i, entry in enumerate(value):
            parsed = parse_unit_list(entry) if isinstance(entry, str) else None
            if parsed is None:
                raise CaseError(f"{case.at(*where, i)}: cannot read the units {entry!r}; write each entry as '3 infantry' or 'tank'")
            items.extend(parsed)
    else:
        items = [(int(n), str(k)) for k, n in dict(value).items()]
    out: dict[str, int] = {}
    for count, text in items:
        found = names_for(ruleset).units.resolve(text)
        if found.name is None:
            raise CaseError(f"{case.at(*where)}: unknown unit {text!r}; units: {', '.join(sorted(ruleset.units))}")
        if count:
            out[found.name] = out.get(found.name, 0) + count
    return out


def _show(units: Mapping[str, int]) -> str:
    from pbem.engine.words import count_of

    return ", ".join(count_of(n, u) for u, n in sorted(units.items())) or "nothing"


def section_index(paths: Iterable[str | Path]) -> list[tuple[str, str]]:
    """(section, path::name) of every readable case, for conformance lists."""
    out = []
    for path in case_files(paths):
        cases, _ = read_cases(path)
        out.extend((c.section, c.where) for c in cases)
    return out

