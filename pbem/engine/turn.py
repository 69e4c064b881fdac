"""One power's turn, phase by phase, as the rulebook orders them.

`validate` and `adjudicate` run the same code.  Validation has no dice: it assumes every attack
succeeds (the rulebook's own assumption when it asks a player to show where air units will land),
so that noncombat moves and placements that depend on a conquest can be checked before submitting.
At adjudication a noncombat move that the battles made impossible is skipped and the report says so.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from pbem.engine.battles import BattlePlan, ignores, resolve_battles
from pbem.engine.combat.rules import CombatRules
from pbem.engine.model import GameState
from pbem.engine.movement import R_AIR, R_END_IN_COMBAT, R_TRANSPORT, Mover
from pbem.engine.orders import BattleDirective, Boarding, Move, Orders, StandingOrders
from pbem.engine.problems import Problem
from pbem.engine.words import article, count_of, plural, possessive
from pbem.engine.words import units_text as _units_text
from pbem.engine.ruleset import Ruleset
from pbem.engine.economy import income as national_income
from pbem.engine.economy import convoy_centre_income, tribute_owed
from pbem.engine.rules import Interjection, Rules
from pbem.engine.world import Unit, World

R_PURCHASE = "Purchase Units"
R_MOBILIZE = "Mobilize New Units"
R_ORDER = "Order of Play"


def upgrade_restriction(ruleset: Any, rules: Any, power: str, space: str, upgrade: Any) -> str | None:
    """Why `space` may not hold the facility `upgrade` raises to (AMS: an upgrade "Must still meet
    build restrictions for the higher level facility": original territory, value, no island), or None."""
    higher = ruleset.units[upgrade.upgrade_to]
    sp = ruleset.board.spaces[space]
    least = higher.min_territory_ipc if higher.min_territory_ipc is not None else 0
    if higher.original_territory_only and sp.original_owner not in ruleset.countries_of(power):
        return f"it is built only in {possessive(power)} original territory"
    if sp.ipc < least:
        return f"it needs a territory worth {least} or more; {space} is worth {sp.ipc}"
    on_islands = rules.production.new_complexes_on_islands if higher.on_islands is None else higher.on_islands
    if higher.has("factory") and sp.island and not on_islands:
        return "it is not built on an island"
    return None


@dataclass
class TurnLog:
    """What happened, in the order it happened: the raw material of the turn report."""

    purchases: dict[str, int] = field(default_factory=dict)
    purchases_by_country: dict[str, dict[str, int]] = field(default_factory=dict)  # Power.countries
    spent_by_country: dict[str, int] = field(default_factory=dict)  # what each country paid: units and repairs, at the prices charged
    unit_prices: dict[str, int] = field(default_factory=dict)  # unit -> the price charged this turn (technology, options)
    repair_costs: dict[str, int] = field(default_factory=dict)  # damage key -> what its repair cost (AMS Improved Production halves it)
    purchase_cost: int = 0
    research_cost: int = 0
    research: dict[str, Any] | None = None  # development, dice bought, cost: a purchase like units
    repairs: dict[str, int] = field(default_factory=dict)
    moves: list[dict[str, Any]] = field(default_factory=list)
    battles: list[dict[str, Any]] = field(default_factory=list)
    bombing: list[dict[str, Any]] = field(default_factory=list)
    captures: list[dict[str, Any]] = field(default_factory=list)
    placements: dict[str, dict[str, int]] = field(default_factory=dict)
    # units a rule placed for nothing (Chinese Divisions, Salvage, partisans, liberation armies):
    # space, power, unit, count, reason, in the order given
    free_units: list[dict[str, Any]] = field(default_factory=list)
    refunds: dict[str, int] = field(default_factory=dict)
    refund_ipcs: int = 0
    lost_air: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    defaults_used: list[str] = field(default_factory=list)
    income: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    declarations: list[str] = field(default_factory=list)  # wars declared this turn (Rules.politics), told first
    # dice rolled outside battles and raids (research, rockets): every die the audit shows is reported
    rolls: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None
    victory_points: dict[str, int] | None = None  # Rules.victory.points: scored this turn, and the total


@dataclass
class TurnResult:
    state: GameState
    log: TurnLog
    problems: list[Problem]
    # orders that are legal but can never take effect (a retreat nothing can make): told at validation
    warnings: list[Problem] = field(default_factory=list)


class Turn:
    def __init__(self, ruleset: Ruleset, rules: Rules, combat_rules: CombatRules, state: GameState, orders: Orders,
                 standing: Mapping[str, StandingOrders], options: Mapping[str, Any], dice: Any | None):
        self.ruleset = ruleset
        self.rules = rules
        self.combat_rules = combat_rules
        self.state = state
        self.orders = orders
        self.standing = standing
        self.dice = dice
        self.w = World(ruleset, rules, state)
        self.options = self._with_declarations(options)
        self.w.options = dict(self.options)
        self.w._profiles.clear()  # profiles depend on the options (National Advantages)
        if rules.hooks.extra_cargo is not None:
            # Cargo aboard units that carry only by an option (Rules.hooks.extra_cargo) boards now.
            for space in sorted({u.space for u in self.w.units.values() if self.w.is_sea(u.space)}):
                self.w._embark_at(space)
        self.w.commanded = frozenset(rules.hooks.commands(self.options, self.w.power)) if rules.hooks.commands else frozenset()
        self.w.marker_choices = dict(orders.markers)
        self.warnings: list[Problem] = []
        self.mover = Mover(self.w, warnings=self.warnings)
        self.log = TurnLog()
        self.problems: list[Problem] = []
        self._refused_into: set[str] = set()  # where refused moves were going (validation only)
        # own carriers before noncombat moves: where each could end them, and the air units aboard (note_carrier_reach)
        self._carrier_reach: dict[int, tuple[frozenset[str], frozenset[int], str]] = {}
        self._unread_moves: list[tuple[str, int, str]] = []  # moves the orders reader could not read
        # validating: count this turn's research as a breakthrough (Orders.if_developed; see run_turn)
        self.assume_breakthrough = False
        self.bought: dict[str, int] = {}
        self.bought_by_country: dict[str, dict[str, int]] = {}  # a power of several countries (Power.countries)
        self.kamikaze_strikes: dict[str, list[Any]] = {}  # Rules.kamikaze: battle zone -> ships struck there
        # sea zones whose defending aircraft lost their carrier, with those that stay aboard a damaged
        # one: they land after every battle, before the noncombat move (battles._land_stranded)
        self.stranded: list[tuple[str, frozenset[int]]] = []
        self._late_declarations: list[tuple[str, tuple]] = []  # declarations made at Collect Income (declare_wars)
        self.contested: set[str] = set()  # spaces with a battle this turn (set when the battles start)
        self.shot_down_going_to: set[str] = set()  # where aircraft shot down on their combat move were flying (overflight)
        self.attacked: tuple[tuple[str, str | None, str | None], ...] = ()  # land battles: (space, original owner, holder)

    def _with_declarations(self, options: Mapping[str, Any]) -> Mapping[str, Any]:
        """Declarations (Rules.hooks.declarations) last until the start of the declaring power's next
        turn: this power's expire now; the others' are handed on as options `<name>_declared`."""
        declared = self.w.pending.get("declared")
        if not declared:
            return options
        assert isinstance(declared, Mapping)
        lasting = {name: power for name, power in declared.items() if power != self.w.power}
        if lasting:
            self.w.pending["declared"] = dict(sorted(lasting.items()))
        else:
            self.w.pending.pop("declared")
        return {**options, **{f"{name}_declared": True for name in lasting}}

    def _converts_late(self) -> bool:
        """Units are converted in noncombat move (Europe's Patriotic War), not in purchase (Rules.hooks.conversion_phase)."""
        hook = self.rules.hooks.conversion_phase
        return hook is not None and hook(self.options, self.w.power) == "noncombat"

    def skips_phase(self, phase: str) -> bool:
        """Does the mover skip this phase now, its capital in enemy hands
        (CapitalRules.phases_skipped_without_capital)?  What a rule gives in it is not given."""
        return phase in self.rules.capitals.phases_skipped_without_capital and not self.w.capital_held(self.w.power)

    def check_declarations(self) -> None:
        """Once-per-game declarations in the orders: allowed by the options, not yet used."""
        allowed = self.rules.hooks.declarations(self.options, self.w.power) if self.rules.hooks.declarations else {}
        used = set(self.w.pending.get("once", []) or [])  # type: ignore[call-overload]
        seen: set[str] = set()
        for name, path in self.orders.declare:
            if name not in allowed:
                hint = "declarable: " + ", ".join(sorted(allowed)) if allowed else f"{self.w.power} has nothing to declare in this game"
                self.problems.append(Problem("illegal", f"{self.w.power} cannot declare {name}", rule=R_ORDER, hint=hint,
                                             path=path, code="declare.unknown"))
            elif name in used or name in seen:
                self.problems.append(Problem("illegal", f"{name} is declared once per game, and it has been", rule=R_ORDER,
                                             hint=f"remove {name} from declare:", path=path, code="declare.used"))
            seen.add(name)

    def declare(self, phase: str) -> None:
        """Make this phase's declarations: mark them used and in force (GameState.pending)."""
        allowed = self.rules.hooks.declarations(self.options, self.w.power) if self.rules.hooks.declarations else {}
        for name, path in self.orders.declare:
            if allowed.get(name) != phase:
                continue
            if self.skips_phase(phase):
                # decided when the phase comes: a capital liberated this turn gives the phase back
                text = (f"{name.replace('_', ' ')} is not declared: {possessive(self.w.power)} capital is in enemy hands, "
                        f"so it skips its {phase.replace('_', ' ')} phase")
                if self.validating:
                    self.warnings.append(Problem("warning", text, rule="Capturing and Liberating Capitals",
                                                 hint=f"liberate the capital this turn, or remove {name} from declare:",
                                                 path=path, code="declare.no-capital"))
                else:
                    self.log.notes.append(text[0].upper() + text[1:])
                continue
            used = list(self.w.pending.get("once", []) or [])  # type: ignore[call-overload]
            self.w.pending["once"] = sorted({*used, name})
            declared = dict(self.w.pending.get("declared", {}) or {})  # type: ignore[call-overload]
            declared[name] = self.w.power
            self.w.pending["declared"] = dict(sorted(declared.items()))
            self.log.notes.append(f"{self.w.power} declares {name.replace('_', ' ')}: in force until the start of its next turn")

    def _no_combat_declared(self) -> bool:
        """A declaration made this turn that skips combat (Rules.hooks.no_combat_declarations): combat
        moves and battle directives are refused, and no combat is conducted."""
        hook = self.rules.hooks.no_combat_declarations
        names = hook(self.options, self.w.power) if hook is not None else frozenset()
        made = [name for name, _ in self.orders.declare if name in names]
        if not made:
            return False
        if self.orders.combat_moves or self.orders.battles:
            key = "combat_move" if self.orders.combat_moves else "battles"
            self.problems.append(Problem("illegal", f"{self.w.power} declares {made[0].replace('_', ' ')}: it skips its combat move and conduct combat phases this turn",
                                         rule=R_ORDER, hint=f"remove {key}:, or the declaration", path=(key,), code="declare.no-combat"))
        return True

    def interject(self) -> None:
        """Out-of-turn moves of other powers between the combat move and combat (Rules.hooks.interjections):
        the first standing conditional move of that power whose `when_attacked` space is attacked,
        made as a noncombat move of one step into that friendly space or out of it, leaving at least
        one friendly unit behind.  Once per game; an entry that cannot be made is reported and the
        next one is tried."""
        hook = self.rules.hooks.interjections
        if hook is None:
            return
        w = self.w
        plan = BattlePlan.from_world(w, self.orders, self.standing)
        attacked = {*plan.land, *plan.sea, *plan.raids}
        # a sea zone the mover's ships entered in combat move is attacked even if it held no enemy
        # (Revised FAQ, Enigma Decoded: "includes any sea zone, regardless of whether it contains
        # British units")
        attacked |= {u.space for u in w.units.values() if u.owner == w.power and u.phase == "combat"
                     and w.is_sea(u.space) and w.utype(u).domain == "sea"}
        for grant in hook(self.options, w.power):
            used = set(w.pending.get("once", []) or [])  # type: ignore[call-overload]
            standing = self.standing.get(grant.power)
            if grant.once in used or standing is None:
                continue
            for entry in standing.conditional_moves:
                if entry.when_attacked not in attacked:
                    continue
                why = self._interjection(grant, entry)
                if why:
                    self.log.notes.append(f"{grant.reason}: {possessive(grant.power)} move of {_units_text(entry.units)} from {entry.frm} to {entry.to} cannot be made: {why}")
                    continue
                w.pending["once"] = sorted({*used, grant.once})
                # a noncombat move made on another power's turn: the report names the rule beside it
                self.log.moves.append({"phase": "noncombat", "power": grant.power, "units": dict(entry.units), "from": entry.frm, "to": entry.to,
                                       "mission": f"{grant.reason}, on {possessive(w.power)} turn"})
                self.log.notes.append(f"{grant.reason}: {grant.power} moves {_units_text(entry.units)} from {entry.frm} to {entry.to}, {entry.when_attacked} being attacked by {w.power}")
                break

    def _interjection(self, grant: Interjection, entry: Any) -> str:
        """Make one conditional move for `grant.power`; what forbids it, or "" once made."""
        w = self.w
        power = grant.power
        target = entry.when_attacked
        if target not in (entry.frm, entry.to):
            return f"it neither enters nor leaves {target}"
        if not w.board.are_adjacent(entry.frm, entry.to):
            return f"{entry.frm} and {entry.to} are not adjacent"
        air = [t for t in entry.units if self.ruleset.units[t].domain == "air"]
        if air and w.is_sea(entry.to) and not grant.air_to_sea:
            return f"{' and '.join(plural(t) for t in air)} do not move to a sea zone by {grant.reason}"
        if w.space(entry.to).is_land and not w.is_friendly_territory(entry.to, of=power):
            return f"{entry.to} is not friendly to {power}"
        if entry.frm == target:
            staying = [u for u in w.units_at(target) if w.is_friendly(u.owner, power) and u.carrier is None
                       and w.utype(u).domain != "structure"]
            if len(staying) <= sum(entry.units.values()):
                return f"at least one unit must stay behind in {target}"
        attackers = {u.id for u in w.units_at(entry.to) if u.owner == w.power and u.phase == "combat"}
        move = Move("noncombat", entry.units, entry.frm, entry.to, yaml_path=entry.yaml_path)
        saved = self.mover.new_carrier_zones
        self.mover.new_carrier_zones, self.mover.ignored = set(), attackers
        try:
            with w.acting_for(power):
                found = self.mover.apply(move)
        finally:
            self.mover.new_carrier_zones, self.mover.ignored = saved, set()
        return found[0].message if found else ""

    def convert(self) -> None:
        """Purchase phase: friendly units the rules let this power take over (Rules.hooks.may_convert)
        leave play and the same units of its own are put in their place, free to move this turn."""
        w = self.w
        named = self.rules.hooks.conversion_rule(self.options, w.power) if self.rules.hooks.conversion_rule is not None else None
        rule = named[0] if named else R_PURCHASE + ": units converted by a game option"
        if self.orders.convert and not self._converts_late() and self.skips_phase("purchase"):
            self.problems.append(Problem("illegal", f"{possessive(w.power)} capital is in enemy hands: it skips its purchase phase, "
                                         "where units are converted", rule="Capturing and Liberating Capitals",
                                         hint="remove convert:", path=("convert",), code="convert.no-capital"))
            return
        for order in self.orders.convert:
            hook = self.rules.hooks.may_convert
            sp = w.space(order.space)
            owners = [p.name for p in self.ruleset.powers if p.name != w.power and w.is_friendly(p.name)
                      and (order.owner is None or p.name == order.owner)]
            chosen: list[Any] = []
            for utype, n in order.units.items():
                pool = [u for o in owners for u in w.owned(o, order.space, [utype])
                        if u.carrier is None and hook is not None
                        and hook(self.options, w.power, o, w.utype(u), original_owner=sp.original_owner, controller=w.control.get(order.space))]
                if len(pool) < n:
                    allowed = hook is not None and any(hook(self.options, w.power, o, self.ruleset.units[utype], original_owner=sp.original_owner,
                                                             controller=w.control.get(order.space)) for o in owners)
                    why = (f"only {len(pool)} {utype} of a friendly power in {order.space} may become {possessive(w.power)}, not {n}" if allowed
                           else f"no rule of this game lets {w.power} take over {utype} in {order.space}"
                           + (f": {named[1]}" if named else ""))
                    self.problems.append(Problem("illegal", why, rule=rule, hint=f"convert at most {len(pool)} {utype} in {order.space}" if allowed
                                                 else "remove the order from convert:", path=order.yaml_path, code="convert.illegal"))
                    chosen = []
                    break
                chosen.extend(pool[:n])
            for u in chosen:
                w.remove(u)
                w.add(u.type, w.power, order.space)
            if chosen:
                verb = "becomes" if sum(order.units.values()) == 1 else "become"
                former = " and ".join(sorted({u.owner for u in chosen}))
                self.log.notes.append(f"{_units_text(order.units)} of {former} in {order.space} {verb} {possessive(w.power)}")

    @property
    def validating(self) -> bool:
        return self.dice is None

    # --- phases -------------------------------------------------------------------------------
    def run(self) -> TurnResult:
        w = self.w
        if self.orders.power != w.power:
            self.problems.append(Problem("illegal", f"it is {possessive(w.power)} turn, not {possessive(self.orders.power)}", rule=R_ORDER, hint=f"write orders with power: {w.power}", path=("power",), code="turn.wrong-power"))
        if self.orders.round != self.state.round:
            self.problems.append(Problem("illegal", f"these orders are for round {self.orders.round}; the game is in round {self.state.round}", rule=R_ORDER, hint=f"round: {self.state.round}", path=("round",), code="turn.wrong-round"))
        if self.problems:
            return self._result(self.state)
        if self.state.round == 0:
            return self.run_cash_advance()
        self.start_of_turn()
        if self.orders.declare:
            self.check_declarations()
            self.declare("start_of_turn")
        no_combat = self._no_combat_declared()
        self.check_convoy_income()
        self.repair_at_naval_bases()
        self.develop_weapons()
        self.purchase()
        self.land_combat_air_patrol()
        self.declare_wars()
        late_conversion = self._converts_late()
        if not late_conversion:
            self.convert()
        self.mover.new_carrier_zones = self._new_carrier_zones()
        self.mover.note_hostile_start()
        w.hostile_seas_at_start = frozenset(z for z, sp in w.board.spaces.items() if sp.is_sea and w.is_hostile_sea_zone(z))
        combat_moves = self.moves(self.orders.combat_moves)
        for u in self.w.units.values():
            u.combat_path = len(u.path)
        self.check_combat_moves(combat_moves)
        if self.problems and self.validating:
            return self._validate_the_rest()
        if not self.validating:
            self.interject()
        self.overflight("combat")
        self.declare_by_moving_in("combat")
        self.turn_attacked_neutrals()
        if not no_combat:
            self.combat()
            self.record_attacks()
            self.political_changes_after_combat()
        self.claim_tokens()
        self.note_carrier_reach()
        self.moves(self.orders.noncombat_moves)
        self.declare_by_moving_in("noncombat")
        if late_conversion:
            self.convert()
        self.land_at_sea()
        self.overflight("return")
        self.land_air_units()
        self.apply_breakthroughs()
        self.mobilize()
        self.end_of_turn()
        self.collect_income()
        self.declare("collect_income")
        self.claim_tokens()
        self.apply_breakthroughs()
        if self.validating:
            self.warn_unused_markers()
        new_state = self.advance()
        return self._result(new_state)

    def starting_treasury(self, power: str) -> int:
        printed = self.ruleset.power(power).starting_treasury
        hook = self.rules.hooks.starting_treasury
        return printed if hook is None else hook(self.options, power, printed)

    def run_cash_advance(self) -> TurnResult:
        """Round 0 (Rules.hooks.cash_advance; Europe, Special Cash Advance): the power only buys units
        and places them "in territories or sea zones in which they already have at least one unit",
        or keeps the money; then it receives its starting income."""
        o, w = self.orders, self.w
        rule = "Special Cash Advance: before the first turn a power only buys and places units"
        for key, given in (("combat_move", o.combat_moves), ("noncombat_move", o.noncombat_moves), ("battles", o.battles),
                           ("convert", o.convert), ("declare", o.declare), ("develop", o.develop), ("repair", o.repair),
                           ("rockets", o.rockets)):
            if given:
                self.problems.append(Problem("illegal", f"{key} is not part of the cash advance", rule=rule,
                                             hint="write only purchase: and place: for round 0", path=(key,), code="turn.cash-advance"))
        if self.problems and not self.validating:
            return self._result(self.state)
        self.purchase()  # validating: the purchase and placements are checked too, so every problem shows at once
        self.mobilize()
        if self.validating and self.problems:
            return self._result(self.state)
        starting = self.starting_treasury(w.power)
        w.treasury[w.power] = w.treasury.get(w.power, 0) + starting
        self.log.income[w.power] = starting
        self.log.notes.append(f"{w.power} receives its starting income of {count_of(starting, 'IPC')}")
        return self._result(self.advance())

    def _unread_before_all(self) -> set[str]:
        """Destinations of the combat moves the orders reader could not read ("*" stands for any space)."""
        return {to for key, _, to in self._unread_moves if key == "combat_move"}

    def _unread_before(self, move: Move) -> set[str]:
        """Destinations of the unreadable moves ordered before `move` ("*" stands for any space)."""
        order = ("combat_move", "noncombat_move")
        here = (order.index(move.yaml_path[0]), move.yaml_path[1]) if len(move.yaml_path) >= 2 and move.yaml_path[0] in order else None
        if here is None:
            return set()
        before = {to for key, i, to in self._unread_moves if (order.index(key), i) < here}
        return {move.frm} if "*" in before else before

    def _validate_the_rest(self) -> TurnResult:
        """Every stage that can still be checked once earlier orders were refused, so a player sees
        all problems in one run: the combat goes ahead without the refused moves, then noncombat
        moves and placements are checked (against the purchase ordered, when it was refused: see
        `_placeable`); moves that fail only for want of units a refused move would have brought are
        left out as they go (see `moves`)."""
        try:
            self.overflight("combat")
            if not self._no_combat_declared():
                self.combat()
            self.note_carrier_reach()
            self.moves(self.orders.noncombat_moves)
            self.land_at_sea()
            self.land_air_units()
            self.mobilize()
        except Exception:  # noqa: BLE001 -- a position the refused orders left half-built: report what is known
            pass
        self.problems = list(dict.fromkeys(self.problems))  # once each, in order (linear: a file may hold thousands)
        return self._result(self.state)

    def _result(self, state: GameState) -> TurnResult:
        """The turn's outcome: its state and log, its problems and warnings in this rulebook's words."""
        return TurnResult(state, self.log, self._cited(), self._cited(self.warnings))

    def _cited(self, problems: list[Problem] | None = None) -> list[Problem]:
        """The problems (or warnings) with this rulebook's page numbers added to the sections they
        name, and the sections in its own words."""
        from dataclasses import replace as _replace

        return [_replace(p, rule=self.rules.cite(p.rule)) if p.rule else p for p in (self.problems if problems is None else problems)]

    def develop_weapons(self) -> None:
        """Phase 1: Develop Weapons (rule systems whose turn has that phase): buy research dice for
        one development and roll them; a breakthrough applies from this turn on."""
        o, w = self.orders, self.w
        self.check_if_developed()
        if o.develop is None:
            return
        from pbem.engine.research import DEVELOPMENTS, DIE_COST, NAMES, research_problems, roll_research

        development, count = o.develop
        has_phase = any(p.id == "develop_weapons" for p in self.ruleset.phases)
        enabled = has_phase and bool(self.options.get("weapons_development", has_phase))
        known = w.developments.get(w.power, frozenset())
        found = research_problems(development, count, w.treasury.get(w.power, 0), known, enabled=enabled)
        if self.rules.capitals.no_purchase_without_capital and not w.capital_held(w.power):
            found.append(Problem("illegal", f"{possessive(w.power)} capital is in enemy hands: it cannot buy research dice",
                                 rule="Capturing and Liberating Capitals", hint="remove develop:", code="research.no-capital"))
        if found:
            from dataclasses import replace as _replace

            self.problems.extend(_replace(p, path=("develop",)) for p in found)
            return
        w.treasury[w.power] -= count * DIE_COST
        self.log.research_cost = count * DIE_COST
        self.log.research = {"development": NAMES[development], "dice": count, "cost": count * DIE_COST}
        if self.validating:
            if self.assume_breakthrough:
                w.develop(w.power, known | {development})
            return
        result = roll_research(w.power, development, count, known, self.dice, self.state.round)
        w.develop(w.power, result.developments)
        self.log.rolls.append({"step": "research", "power": w.power,
                               "what": f"research dice for {NAMES[development]} (a {DEVELOPMENTS[development]} develops it)",
                               "dice": list(result.rolled),
                               "result": f"{NAMES[development]} developed" if result.success else "no breakthrough"})
        if not result.success:
            self.drop_if_developed(development)

    def warn_unused_markers(self) -> None:
        """A `markers:` entry the rules do not let decide (the capture gives the marker by rule, or
        no capture happens) is worth a word: the player meant a choice that will not be made."""
        for space, country in sorted(self.orders.markers.items()):
            if space not in self.w.markers_used:
                self.warnings.append(Problem(
                    "warning", f"markers: {space} will not take {possessive(country)} marker: "
                    + ("the rules give the marker of a territory taken there"
                       if space in self.w.captured_this_turn else f"{space} is not taken in these orders"),
                    rule="Capturing Territories: the control marker placed", hint=f"remove {space} from markers:",
                    path=("markers", space), code="orders.marker-unused"))

    def check_if_developed(self) -> None:
        """Orders.if_developed: each condition names the development researched this turn, not one held."""
        o = self.orders
        if not o.if_developed:
            return
        from pbem.engine.research import NAMES

        rule = "Phase 1: Develop Weapons, Step 4: From now on (including this turn)"
        known = self.w.developments.get(self.w.power, frozenset())
        for path, development in sorted(o.if_developed.items()):
            at = (*path, "if_developed")
            if o.develop is None:
                researched = any(p.id == "develop_weapons" for p in self.ruleset.phases)
                self.problems.append(Problem("illegal", f"no research is ordered this turn, so {NAMES[development]} cannot come from it"
                                             if researched else "this game has no weapons development phase to bring a development this turn",
                                             rule=rule, hint="research it under develop:, or remove if_developed:" if researched
                                             else "remove if_developed:", path=at, code="research.condition"))
            elif development in known:
                self.problems.append(Problem("illegal", f"{self.w.power} has {NAMES[development]} already: the order needs no condition",
                                             rule=rule, hint="remove if_developed:", path=at, code="research.condition"))
            elif development != o.develop[0]:
                self.problems.append(Problem("illegal", f"this turn researches {NAMES[o.develop[0]]}, not {NAMES[development]}",
                                             rule=rule, hint=f"if_developed: {NAMES[o.develop[0]]}, or remove if_developed:", path=at,
                                             code="research.condition"))

    def drop_if_developed(self, development: str) -> None:
        """The research dice failed: the orders made only on a breakthrough are not made."""
        from pbem.engine.research import NAMES

        o = self.orders
        paths = {path for path, d in o.if_developed.items() if d == development}
        if not paths:
            return
        dropped = [f"{_units_text(m.units)} from {m.frm} to {m.to}" for m in (*o.combat_moves, *o.noncombat_moves) if m.yaml_path in paths]
        dropped += [f"the rocket from {frm} at {target}" for frm, target, path, _ in o.rockets if path in paths]
        self.orders = o.without(paths)
        self.log.notes.append(f"{NAMES[development]} was not developed, so the orders made only if it was are not carried out: "
                              + "; ".join(dropped))

    def _tech_production_bonus(self) -> int:
        """Technology.production_bonus (AMS Improved Production): "The mobilization limits of all
        production facilities has now increased by 1"."""
        tech = self.rules.technology
        return 1 if tech is not None and tech.production_bonus in self.w.developments.get(self.w.power, frozenset()) else 0

    def repair_cost(self, points: int) -> int:
        """What removing `points` of damage costs (AMS Improved Production: "2 damage markers may now be
        removed for the price of 1")."""
        tech = self.rules.technology
        if tech is not None and tech.repairs_two_for_one in self.w.developments.get(self.w.power, frozenset()):
            points = (points + 1) // 2
        return points * self.rules.production.repair_cost_per_point

    def cost_of(self, profile: Any) -> int:
        profile = self.w.profiles_of(self.w.power).get(profile.name, profile)  # AMS Nautical Engineering
        hook = self.rules.hooks.unit_cost
        return profile.cost if hook is None else hook(self.options, self.w.power, profile)

    def purchase(self) -> None:
        w, o = self.w, self.orders
        if len(self.ruleset.countries_of(w.power)) > 1:
            self.purchase_by_country()
            return
        if (o.purchase or o.repair) and self.rules.capitals.no_purchase_without_capital and not w.capital_held(w.power):
            for key, given, what in (("purchase", o.purchase, "buy units"), ("repair", o.repair, "repair damage")):
                if given:
                    self.problems.append(Problem("illegal", f"{possessive(w.power)} capital is in enemy hands: it cannot {what}",
                                                 rule="Capitals: a power without its capital skips the purchase phase",
                                                 hint=f"remove {key}:", path=(key,), code="purchase.no-capital"))
            return
        cost = 0
        refused = False  # every unit that may not be bought is told, not only the first
        for utype, n in o.purchase.items():
            profile = self.ruleset.units[utype]
            self.log.unit_prices[utype] = self.cost_of(profile)
            if self._not_for_sale(profile, w.power, ("purchase", utype), n):
                refused = True
            elif profile.has("factory") and not self.rules.production.new_complexes:
                self.problems.append(Problem("illegal", f"{utype}s cannot be bought in this game", rule=R_PURCHASE + ": industrial complexes may not be built",
                                             hint=f"remove {utype} from purchase:", path=("purchase", utype), code="purchase.no-complexes"))
                refused = True
            else:
                cost += self.cost_of(profile) * n
        if refused:
            money = w.treasury.get(w.power, 0)
            if cost > money:  # told at once: the player fixes both in one go
                self.problems.append(Problem("illegal", f"even without the units it may not buy, the purchase costs {cost} IPCs; {w.power} has {money}",
                                             rule=R_PURCHASE, hint=f"buy at most {money} IPCs worth", path=("purchase",), code="purchase.too-expensive"))
            return
        repair_cost = 0
        for space, points in o.repair.items():
            if not self._repairable(space, points):
                continue
            repair_cost += self.repair_cost(points)
        money = w.treasury.get(w.power, 0)
        if cost + repair_cost > money:
            research = self.log.research_cost
            spent = f" after {research} IPCs of research dice" if research else ""
            hint = (f"buy at most {money} IPCs worth, or fewer research dice under develop: "
                    f"({money + research} IPCs in all for both)" if research else f"buy at most {money} IPCs worth")
            self.problems.append(Problem("illegal", f"the purchase costs {cost + repair_cost} IPCs; {w.power} has {money} left{spent}" if research
                                         else f"the purchase costs {cost + repair_cost} IPCs; {w.power} has {money}",
                                         rule=R_PURCHASE, hint=hint, path=("purchase",), code="purchase.too-expensive"))
            if self.validating:
                # the placements are checked as if the purchase were made (`_placeable`): the repairs too,
                # or the player is sent to fix placements that only the unpaid repair limits
                for space, points in o.repair.items():
                    if 0 < points <= w.damage.get(space, 0):
                        w.damage[space] = w.damage.get(space, 0) - points
            return
        for space, points in o.repair.items():
            if points <= w.damage.get(space, 0):
                w.damage[space] = w.damage.get(space, 0) - points
                self.log.repairs[space] = points
                self.log.repair_costs[space] = self.repair_cost(points)
        w.treasury[w.power] = money - cost - repair_cost
        self.bought = dict(o.purchase)
        self.log.purchases = dict(o.purchase)
        self.log.purchase_cost = cost + repair_cost

    def _apply(self, move: Move) -> list[Problem]:
        """One move; with `owner:` another power's units, which the rules must let this power
        command (Rules.hooks.commands): in combat move any of them, in noncombat move only air units
        (landing those that attacked)."""
        w = self.w
        if move.owner is None or move.owner == w.power:
            return self.mover.apply(move)
        if move.phase == "noncombat" and move.owner not in w.commanded and self._shared(move):
            return self._move_shared(move)
        if move.owner not in w.commanded:
            return [Problem("illegal", f"{w.power} cannot move {possessive(move.owner)} units in this turn", rule=R_ORDER,
                            hint="a game option allows it (e.g. Revised Joint Strike, declared by the United Kingdom)",
                            path=(*move.yaml_path, "owner"), code="move.owner")]
        if move.phase == "noncombat" and any(self.ruleset.units[t].domain != "air" for t in move.units):
            return [Problem("illegal", f"in noncombat move {w.power} moves only {possessive(move.owner)} air units that attacked, to land them", rule=R_ORDER,
                            hint=f"{possessive(move.owner)} other units move on its own turn", path=(*move.yaml_path, "units"), code="move.owner")]
        with w.acting_for(move.owner):
            return self.mover.apply(move)

    def _shared(self, move: Move) -> bool:
        """May the mover move these units of a friendly power (Rules.hooks.shared_unit)?"""
        hook, w = self.rules.hooks.shared_unit, self.w
        if hook is None or w.is_enemy(move.owner) or move.frm not in w.board.spaces:
            return False
        return all(hook(self.options, w.power, move.owner, self.ruleset.units[t], space=w.space(move.frm), controller=w.control.get(move.frm))
                   for t in move.units)

    def _move_shared(self, move: Move) -> list[Problem]:
        """A friendly power's unit moved by the mover, once a round (e.g. Europe's Middle East AA guns:
        "may be moved by any of the Allies. However, it can only be moved once per round")."""
        w = self.w
        key = "shared_moves"
        moved = [m for m in (w.pending.get(key) or []) if m[0] == self.state.round]  # type: ignore[union-attr]
        owner = move.owner or w.power
        for utype, n in sorted(move.units.items()):
            # units are not told apart on the board: those that arrived this round are the last to move
            arrived = [m for m in moved if m[1] == move.frm and (len(m) < 5 or (m[2] == owner and m[3] == utype))]
            came = sum(m[4] if len(m) >= 5 else 10**6 for m in arrived)  # an entry of an older pbem: the space
            if came and n > len(w.owned(owner, move.frm, [utype])) - came:
                return [Problem("illegal", f"{count_of(min(came, n), utype)} of {owner} already moved into {move.frm} this round: "
                                "a unit moves only once a round", rule="Antiaircraft Gun: an AA gun in the Middle East may be moved by any of the Allies, once per round",
                                hint="move only those that stood there before, or leave it for the next round", path=(*move.yaml_path, "from"), code="move.shared-once")]
        with w.acting_for(move.owner):
            found = self.mover.apply(move)
        if not found:
            w.pending[key] = [*moved, *([self.state.round, move.to, owner, t, n] for t, n in sorted(move.units.items()))]
        return found

    def moves(self, moves: tuple[Move, ...]) -> list[tuple[Move, list[Problem]]]:
        done = []
        for move in moves:
            found = self._apply(move)
            if found and not self.validating and move.phase == "noncombat" and found[0].code == "move.no-units":
                # Some of the units were lost in battle: the survivors still make the move.
                w = self.w
                have = {t: len(w.owned(move.owner or w.power, move.frm, [t])) for t in move.units}
                reduced = {t: min(n, have[t]) for t, n in move.units.items() if min(n, have[t]) > 0}
                if reduced and reduced != dict(move.units):
                    from dataclasses import replace as _replace

                    retry = self._apply(_replace(move, units=reduced))
                    if not retry:
                        one = sum(reduced.values()) == 1
                        self.log.notes.append(f"Of the {_units_text(move.units)} ordered from {move.frm} to {move.to}, only {_units_text(reduced)} "
                                               f"{'was' if one else 'were'} left after the battles; {'it' if one else 'they'} made the move")
                        move, found = _replace(move, units=reduced), []
            if (found and self.validating and move.frm in self._refused_into | self._unread_before(move)
                    and all(p.code == "move.no-units" for p in found)):
                # the units were to arrive by a move already refused: that problem is reported once
                self._refused_into.add(move.to)
                done.append((move, found))
                continue
            if found:
                if self.validating:
                    self._refused_into.add(move.to)
                if self.validating or move.phase == "combat":
                    self.problems.extend(found)
                else:
                    self.log.skipped.append({"phase": move.phase, "units": dict(move.units), "from": move.frm, "to": move.to, "reason": found[0].message})
            else:
                if self.validating and move.frm in self._refused_into and any(
                        self.ruleset.units[t].transport_capacity or self.ruleset.units[t].carrier_capacity for t in move.units):
                    # a ship that was to carry the units of a refused move takes their absence on with it
                    self._refused_into.add(move.to)
                # the spaces passed through on the way (a path given by via:, or the one found)
                path = [x for x in getattr(self.mover, "last_path", [])[:-1]]
                moved = dict(move.units)
                riders = self.mover.riders()  # air units that rode along aboard the ships moved
                if riders:
                    moved = dict(sorted({t: moved.get(t, 0) + riders.get(t, 0) for t in {*moved, *riders}}.items()))
                self.log.moves.append({"phase": move.phase, "power": move.owner or self.w.power, "units": moved, "from": move.frm, "to": move.to,
                                       "mission": move.mission, **({"path": path} if path else {})})
            done.append((move, found))
        for space in self.w.pending.pop("blitzed", []) or []:  # type: ignore[union-attr]
            self.capture(space, self.w.power, blitz=True)
        for space in self.w.pending.pop("convoys", []) or []:  # type: ignore[union-attr]
            self.capture(space, self.w.power)  # a convoy centre taken in passing (Rules.economy)
        for space in self.w.pending.pop("neutrals_taken", []) or []:  # type: ignore[union-attr]
            self.take_friendly_neutral(space)
        return done

    def declare_by_moving_in(self, phase: str) -> None:
        """Politics.moving_in_declares: moves that are themselves a declaration of war."""
        w = self.w
        politics = self.rules.politics
        if politics is None or politics.moving_in_declares is None:
            return
        entered = frozenset(u.space for u in w.units.values() if w.commands(u) and u.phase == phase and w.space(u.space).is_land)
        for target in politics.moving_in_declares(self.options, w.power, entered=entered, at_war=frozenset(w.wars or ())):
            if w.relation(target) == "peace":
                w.declare_war(w.power, target)
                self.log.notes.append(f"{w.power} is at war with {target}: its units moved into "
                                      + ", ".join(sorted(entered)) + " (a declaration of war by moving in)")

    def record_attacks(self) -> None:
        """The attacks some objective is ended or opened by (objectives.attacked): a territory the
        mover fought for or took this combat, a fact of the game for good."""
        from pbem.engine.objectives import attacked

        w = self.w
        watched = {f for o in self.rules.objectives for f in (*o.unless, *o.only_after) if f.startswith("attacked: ")}
        if not watched:
            return
        hit = {attacked(s, w.power) for s in {*self.contested, *w.captured_this_turn} if w.space(s).is_land} & watched
        facts = set(w.pending.get("facts", []) or [])  # type: ignore[call-overload]
        if hit - facts:
            w.pending["facts"] = sorted(facts | hit)

    def political_changes_after_combat(self) -> None:
        """Politics.after_combat: territories that change hands once the battles are fought."""
        w = self.w
        politics = self.rules.politics
        if politics is None or politics.after_combat is None:
            return
        attacked = frozenset(s for s in self.contested if w.space(s).is_land)
        facts = set(w.pending.get("facts", []) or [])  # type: ignore[call-overload]
        if politics.facts_after_combat is not None:
            new = set(politics.facts_after_combat(self.options, w.power, attacked=attacked, control_at_start=dict(w.control_at_start),
                                                  control=dict(w.control))) - facts
            if new:
                facts |= new
                w.pending["facts"] = sorted(facts)
        for change in politics.after_combat(self.options, w.power, attacked=attacked, control_at_start=dict(w.control_at_start),
                                            control=dict(w.control), at_war=frozenset(w.wars or ()),
                                            order=self.ruleset.turn_order, facts=frozenset(facts)):
            territory, holder = change[0], change[1]
            army = self.ruleset.power_name(change[2] if len(change) > 2 else holder)
            previous = w.control.get(territory)
            moved = 0
            for u in w.units_at(territory):
                if u.owner == previous and previous != army:
                    u.owner = army
                    moved += 1
            if previous != holder:
                w.control[territory] = holder
                self.log.notes.append(f"{territory} passes from {previous} to {holder}" + (" with its army" if moved else ""))
            elif moved:
                self.log.notes.append(f"{possessive(previous or territory)} army in {territory} joins {army}")

    def turn_attacked_neutrals(self) -> None:
        """Politics.neutrals.turn_when_attacked: "Any attack by either side on a strict neutral will
        cause all other strict neutrals to become "pro" the other side" (E11) - decided once every
        combat move is made."""
        w = self.w
        neutrals = self.rules.politics.neutrals if self.rules.politics is not None else None
        if neutrals is None or not neutrals.turn_when_attacked:
            return
        attacked: dict[str, set[str]] = {}
        for u in w.units.values():
            owner = w.control.get(u.space)
            if w.commands(u) and u.phase == "combat" and owner in neutrals.turn_when_attacked and w.space(u.space).is_land:
                attacked.setdefault(owner, set()).add(u.space)
        side = self.ruleset.side_of(w.power)
        for owner, spaces in sorted(attacked.items()):
            becomes = neutrals.turn_when_attacked[owner].get(side)
            if becomes is None:
                continue
            turned = sorted(t for t, holder in w.control.items() if holder == owner and t not in spaces)
            for t in turned:
                w.control[t] = becomes
                for u in w.units_at(t):
                    if u.owner == owner:
                        u.owner = becomes
            if turned:
                self.log.notes.append(f"{w.power} attacks {', '.join(sorted(spaces))}: every other {owner} territory becomes "
                                      f"{becomes} ({', '.join(turned)})")

    def take_friendly_neutral(self, space: str) -> None:
        """Politics.neutrals: land units moved into a friendly neutral take it, its value and its
        standing army ("the power that moved in gets to collect the IPC and gets to take control of
        the standing army in the neutral", E10)."""
        w = self.w
        previous = w.control.get(space)
        country = w.country_for(space, w.power)
        w.control[space] = country
        w.captured_this_turn.add(space)
        army: dict[str, int] = {}
        for u in w.units_at(space):
            if u.owner == previous:
                u.owner = w.power
                u.fought = True  # the army joins this turn and moves from the next
                army[u.type] = army.get(u.type, 0) + 1
        self.log.captures.append({"space": space, "by": country, "from": previous, "ipc": w.space(space).ipc, "blitz": False, "capital": False})
        self.log.notes.append(f"{w.power} takes the friendly neutral {space}" + (f" and its army, {_units_text(army)}" if army else ""))

    def check_combat_moves(self, done: list[tuple[Move, list[Problem]]]) -> None:
        w = self.w
        raided = {m.to for m, found in done if not found and m.mission == "strategic_bombing"}
        for move, found in done:
            if found:
                continue
            if move.mission == "escort" and move.to not in raided:
                # "fighter planes may escort bombers as protection" (Europe, Pacific, 1942's option):
                # an escort goes with a raid, or it is no mission at all
                self.problems.append(Problem("illegal", f"no bombing raid on {move.to} in this combat move for these fighters to escort",
                                             rule="Strategic Bombing Raids: fighters escort the bombers of a raid", path=(*move.yaml_path, "mission"),
                                             hint=f"send bombers to {move.to} with mission: strategic_bombing, or attack it without mission: escort", code="raid.no-bombers"))
                continue
            if not self._ends_in_combat(move):
                self.problems.append(Problem("illegal", f"moving to {move.to} starts no combat", rule=R_END_IN_COMBAT, hint="move there in noncombat_move, or attack an enemy-held space", path=(*move.yaml_path, "to"), code="move.not-combat"))
        # Cargo loaded during combat move must take part in an amphibious assault.
        reported: set[str] = set()
        for u in sorted(w.units.values(), key=lambda u: u.id):
            if w.commands(u) and u.loaded_phase == "combat" and u.carrier is not None and u.space not in reported:
                reported.add(u.space)
                self.problems.append(Problem("illegal", f"{u.type} loaded in combat move in {u.space} is not offloaded into an assault", rule=R_TRANSPORT, hint="offload it into a hostile territory in combat_move, or load it in noncombat_move", path=(*u.order, "units") if u.order else ("combat_move",), code="move.cargo-not-offloaded"))
        self.check_offload_zones()
        self.check_lone_transports()
        self.check_air_can_land()
        self.check_airborne_support()

    def check_lone_transports(self) -> None:
        """Rules.movement.transports_attack_alone False: transports whose combat move ends beside enemy
        units need a unit of the mover with an attack value there, unless they make an amphibious
        assault from a friendly zone free of enemy submarines (the enemy transports are ignored)."""
        w = self.w
        if w.rules.movement.transports_attack_alone:
            return
        offload_zones = {u.seaborne_from for u in w.units.values() if w.commands(u) and u.seaborne_from}
        moved = sorted((u for u in w.units.values() if w.commands(u) and u.phase == "combat" and w.utype(u).has("transport")
                        and w.is_sea(u.space)), key=lambda u: u.id)
        reported: set[str] = set()
        for t in moved:
            zone = t.space
            enemies = [e for e in w.enemy_units_at(zone) if not e.submerged]
            if zone in reported or not enemies:
                continue
            if any(w.commands(u) and w.utype(u).attack > 0 and w.utype(u).domain != "land" for u in w.units_at(zone)):
                continue  # accompanied by a unit with an attack value
            if zone in offload_zones and not w.is_hostile_sea_zone(zone):
                continue  # no enemy submarine: they ignore the enemy transports; else check_offload_zones says it
            reported.add(zone)
            self.problems.append(Problem(
                "illegal", f"transports alone in {zone} would attack the enemy units there: "
                           f"{_units_text(dict(sorted(Counter(e.type for e in enemies).items())))}",
                rule=R_TRANSPORT + ": transports may not attack without at least one unit with an attack value, unless they make "
                                   "an amphibious assault from a friendly sea zone free of enemy submarines",
                hint=f"send a warship or an air unit into {zone} with them, or move them elsewhere",
                path=t.order or ("combat_move",), code="move.transports-alone"))

    def check_airborne_support(self) -> None:
        """Rules.airborne: "all airborne assaults must be supported by a ground attack and/or an
        amphibious assault" - another land unit of the mover attacks the same territory."""
        rule, w = self.rules.airborne, self.w
        if rule is None or not rule.needs_support:
            return
        for space in sorted({u.space for u in w.units.values() if w.commands(u) and u.mission == "airborne"}):
            if not any(w.commands(u) and u.phase == "combat" and u.mission != "airborne" and w.utype(u).domain == "land"
                       for u in w.units_at(space)):
                order = next(u.order for u in w.units.values() if u.space == space and u.mission == "airborne")
                self.problems.append(Problem("illegal", f"the airborne assault on {space} has no ground or amphibious attack beside it",
                                             rule="Combat Phase: Airborne Assault: \"all airborne assaults must be supported by a ground attack and/or an amphibious assault\"",
                                             hint=f"attack {space} with land units overland or from the sea too", path=order or ("combat_move",),
                                             code="airborne.unsupported"))

    def check_offload_zones(self) -> None:
        """No offloading beside ignored enemy subs unless one of your warships is there (Transports)."""
        w = self.w
        zones = sorted({u.seaborne_from for u in w.units.values() if w.commands(u) and u.seaborne_from})
        for zone in zones:
            enemies = w.enemy_units_at(zone)
            if not enemies:
                continue
            # the refusal points at the first order that offloads from the zone
            where = next((u.order for u in sorted(w.units.values(), key=lambda u: u.id)
                          if w.commands(u) and u.seaborne_from == zone and u.order), ("combat_move",))
            moved_in = any(w.commands(u) and u.phase == "combat" and w.utype(u).domain in ("sea", "air")
                           and not w.utype(u).has("transport") for u in w.units_at(zone))
            if w.is_hostile_sea_zone(zone):
                # ships that moved in fight there, and so do warships that began the turn there and
                # stayed (BattlePlan: sea units starting in hostile sea zones); a transport alone cannot clear it
                fight = moved_in or any(w.commands(u) and u.carrier is None and w.utype(u).domain == "sea" and (
                    u.phase == "combat" or (u.phase is None and w.utype(u).attack > 0 and not w.utype(u).has("transport")))
                    for u in w.units_at(zone))
                if not fight:
                    self.problems.append(Problem("illegal", f"transports cannot offload in hostile {zone} unless a sea battle there clears it first", rule=R_TRANSPORT + ": no offloading in a hostile sea zone",
                                                 hint=f"attack the enemy warships in {zone} in combat_move", path=where, code="move.offload-hostile"))
                continue
            warship = any(u.owner == w.power and w.utype(u).domain == "sea" and not w.utype(u).has("transport")
                          for u in w.units_at(zone))
            subs = any(w.utype(e).has("submarine") and not e.submerged for e in enemies)
            if subs and (ignores(w, self.orders, zone) or not moved_in) and not warship:  # ignored (no battle): only a warship escorts; ignored transports stop no landing
                self.problems.append(Problem("illegal", f"transports cannot offload from {zone}: enemy submarines there are ignored and no warship of yours is present",
                                             rule=R_TRANSPORT + ": offloading beside ignored enemy submarines", hint=f"move a warship into {zone} in combat_move", path=where, code="move.offload-ignored-subs"))

    def _ends_in_combat(self, move: Move) -> bool:
        w = self.w
        to = move.to
        if move.mission in ("strategic_bombing", "escort"):
            # a raid strikes what its bombers may (units.yaml `bombs`; a complex when none is named):
            # 1940's bases stand where no complex does (Gibraltar's naval base); escorts go where any raid may
            raiders = [self.ruleset.units[t] for t in move.units] if move.mission == "strategic_bombing" else self.ruleset.units.values()
            tags = {t for ut in raiders for t in (ut.bombs or ("factory",))}
            return any(w.utype(u).domain == "structure" and any(w.utype(u).has(t) for t in tags) for u in w.enemy_units_at(to))
        if w.is_sea(to):
            if any(u.path and any(p in w.captured_this_turn and (w.board.spaces[p].convoy or w.board.spaces[p].convoy_route is not None) for p in u.path)
                   for u in w.owned(w.power, to)):
                return True  # it took a convoy centre on its way (Battle of the Atlantic)
            if any(u.path and any(w.board.spaces[p].convoy and w.control.get(p) is not None and w.is_enemy(w.control[p]) for p in u.path)
                   for u in w.owned(w.power, to)):
                # passing an enemy-held convoy centre it cannot take (Convoy Center Movement Example:
                # "A German transport ... moves through a Convoy center and into the South Atlantic";
                # no noncombat move may enter one)
                return True
            if not w.is_sea(move.frm) and all(self.ruleset.units[t].domain == "land" for t in move.units):
                return True  # loading for an amphibious assault; the cargo rule checks the offload
            if w.enemy_units_at(to) and not ignores(w, self.orders, to):
                return True
            # Sea units supporting an amphibious assault from that zone, or loading for it.
            if any(u.seaborne_from == to for u in w.units.values() if w.commands(u)):
                return True
            if any(u.loaded_phase == "combat" for u in w.units_at(to) if w.commands(u)):
                return True
            # A leg of a transport's combat move that went on, loaded, to offload in an assault
            # (Rules.movement.transport_combat_move_in_legs).
            if any(u.offloaded_to and to in u.path and w.utype(u).has("transport") for u in w.units.values() if w.commands(u)):
                return True
            # Leaving a hostile sea zone to escape combat.
            return w.is_hostile_sea_zone(move.frm)
        if w.is_hostile_territory(to) or to in self.w.captured_this_turn:
            return True
        if move.frm in w.board.spaces and w.is_sea(move.frm):
            return False
        # A tank that blitzed may end in a friendly territory.
        return any(u.path and any(p in w.captured_this_turn for p in u.path) for u in w.owned(w.power, to))

    def _air_left(self, u: Unit, moved: int | None = None) -> int:
        """The movement an air unit has left to land with, having used `moved` (default: what it has
        used), counting what a rule lends it for the whole turn (Rules.hooks.movement_bonus; e.g. 1940's
        air base: +1 for air units taking off there, the flight home included)."""
        w = self.w
        used = u.moved if moved is None else moved
        left = w.utype(u).move - used
        hook = self.rules.hooks.movement_bonus
        if hook is not None:
            left += hook(w.options, w.power, w.utype(u), phase="noncombat", frm=u.space, to=u.space, start=u.start, moved=used,
                         arrived_this_phase=False, board=w.board, control=w.control, world=w)[0]
        return left

    def check_air_can_land(self) -> None:
        """Before any battle, show a possible landing for every attacking air unit (Air units)."""
        w = self.w
        new_carriers = self._new_carrier_zones()
        # zones of this turn's sea battles, where no attacking plane may land (Rules.movement.attacking_air_lands_at_sea_battle)
        sea_battles = set() if self.mover.sea_battle_landing() else {
            u.space for u in w.units.values() if w.commands(u) and u.phase == "combat" and w.is_sea(u.space) and w.enemy_units_at(u.space)}
        # every place aboard a friendly carrier, with the zones that carrier may end the turn in: its
        # own, or those it can still sail to in noncombat move
        carriers: list[tuple[int, frozenset[str]]] = []
        reach = self._carrier_noncombat_reach()
        for c in sorted(w.units.values(), key=lambda u: u.id):
            if w.utype(c).has("carrier") and w.shares_with(c.owner) and w.carrier_room(c) > 0:
                zones = frozenset(z for z in reach.get(c.id, {c.space}) if z not in sea_battles)
                if zones:
                    carriers.append((w.carrier_room(c), zones))
        # and aboard the carriers bought this turn, in a zone beside a complex (each its places)
        placeable = frozenset(new_carriers - sea_battles)
        for t, n in sorted(self.bought.items()):
            profile = self.ruleset.units.get(t)
            if placeable and profile is not None and profile.has("carrier") and profile.carrier_capacity > 0:
                carriers += [(profile.carrier_capacity, placeable)] * n
        deck_zones = frozenset().union(*(zones for _, zones in carriers))
        # fighters whose only landings are carriers, with the zones of those they can reach: each
        # needs a place of its own ("you must declare up front where each plane plans to land")
        need_decks: list[tuple[Unit, list[str]]] = []
        for u in sorted(w.units.values(), key=lambda u: u.id):
            if not w.commands(u) or u.phase != "combat" or w.utype(u).domain != "air" or u.stowed:
                continue  # (a stowed air unit is cargo aboard its carrier: it stays there)
            if u.mission is not None and self.rules.hooks.one_way_missions is not None and u.mission in self.rules.hooks.one_way_missions(self.options, w.power, w.utype(u)):
                continue  # it is lost in its battle and needs no landing (Rules.hooks.one_way_missions)
            left = self._air_left(u)
            is_fighter = w.utype(u).lands_on_carriers

            def open_landing(s: str) -> bool:  # a friendly territory
                return w.space(s).is_land and w.is_friendly_territory(s, at_start=True) and s not in self._attacked_spaces()

            def landing(s: str) -> bool:
                return open_landing(s) or (is_fighter and s in deck_zones)

            dist = self.mover.air_distance(u.space, landing, left, flying=True)
            if dist is None:
                self.problems.append(Problem("illegal", f"{u.type} attacking {u.space} has {left} movement left and no possible landing", rule=R_AIR + ": a possible landing must be shown for every attacking air unit", hint="attack a closer space, or move a carrier where it can land", path=u.order or ("combat_move",), code="air.no-landing"))
            elif is_fighter and self.mover.air_distance(u.space, open_landing, left, flying=True) is None:
                decks = [z for z in sorted(deck_zones) if self.mover.air_distance(u.space, lambda s, z=z: s == z, left, flying=True) is not None]
                need_decks.append((u, decks))
        for u, decks in _without_a_deck(need_decks, carriers):
            room = sum(n for n, zones in carriers if zones & set(decks))
            wanting = sum(1 for _, d in need_decks if set(d) & set(decks))
            self.problems.append(Problem("illegal", f"{u.type} attacking {u.space} has no carrier place left: the carriers it can reach "
                                                    f"(in {', '.join(decks)}) have {count_of(room, 'place')} for {wanting} attacking fighters",
                                         rule=R_AIR + ": a possible landing must be shown for every attacking air unit, each its own place",
                                         hint="send fewer fighters, or bring another carrier", path=u.order or ("combat_move",), code="air.no-landing"))

    def _carrier_noncombat_reach(self) -> dict[int, set[str]]:
        """Own carriers that stayed put in combat move -> the sea zones they can end the turn in
        (where they are, or where they can sail in noncombat move).

        A landing plan may rely on a carrier's noncombat move, but then that carrier must not move in
        combat move (Air Units: demonstrating a possible landing)."""
        w = self.w
        # "you may assume that all of your attacking rolls will be hits" (1942 Second Edition, Air
        # Units): a sea zone attacked this turn is clear by noncombat move
        attacked = {u.space for u in w.units.values() if w.commands(u) and u.phase == "combat" and w.is_sea(u.space)}

        def clear(s: str) -> bool:
            return s in attacked or not w.is_hostile_sea_zone(s)

        out: dict[int, set[str]] = {}
        for c in w.units.values():
            if c.owner != w.power or not w.utype(c).has("carrier") or c.phase is not None or c.fought:
                continue
            move = w.utype(c).move
            reach = self.mover.reachable("sea", c.space, move, clear)
            if self.rules.hooks.movement_bonus is not None:  # a space lent by a rule (Pacific's and 1940's naval bases)
                for z in sorted(self.mover.reachable("sea", c.space, 2 * move, clear) - reach):
                    extra, within = self.mover._bonus(Move("noncombat", {c.type: 1}, c.space, z), [c])
                    if extra and self.mover.find_path("sea", c.space, z, move + extra,
                                                      lambda s, within=within: clear(s) and (within is None or s in within)) is not None:
                        reach.add(z)
            out[c.id] = {z for z in reach if z != c.space and w.is_sea(z) and clear(z)} | {c.space}
        return out

    def _attacked_spaces(self) -> set[str]:
        w = self.w
        return {u.space for u in w.units.values() if w.commands(u) and u.phase == "combat" and w.is_hostile_territory(u.space)}

    def _carrier_room(self) -> dict[str, int]:
        w = self.w
        room: dict[str, int] = {}
        for u in w.units.values():
            if w.utype(u).has("carrier") and w.shares_with(u.owner):
                room[u.space] = room.get(u.space, 0) + w.carrier_room(u)
        return room

    def _placed_carrier_room(self) -> dict[str, int]:
        """Sea zone -> the places on the carriers the orders mobilize there that neither the new
        fighters placed with them nor air units already waiting there take."""
        w = self.w
        room: dict[str, int] = {}
        for placement in self.orders.placements:
            if w.space(placement.space).is_land:
                continue
            units = {t: n for t, n in placement.units.items() if t in self.ruleset.units}
            decks = sum(self.ruleset.units[t].carrier_capacity * n for t, n in units.items() if self.ruleset.units[t].has("carrier"))
            fighters = sum(n for t, n in units.items() if self.ruleset.units[t].lands_on_carriers)
            room[placement.space] = room.get(placement.space, 0) + decks - fighters
        for zone in list(room):
            room[zone] -= sum(1 for u in w.units_at(zone) if w.commands(u) and w.utype(u).domain == "air" and u.carrier is None
                              and u.mission != "cap")
        return {z: n for z, n in room.items() if n > 0}

    def _new_carrier_zones(self) -> set[str]:
        w = self.w
        if not self.rules.movement.air_lands_for_new_carriers or not any(self.ruleset.units[t].has("carrier") for t in self.bought):
            return set()
        zones = set()
        for u in w.units.values():
            if u.owner == w.power and w.utype(u).has("factory") and w.is_friendly_territory(u.space, at_start=True):
                zones |= {s for s in w.board.neighbours(u.space) if w.is_sea(s)}
        return zones

    def overflight(self, leg: str) -> None:
        """Antiaircraft guns fire at aircraft flying over hostile territories, in flight-path order
        (rule systems with `aa_fires_at_overflight`; Revised, Combat Move: Air Units)."""
        w = self.w
        when = self.rules.movement.aa_fires_at_overflight
        if when == "never" or (when == "combat_move" and leg != "combat") or self.validating:
            return
        from pbem.engine.antiair import Flight, antiair_fire

        guns = {t: frozenset(u.owner for u in w.enemy_units_at(t) if w.utype(u).has("aa")) for t in w.board.spaces
                if w.space(t).is_land and w.is_hostile_territory(t)}
        guns = {t: owners for t, owners in guns.items() if owners}
        if not guns:
            return
        from pbem.engine.battles import aa_modifiers

        flying: dict[str, int] = {}
        for u in w.units.values():
            if w.commands(u) and w.utype(u).domain == "air":
                flying[u.type] = flying.get(u.type, 0) + 1
        hostile_aa: dict[str, int] = {}
        immune: frozenset[str] = frozenset()
        for t, owners in sorted(guns.items()):
            # the gun hits as it would in a battle there (Revised Radar), and spares whom it would spare
            hit, spared = aa_modifiers(self, t, owners, flying)
            hostile_aa[t] = hit or self.combat_rules.aa_hit
            immune |= spared
        groups: dict[tuple[object, tuple[str, ...]], list[Unit]] = {}
        for u in sorted(w.units.values(), key=lambda u: u.id):
            if not w.commands(u) or w.utype(u).domain != "air":
                continue
            if leg != "combat" and when == "combat_move_and_retreat" and not u.retreated:
                continue
            if leg != "combat" and not u.combat_path:
                continue  # a noncombat flight alone is not a return trip: guns fire in the combat phases only
            path = tuple(u.path[: u.combat_path]) if leg == "combat" else tuple(u.path[u.combat_path:])
            if path:
                groups.setdefault((u.order, path), []).append(u)
        flights, members, battles = [], {}, {}
        for i, ((_, path), units) in enumerate(groups.items(), start=1):
            counts: dict[str, int] = {}
            for u in units:
                counts[u.type] = counts.get(u.type, 0) + 1
            name = f"{leg}-{i}"
            flights.append(Flight(name, w.power, counts, path, leg))
            members[name] = units
            if leg == "combat" and w.is_hostile_territory(path[-1]):
                battles[name] = frozenset({path[-1]})  # that gun fires in the battle itself
        result = antiair_fire(tuple(flights), hostile_aa, self.dice, battles=battles, immune=immune)
        for ev in result.events:
            aimed = ", ".join(count_of(len(d), u) for u, d in ev.dice)
            lost = ", ".join(count_of(n, u) for u, n in ev.lost.items() if n) or "nothing"
            self.log.rolls.append({"step": "aa-overflight", "power": w.control.get(ev.territory, ""),
                                   "what": f"antiaircraft gun in {ev.territory} fires at aircraft flying over ({aimed}; hit on {ev.hit_on})",
                                   "dice": [f for _, d in ev.dice for f in d], "result": f"{lost} shot down"})
        for name, by_type in result.lost.items():
            for utype, n in by_type.items():
                for u in [u for u in members[name] if u.type == utype and u.id in w.units][:n]:
                    if leg == "combat":
                        self.shot_down_going_to.add(u.path[u.combat_path - 1])
                    w.remove(u)

    def rocket_strikes(self) -> None:
        """Rocket strikes (Revised, Rockets): each territory's antiaircraft gun may strike one enemy
        industrial complex within 3 spaces; each complex is struck at most once a turn; there is no
        defence; the owner surrenders the die's IPCs, at most the territory's value (DIGEST §5 REV.2:
        resolved in Conduct Combat)."""
        w = self.w
        if not self.orders.rockets:
            return
        if self.rules.technology is not None:
            self.facility_rockets()
            return
        from pbem.engine.research import has_rockets

        rule = "Weapons Developments: Rockets"
        used_from: set[str] = set()
        struck: set[str] = set()
        for frm, target, path, _facility in self.orders.rockets:
            gun = [u for u in w.units_at(frm) if u.owner == w.power and w.utype(u).has("aa")]
            problem = None
            if not has_rockets(w.developments.get(w.power, frozenset())):
                problem = f"{w.power} has not developed Rockets"
            elif not gun:
                problem = f"{w.power} has no antiaircraft gun in {frm}"
            elif frm in used_from:
                problem = f"only one gun per territory fires a rocket; {frm} already fired"
            elif target in struck:
                problem = f"{possessive(target)} complex is struck by one rocket at most each turn"
            elif not (w.is_hostile_territory(target) and any(w.utype(u).has("factory") for u in w.units_at(target))):
                problem = f"{target} holds no enemy industrial complex"
            elif self.mover.air_distance(frm, lambda s: s == target, 3) is None:
                problem = f"{target} is more than 3 spaces from {frm}"
            if problem:
                self.problems.append(Problem("illegal", problem, rule=rule, hint="remove this strike from rockets:", path=path, code="rocket.illegal"))
                continue
            used_from.add(frm)
            struck.add(target)
            gun[0].fought = True  # a gun that fired a rocket does not move this turn (FAQ)
            if self.validating:
                continue
            from pbem.engine.combat.sbr import rocket_strike

            victim = w.control[target]
            out = rocket_strike(frm, target, w.space(target).ipc, w.treasury.get(victim, 0), self.dice)
            w.treasury[victim] = w.treasury.get(victim, 0) - out.ipcs_lost
            self.log.rolls.append({"step": "rocket", "power": w.power, "what": f"rocket from {frm} at {target}",
                                   "dice": [out.rolled], "result": f"{victim} surrenders {count_of(out.ipcs_lost, 'IPC')}"})

    def facility_rockets(self) -> None:
        """Technology.rockets (AMS Rockets): each operational launching facility fires one rocket a turn
        at an enemy facility within its reach, never over a neutral; the best of its dice is the
        damage, at most the facility's damage cap."""
        tech, w = self.rules.technology, self.w
        assert tech is not None
        rule = "Tech Chart 1, 2. Rockets"
        launchers = {name: (reach, dice) for name, reach, dice in tech.rocket_launchers}
        fired: set[str] = set()
        for frm, target, path, facility in self.orders.rockets:
            problem, hint = None, "remove this strike from rockets:"
            here = [u for u in w.units_at(frm) if u.type in launchers and w.is_friendly(u.owner) and w.controller(frm, at_start=True) == w.power
                    and w.damage.get(f"{frm}/{u.type}", 0) < (w.utype(u).inoperable_at or 10**6)]
            here.sort(key=lambda u: -launchers[u.type][0])
            struck = [u for u in w.units_at(target) if w.utype(u).domain == "structure" and w.is_enemy(u.owner)
                      and (u.type == facility if facility else w.utype(u).has("factory"))]
            if tech.rockets is None or tech.rockets not in w.developments.get(w.power, frozenset()):
                problem = f"{w.power} has not developed Rockets"
            elif not here:
                problem = f"{frm} has no operational air base or air strip of {possessive(w.power)} held since the turn began"
            elif frm in fired:
                problem = f"a facility launches one rocket a turn; {possessive(frm)} has fired"
            elif not struck:
                problem = f"{target} holds no enemy {facility or 'production facility'}"
                others = sorted({u.type for u in w.units_at(target) if w.utype(u).domain == "structure" and w.is_enemy(u.owner)})
                if others:  # without `facility:` a rocket strikes the complex
                    hint = f"name the facility to strike there: {' or '.join(f'facility: {t}' for t in others)}"
            elif self.mover.find_path("air", frm, target, launchers[here[0].type][0], lambda s: not self.mover.neutral_below(s)) is None:
                reach = launchers[here[0].type][0]
                problem = (f"every way from {frm} to {target} within {reach} spaces crosses a neutral territory: "
                           "no rocket may be launched over one"
                           if self.mover.find_path("air", frm, target, reach, lambda s: True) is not None
                           else f"{target} is more than {reach} spaces from {frm}")
            if problem:
                self.problems.append(Problem("illegal", problem, rule=rule, hint=hint, path=path, code="rocket.illegal"))
                continue
            fired.add(frm)
            if self.validating:
                continue
            reach, dice = launchers[here[0].type]
            profile = w.utype(struck[0])
            key = target if profile.has("factory") else f"{target}/{profile.name}"
            cap = (w.facility_max_damage(target) if profile.has("factory") else profile.max_damage) or 10**6
            faces = self.dice.roll(f"rocket/{frm}/{target}", dice)
            applied = min(max(faces), max(0, cap - w.damage.get(key, 0)))
            w.damage[key] = w.damage.get(key, 0) + applied
            self.log.rolls.append({"step": "rocket", "power": w.power, "what": f"rocket from the {here[0].type} in {frm} at the {profile.name} in {target}",
                                   "dice": list(faces), "result": f"{applied} damage"})

    def combat(self) -> None:
        self.rocket_strikes()
        if self.rules.scramble is not None:
            from pbem.engine.scramble import scramble

            scramble(self)
        plan = BattlePlan.from_world(self.w, self.orders, self.standing)
        for space, directive in self.orders.battles.items():
            if directive.ignore:
                self._check_ignore(space, directive)
                if space in self.shot_down_going_to and not self._something_to_ignore(space):
                    self.log.notes.append(f"{space} has no battle to ignore: the aircraft sent there were shot down on the way")
                elif ignores(self.w, self.orders, space) and not self._something_to_ignore(space):
                    self.problems.append(Problem("illegal", f"the battles section has {space} ignore its enemies, but no unit of yours meets one there",
                                                 rule="Conduct Combat: directives are for the battles your combat moves start",
                                                 hint=f"remove the directive for {space}", path=(*directive.yaml_path, "ignore"), code="directive.no-battle"))
                elif ignores(self.w, self.orders, space):
                    self.log.notes.append(f"{self.w.power} lets the enemy submarines and transports in {space} be: no sea battle there")
                elif self.w.is_sea(space) and any(u.mission == "scrambled" for u in self.w.units_at(space)):
                    self.log.notes.append(f"{space} is not ignored: defenders scrambled into it, and the sea battle is fought")
                continue
            if space not in plan.land and space not in plan.sea and space in self.shot_down_going_to:
                self.log.notes.append(f"No battle in {space}: the aircraft sent there were shot down on the way, and its battle directive goes unused")
            elif space not in plan.land and space not in plan.sea and space in plan.raids:
                pass  # a raid's air battle: the order of loss chooses bombers or escorts (battles._bombers_first)
            elif space not in plan.land and space not in plan.sea and (
                    space in self._refused_into or {"*", space} & self._unread_before_all()):
                pass  # the battle a refused (or unreadable) move was to start: that move's problem says it all
            elif space not in plan.land and space not in plan.sea:
                self.problems.append(Problem("illegal", f"the battles section names {space}, but no battle will be fought there",
                                             rule="Conduct Combat: directives are for the battles your combat moves start",
                                             # the battles fought: an empty territory taken by landing is none
                                             hint="battles: " + (", ".join(s for s in plan.land + plan.sea if self.w.enemy_units_at(s)) or "(none this turn)"),
                                             path=directive.yaml_path, code="directive.no-battle"))
        resolve_battles(self, plan)

    def _something_to_ignore(self, space: str) -> bool:
        """Enemy units in `space` and a unit of the mover's there beside them."""
        w = self.w
        return any(not e.submerged for e in w.enemy_units_at(space)) and any(w.commands(u) for u in w.units_at(space))

    def _check_ignore(self, space: str, directive: BattleDirective) -> None:
        """`ignore: true` is for enemy submarines and transports the mover may let be, nothing else."""
        w = self.w
        rule = "Combat Move: \"you have the option of attacking an enemy submarine and/or transport that shares a sea zone with you\""
        path = (*directive.yaml_path, "ignore")
        if not w.is_sea(space):
            self.problems.append(Problem("illegal", f"{space} is a territory: only enemy submarines and transports at sea may be ignored", rule=rule,
                                         hint=f"remove ignore: from the directive for {space}", path=path, code="directive.ignore"))
        elif w.is_hostile_sea_zone(space):
            why = ("in this game every enemy ship makes a zone hostile" if "submarine" in self.rules.movement.hostile_sea_zone_tags
                   else "only submarines and transports may be, and only where no other enemy warship is")
            self.problems.append(Problem("illegal", f"the enemy units in {space} cannot be ignored: {why}",
                                         rule=rule, hint=f"remove ignore: from the directive for {space}, or keep out of {space}", path=path, code="directive.ignore"))

    def _remember_capture(self, space: str, by: str) -> None:
        """Politics.remembered_captures: the other side's capture of such a territory, kept for good."""
        politics = self.rules.politics
        if politics is None or space not in politics.remembered_captures:
            return
        side = self.ruleset.side_of(by)
        original = self.w.space(space).original_owner
        if original is None or self.ruleset.side_of(self.ruleset.power_name(original)) != side:
            facts = set(self.w.pending.get("facts", []) or [])  # type: ignore[call-overload]
            self.w.pending["facts"] = sorted(facts | {f"taken by {side}: {space}"})

    def capture(self, space: str, by: str, *, blitz: bool = False) -> None:
        """Take control of a territory: production, capital plunder, liberation (Capturing Territory)."""
        w = self.w
        sp = w.space(space)
        previous = w.control.get(space)
        if previous is None or not w.is_enemy(previous, by):
            return
        by = self.ruleset.power_name(by)
        country = w.country_for(space, by)
        w.control[space] = country
        w.captured_this_turn.add(space)
        self._remember_capture(space, by)
        entry: dict[str, Any] = {"space": space, "by": country, "from": previous, "ipc": sp.ipc, "blitz": blitz}
        # Enemy structures and antiaircraft units left in the territory change hands, or the AA is
        # destroyed where the rules say so (1942: General Combat, step 7; Revised: AA guns are captured).
        removed: dict[tuple[str, str], int] = {}
        taken_over: dict[tuple[str, str], int] = {}  # antiaircraft units that change hands
        for u in list(w.units_at(space)):
            if w.is_enemy(u.owner, by):
                on_capture = w.utype(u).on_capture
                if on_capture == "destroyed" or (on_capture == "destroyed_alone" and not any(
                        o is not u and w.utype(o).domain == "structure" and w.utype(o).on_capture is None for o in w.units_at(space))):
                    # AMS: a pill box is "Automatically destroyed if captured"; a radar tower unless a facility stays
                    self.log.notes.append(f"The {u.type} in {space} is destroyed with its capture")
                    w.remove(u)
                elif w.utype(u).domain == "structure" or (w.utype(u).has("aa") and not self.combat_rules.aa_destroyed_when_alone):
                    if w.utype(u).domain != "structure":
                        taken_over[(u.owner, u.type)] = taken_over.get((u.owner, u.type), 0) + 1
                    u.owner = by
                    u.fought = True  # a captured gun cannot move this turn (Revised FAQ)
                    u.captured = True
                    own = sp.original_owner is not None and sp.original_owner in self.ruleset.countries_of(by)
                    if self.rules.production.own_recapture_downgrades or not own:
                        self._downgrade_captured(u)
                elif w.utype(u).domain == "land":
                    removed[(u.owner, u.type)] = removed.get((u.owner, u.type), 0) + 1
                    w.remove(u)
        for (owner, utype), n in sorted(removed.items()):
            # 1942, General Combat: territories holding only AAA are taken with no combat: "remove any
            # antiaircraft artillery units that may be in them" (no battle reports them)
            self.log.notes.append(f"{possessive(owner)} {count_of(n, utype)} in {space} {'is' if n == 1 else 'are'} destroyed with its capture")
        if taken_over:  # the report tells them where no battle report does (a territory taken with no battle)
            entry["taken_over"] = {f"{possessive(owner)} {count_of(n, utype)}": n for (owner, utype), n in sorted(taken_over.items())}
        loser = w.capital_of_space(space)
        entry["capital"] = bool(loser)  # a capital now: London is none once UK Europe's has gone into exile (AMS)
        if loser and w.is_enemy(loser, by) and self.rules.capitals.capital_plunder:
            loot = w.treasury.get(loser, 0)
            facts = set(w.pending.get("facts", []) or [])  # type: ignore[call-overload]
            taken = f"capital taken: {space}"
            w.treasury[loser] = 0
            if self.rules.capitals.plunder_once and taken in facts:
                # AMS: "Subsequent recapture of the same capitol results in the player's IPCs being destroyed"
                entry["destroyed"] = loot
                self.log.notes.append(f"{possessive(loser)} {count_of(loot, 'IPC')} are destroyed: {space} was plundered before")
            else:
                w.treasury[country] = w.treasury.get(country, 0) + loot
                entry["plunder"] = loot
                self.lose_victory_points(loser, loot, f"{count_of(loot, 'IPC')} handed over with {space}")
            if self.rules.capitals.plunder_once:
                # the capital's history is a fact of the game (objectives' only_after: AMS "Liberate Paris")
                w.pending["facts"] = sorted(facts | {taken})
            exile = self.rules.capitals.exile.get(loser)
            if exile and exile != space:
                # AMS, Political Exile: "Ottawa will become the new capitol of UK Europe for the remainder of the game"
                w.pending["exiles"] = {**dict(w.pending.get("exiles") or {}), loser: exile}  # type: ignore[call-overload]
                self.log.notes.append(f"{loser} goes into exile: {exile} is its capital for the rest of the game")
        original = sp.original_owner
        if original and self.ruleset.power_name(original) != by and w.is_friendly(original, by):
            entry["liberation_of"] = original
            if self.rules.capitals.liberation_deferred_to_end_of_turn:
                liberations = w.pending.setdefault("liberations", [])  # type: ignore[union-attr]
                assert isinstance(liberations, list)
                liberations.append([space, original])
            else:
                self._liberate(space, original)
        holder = self.ruleset.power_name(w.control[space])
        if original and holder == self.ruleset.power_name(original) and holder in self.rules.production.factories_removed_on_return:
            for u in sorted((u for u in w.units_at(space) if w.utype(u).has("factory")), key=lambda u: u.id):
                self.log.notes.append(f"The {u.type} in {space} is removed from the game: {holder} takes back no production facility another power built")
                w.remove(u)
        self.log.captures.append(entry)
        for grant in self.free_units("captured", space=space, by=w.control[space], previous=previous, original_owner=original,
                                     standing=self.standing, units=self.ruleset.units):
            self.give(grant, space if space in grant.spaces else grant.spaces[0])

    def _downgrade_captured(self, u: Any) -> None:
        """A facility whose profile names `captured_as` becomes that one when captured, its damage
        cut to the new cap (1940 Global: "If you capture a major industrial complex, it is immediately
        downgraded to a minor industrial complex and any damage markers above 6 are removed")."""
        w = self.w
        lower = w.utype(u).captured_as
        if lower is None:
            return
        was = u.type
        u.type = lower
        cap = w.facility_max_damage(u.space)
        if cap is not None and w.damage.get(u.space, 0) > cap:
            w.damage[u.space] = cap
        self.log.notes.append(f"The {was} in {u.space} is captured and becomes a {lower}")

    def _liberate(self, space: str, original: str) -> None:
        """Return a liberated territory (with its complex and captured AA) to its original owner,
        unless that owner's capital is in enemy hands: then the liberator holds it."""
        w = self.w
        if w.capital_held(original) or not self.rules.capitals.liberation_needs_capital:
            w.control[space] = original
            for u in w.units_at(space):
                if w.utype(u).domain == "structure" or w.utype(u).has("aa"):
                    if w.is_friendly(u.owner, original):
                        u.owner = self.ruleset.power_name(original)
            self.log.notes.append(f"{space} is liberated and returns to {original}")
        else:
            self.log.notes.append(f"{space} is captured by {w.control[space]}: {possessive(original)} capital is in enemy hands")

    def land_at_sea(self) -> None:
        """Rules.movement.fighters_land_after_noncombat: fighters ordered to a sea zone in noncombat move land
        there only now, on a carrier with room that is there once every move is made (FAQ: "Fighters
        land at the very end of noncombat movement").  In validation one without a carrier is a
        problem; at adjudication it is left to land_air_units."""
        w = self.w
        if not self.rules.movement.fighters_land_after_noncombat:
            return
        for u in sorted(w.units.values(), key=lambda u: u.id):
            if (not w.commands(u) or w.utype(u).domain != "air" or u.carrier is not None or u.phase != "noncombat"
                    or w.space(u.space).is_land or u.space in self.mover.new_carrier_zones):
                continue
            hosts = sorted((h for h in w.units_at(u.space) if w.utype(h).has("carrier") and w.shares_with(h.owner, u.owner)
                            and w.has_room(h, u.type)), key=lambda h: (h.owner != u.owner, h.id))
            if self.mover.bars_landing([u], u.space):
                hosts = []  # it attacked, and a battle was fought here (Rules.movement.attacking_air_lands_at_sea_battle)
            if hosts:
                u.carrier = hosts[0].id
            elif self.validating:
                self.problems.append(Problem("illegal", f"{u.type} ordered to {u.space} finds no carrier with room there at the end of noncombat move",
                                             rule=R_AIR + ": fighters land at the very end of noncombat movement (FAQ)",
                                             hint="fly the fighter to the sea zone where the carrier will be at the end of noncombat move",
                                             path=(*u.order, "to") if u.order else ("noncombat_move",), code="air.landing"))

    def declare_wars(self, phase: str = "combat_move") -> None:
        """Rules.politics: "A DOW is made at the beginning of the combat move phase of any turn" if
        no political restriction applies (the ruleset's may_declare_war says which).  One refused then
        but open at this turn's Collect Income phase (1940: the United States' turn 3) is made there:
        declare_wars("collect_income") makes the declarations left for it."""
        w = self.w
        politics = self.rules.politics
        orders = self.orders.declare_war if phase == "combat_move" else self._late_declarations
        for target, path in orders:
            rule = "Political rules: declarations of war"
            if politics is None:
                self.problems.append(Problem("illegal", "in this game the sides are always at war: there is nothing to declare",
                                             rule=rule, hint="remove declare_war:", path=path, code="politics.always-at-war"))
                continue
            relation = w.relation(target)
            if relation == "war":
                # Declaration of War (1940, E12): "it does not need to make a return DOW, but it can" -
                # allowed, and it changes nothing (no fact: a return declaration provokes nothing)
                if phase == "combat_move":
                    self.warnings.append(Problem("warning", f"{w.power} is already at war with {target}: the declaration changes nothing",
                                                 rule=rule, hint="remove it from declare_war:, or keep it as a return declaration",
                                                 path=path, code="politics.already-at-war"))
                continue
            if relation != "peace":
                self.problems.append(Problem("illegal", f"{w.power} cannot declare war on {target}: {target} is on {possessive(w.power)} side",
                                             rule=rule, hint="remove it from declare_war:", path=path, code="politics.not-at-peace"))
                continue
            facts = frozenset(w.pending.get("facts", []) or [])  # type: ignore[call-overload]
            refused = self._declaration_refused(target, facts, phase)
            if refused and phase == "combat_move" and self._declaration_refused(target, facts, "collect_income") is None:
                self._late_declarations.append((target, path))
                continue  # made at this turn's Collect Income phase
            if refused:
                self.problems.append(Problem("illegal", f"{w.power} may not declare war on {target} now: {refused}", rule=rule,
                                             hint=f"remove {target} from declare_war:", path=path, code="politics.refused"))
                continue
            others: tuple[tuple[str, str], ...] = ()
            if politics.on_declare is not None:
                others, new_facts = politics.on_declare(self.options, w.power, target, at_war=frozenset(w.wars or ()))
                if new_facts:
                    w.pending["facts"] = sorted({*facts, *new_facts})
            w.declare_war(w.power, target)
            self.log.declarations.append(f"{w.power} declares war on {target}" + (" at its Collect Income phase" if phase == "collect_income" else ""))
            for a, b in others:
                if w.relation(a, b) == "peace":
                    w.declare_war(a, b)
                    self.log.declarations.append(f"{a} and {b} are at war too, brought in by the declaration on {target}")

    def land_combat_air_patrol(self) -> None:
        """Pacific, Phase 2: "Fighters on CAP may land on any friendly land territory that is adjacent
        to the sea zone or any friendly carrier, island or island group that is within the sea zone.
        If a CAP fighter cannot land because there is no friendly landing place, then the fighter is
        lost"; "Having landed, the fighter may then move as normal"."""
        w = self.w
        for u in sorted((u for u in w.units.values() if u.owner == w.power and u.mission == "cap" and u.carrier is None),
                        key=lambda u: u.id):
            zone = u.space
            hosts = [h for h in w.units_at(zone) if w.utype(h).has("carrier") and w.shares_with(h.owner, u.owner) and w.has_room(h, u.type)]
            lands = sorted(t for t in w.board.neighbours(zone) if w.space(t).is_land and not w.space(t).impassable
                           and w.is_friendly_territory(t))
            wanted = self.orders.cap_landing.get(zone)
            if wanted is not None and not ((wanted == zone and hosts) or wanted in lands):
                self.problems.append(Problem("illegal", f"the fighters on patrol in {zone} cannot land in {wanted}",
                                             rule="Phase 2: CAP fighters land on a friendly territory next to the zone or a friendly carrier or island in it",
                                             hint="possible: " + (", ".join(([zone] if hosts else []) + lands) or "nowhere: they are lost"),
                                             path=("cap_landing", zone), code="cap.landing"))
                wanted = None
            target = wanted or (zone if hosts else lands[0] if lands else None)
            u.mission = None
            if target is None:
                self.log.lost_air.append({"unit": u.type, "owner": u.owner, "space": zone, "reason": "no friendly landing for its combat air patrol"})
                w.remove(u)
                continue
            if target == zone:
                u.carrier = hosts[0].id
                where = f"on the {hosts[0].type} there"
            else:
                u.space = u.start = target
                where = f"in {target}"
            self.log.notes.append(f"A {u.type} of {u.owner} on combat air patrol in {zone} lands {where}")

    def note_carrier_reach(self) -> None:
        """Before noncombat moves: where each own carrier could end its noncombat move, and which air
        units it holds, for `_carrier_that_could_carry`."""
        w = self.w
        self._carrier_reach = {}
        for c in w.units.values():
            if c.owner != w.power or not w.utype(c).has("carrier"):
                continue
            zones = {c.space}
            if self.mover.may_move_in_noncombat(c):
                # the search is wide enough for any movement bonus; could_move says where it may really go
                reach = self.mover.reachable("sea", c.space, 2 * w.utype(c).move, lambda s: not w.is_hostile_sea_zone(s))
                zones |= {z for z in sorted(reach) if z != c.space and w.is_sea(z)
                          and self.mover.could_move(Move("noncombat", {c.type: 1}, c.space, z), [c])}
            aboard = frozenset(a.id for a in w.units.values() if a.carrier == c.id)
            self._carrier_reach[c.id] = (frozenset(zones), aboard, c.space)

    def _carrier_that_could_carry(self, u: Unit, here: str, left: int) -> tuple[Unit, str] | None:
        """An own carrier that could have ended its noncombat move where air unit `u`, now left with no
        landing, reaches, at no cost to any other air unit: it ends the turn with room for `u`, and each
        air unit it took aboard this turn could have flown on to it there ("during noncombat movement
        you must provide for safe landing of as many air units as remains possible", 1942 Second
        Edition; a carrier "must do so if it is able";
        Revised and the AMS guide, E30: "you cannot noncombat move a carrier out of range ... and thereby
        strand air units")."""
        w = self.w
        for cid, (zones, aboard, start) in sorted(self._carrier_reach.items()):
            c = w.units.get(cid)
            if c is None or not w.has_room(c, u.type):
                continue
            # the air units it took aboard this turn: it may go only where each could still have flown
            # on to it from where it landed, so that moving it costs none of them
            landed = [a for a in w.units.values() if a.carrier == cid and a.id not in aboard]

            def keeps(a: Unit, z: str) -> bool:
                if self.mover.bars_landing([a], z):
                    return False
                frm, moved = a.leg_from or (a.space, a.moved)  # its landing flight, ended at z instead
                return self.mover.air_distance(frm, lambda s: s == z, self._air_left(a, moved), flying=True) is not None

            options = []  # (not where it stood, the air unit's flight, zone): name the simplest way to carry it
            for z in zones:
                if not self.mover.bars_landing([u], z) and all(keeps(a, z) for a in landed):
                    d = self.mover.air_distance(here, lambda s, z=z: s == z, left, flying=True)
                    if d is not None:
                        options.append((z != start, d, z))
            if options:
                return c, min(options)[2]
        return None

    def land_air_units(self) -> None:
        """Air units that end the turn where they cannot stay land at the nearest place, or are lost."""
        w = self.w
        capacity = self._carrier_room()
        new_carriers = self._new_carrier_zones() if self.bought else set()
        awaited = self._placed_carrier_room() if new_carriers else {}
        lost: list[tuple[Unit, str, int]] = []  # air units with no landing: where, and the movement they had left
        landed: dict[tuple[str, str, str], dict[str, int]] = {}  # (owner, from, to) -> units: told once per flight
        for u in sorted(w.units.values(), key=lambda u: u.id):
            if not w.commands(u) or w.utype(u).domain != "air" or u.carrier is not None:
                continue
            if u.mission == "cap" and u.phase == "noncombat":
                continue  # on combat air patrol: in the air until the owner's next turn
            if u.phase == "placed":
                continue  # placed this turn by a rule (AMS: France's liberation units): it never flew, it lands nowhere
            here = u.space
            if w.space(here).is_land and self.mover.lands_in_territory(u.owner, here):
                continue
            barred = self.mover.bars_landing([u], here)  # it attacked, and a battle was fought here
            if not w.space(here).is_land and w.utype(u).lands_on_carriers and not barred:
                hosts = [h for h in w.units_at(here) if w.utype(h).has("carrier") and w.shares_with(h.owner, u.owner) and w.has_room(h, u.type)]
                if hosts:
                    u.carrier = hosts[0].id
                    capacity[here] = capacity.get(here, 0) - 1  # that place is taken for the landings below
                    continue
                if here in new_carriers:
                    continue
            left = self._air_left(u)

            def landing(s: str) -> bool:
                if w.space(s).is_land:
                    return self.mover.lands_in_territory(u.owner, s)
                return (w.utype(u).lands_on_carriers and (capacity.get(s, 0) > 0 or awaited.get(s, 0) > 0)
                        and not self.mover.bars_landing([u], s))

            def home_first(s: str, u: Unit = u) -> int:
                # at equal distance: where it took off, then its own power's territory, then an ally's
                return 0 if s == u.start else 1 if w.control.get(s) in self.ruleset.countries_of(u.owner) else 2

            target = self._nearest(here, landing, left, home_first)
            if target is None:
                lost.append((u, here, left))
                w.remove(u)
                continue
            path = self.mover.find_path("air", here, target, left, lambda s: True, flying=True) or []
            u.leg_from = (here, u.moved)
            w.move_unit(u, path, self.mover.path_cost(here, path, flying=True))
            if not w.space(target).is_land and capacity.get(target, 0) <= 0:
                # it waits there for the carrier the orders place in the Mobilize phase (_land_on_new_carriers)
                awaited[target] -= 1
                self.log.defaults_used.append(f"{u.type} of {u.owner} in {here} flew to {target} to land on the carrier "
                                              "placed there (no noncombat order landed it)")
                continue
            if not w.space(target).is_land:
                capacity[target] -= 1
                host = [h for h in w.units_at(target) if w.utype(h).has("carrier") and w.has_room(h, u.type)]
                if host:
                    u.carrier = host[0].id
            flight = landed.setdefault((u.owner, here, target), {})
            flight[u.type] = flight.get(u.type, 0) + 1
        for (owner, here, target), units in landed.items():
            one = sum(units.values()) == 1
            what = next(iter(units)) if one else _units_text(dict(sorted(units.items())))
            self.log.defaults_used.append(f"{what} of {owner} in {here} landed in {target} (no noncombat order landed {'it' if one else 'them'})")
        doomed: dict[tuple[tuple[str | int, ...], str, str], tuple[int, int]] = {}  # (order, type, where) -> (count, moves left)
        for u, here, left in lost:  # judged once every other air unit has landed
            reason = "no landing within range"
            saver = self._carrier_that_could_carry(u, here, left) if w.utype(u).lands_on_carriers else None
            if saver is not None:
                carrier, zone = saver
                stayed = zone == self._carrier_reach[carrier.id][2]
                could = (f"the aircraft carrier that ended in {carrier.space} could have "
                         f"{'stayed in' if stayed else 'moved to'} {zone} to carry it")
                if self.validating:
                    self.problems.append(Problem(
                        "illegal", f"the {u.type} in {here} is left with no landing, but {could}",
                        rule=R_AIR + ": in noncombat move provide a safe landing for as many air units as remains "
                                     "possible; a carrier must move to a fighter's sea zone if it is able",
                        hint=f"{'leave that carrier in' if stayed else 'move that carrier to'} {zone}, or fly the {u.type} to another landing",
                        path=carrier.order if carrier.phase == "noncombat" and carrier.order else u.order or ("noncombat_move",),
                        code="air.stranded"))
                else:  # the battles went otherwise than the orders foresaw
                    reason += f"; {could}, but the orders, written before the battles, moved it otherwise"
            elif self.validating:
                # Validation plays every attack as won, so a unit lost here is lost whatever the dice:
                # the player is told (once per order and place), though no single carrier could have
                # saved it (air.stranded).
                key = (u.order or ("noncombat_move",), u.type, here)
                n, most = doomed.get(key, (0, 0))
                doomed[key] = (n + 1, max(most, left))
            self.log.lost_air.append({"unit": u.type, "owner": u.owner, "space": here, "reason": reason})
        for (path, utype, here), (n, left) in doomed.items():
            self.warnings.append(Problem(
                "warning", f"{'the ' + utype if n == 1 else count_of(n, utype)} in {here} {'has' if n == 1 else 'have'} no landing "
                f"in these orders even if every attack succeeds, and will be lost",
                rule=R_AIR + ": in noncombat move provide a safe landing for as many air units as remains possible",
                hint=f"fly {'it' if n == 1 else 'them'} in noncombat_move to a friendly territory or carrier within "
                     f"{count_of(left, 'space')}, or move a carrier where {'it' if n == 1 else 'they'} can land",
                path=path, code="air.lost"))

    def _nearest(self, frm: str, accept: Any, budget: int, prefer: Any = None) -> str | None:
        """The accepted space nearest `frm` within `budget`; at equal distance the one `prefer` ranks
        lowest, then by name."""
        w = self.w
        best: tuple[int, int, str] | None = None
        for name in sorted(w.board.spaces):
            if not accept(name):
                continue
            path = self.mover.find_path("air", frm, name, budget, lambda s: True, flying=True) if name != frm else []
            if path is None:
                continue
            key = (self.mover.path_cost(frm, path, flying=True), prefer(name) if prefer else 0, name)
            if best is None or key < best:
                best = key
        return best[2] if best else None

    def _declaration_refused(self, target: str, facts: frozenset[str], phase: str) -> str | None:
        """Why the mover may not declare war on `target` at `phase` (Politics.may_declare_war), or None."""
        politics, w = self.rules.politics, self.w
        if politics is None or politics.may_declare_war is None:
            return None
        return politics.may_declare_war(self.options, w.power, target, round=self.state.round, at_war=frozenset(w.wars or ()),
                                        control=dict(w.control), facts=facts, present=self._present(), phase=phase)

    def _present(self) -> dict[str, frozenset[str]]:
        """Space -> the powers with a unit there (Politics.may_declare_war's `present`)."""
        out: dict[str, set[str]] = {}
        for u in self.w.units.values():
            out.setdefault(u.space, set()).add(self.ruleset.power_name(u.owner))
        return {space: frozenset(owners) for space, owners in out.items()}

    def free_units(self, event: str, **facts: Any) -> list[Any]:
        """The units the rules give for nothing at `event` (`Rules.hooks.free_units`), once-per-game keys
        already used left out and the rest marked used.  The caller places them (`give`)."""
        if self.rules.hooks.free_units is None:
            return []
        used = list(self.w.pending.get("once", []) or [])  # type: ignore[call-overload]
        out = []
        for grant in self.rules.hooks.free_units(self.options, event, **facts):
            if grant.once is not None:
                if grant.once in used:
                    continue
                used.append(grant.once)
                self.w.pending["once"] = sorted(used)
            if grant.count > 0 and grant.spaces:
                out.append(grant)
        return out

    def give(self, grant: Any, space: str) -> None:
        w = self.w
        profile = self.ruleset.units[grant.unit]
        if profile.has("upgrade"):  # a facility raised for nothing (AMS: the set-up's conditional upgrades)
            self._upgrade(space, profile, grant.count, reason=grant.reason)
            return
        for _ in range(grant.count):
            unit = w.add(grant.unit, grant.owner, space)
            unit.phase = "placed"
            if grant.fights:  # attackers of this turn's battle there, with no move left
                unit.phase, unit.moved, unit.fought = "combat", profile.move, False
        self.log.notes.append(f"{grant.reason}: {grant.count} {grant.unit} of {grant.owner} placed free in {space}")
        self.log.free_units.append({"space": space, "power": grant.owner, "units": {grant.unit: grant.count}, "reason": grant.reason})

    def start_of_turn(self) -> None:
        """What the rules give at the very start of a power's turn (free_units event "start_of_turn")."""
        for grant in self.free_units("start_of_turn", power=self.w.power, world=self.w):
            for space in grant.spaces:
                self.give(grant, space)

    def _not_for_sale(self, profile: Any, country: str, path: tuple, count: int = 0) -> bool:
        """Units only some countries buy (units.yaml `bought_by`; Pacific: "Only the U.S. may purchase
        Marines and Industrial Complexes"), and a country's own limits (Rules.hooks.purchase_limits)."""
        hook = self.rules.hooks.purchase_limits
        limits = hook(self.options, country, control=dict(self.w.control)) if hook is not None else None
        if limits is not None and count > limits.get(profile.name, 0):
            allowed = ", ".join(count_of(n, u) if n < 10**6 else u for u, n in sorted(limits.items()) if n) or "nothing"
            why = getattr(limits, "reason", "")
            self.problems.append(Problem("illegal", f"{country} cannot buy {count_of(count, profile.name)} this turn: it may buy {allowed}"
                                         + (f"; {why}" if why else ""),
                                         rule=R_PURCHASE, hint="buy only what it may", path=path, code="purchase.not-for-sale"))
            return True
        if profile.bought_by is None or country in profile.bought_by:
            return False
        why = (f"only {' and '.join(profile.bought_by)} may" if profile.bought_by
               else "they are given, never bought")
        self.problems.append(Problem("illegal", f"{country} cannot buy {profile.name}: {why}", rule=R_PURCHASE,
                                     hint=f"remove {profile.name} from purchase:", path=path, code="purchase.not-for-sale"))
        return True

    def _repairable(self, key: str, points: int) -> bool:
        """A repair of `points` of the damage `key` names (a territory's complex, or "territory/facility"):
        a facility of the mover's, holding that much damage."""
        w = self.w
        territory, _, facility = key.partition("/")
        what = f"the {facility} in {territory}" if facility else f"the complex in {territory}"
        holder = w.control.get(territory)
        if w.power in self.rules.production.never_repair:
            self.problems.append(Problem("illegal", f"{w.power} repairs no damage: {what} stays damaged", rule=R_PURCHASE + ": repairs",
                                         hint="remove repair:", path=("repair", key), code="purchase.repair-barred"))
            return False
        if holder is None or self.ruleset.power_name(holder) != w.power:
            self.problems.append(Problem("illegal", f"{territory} is not {possessive(w.power)}: {what} is not its to repair", rule=R_PURCHASE + ": repairs",
                                         hint=f"remove {key} from repair:", path=("repair", key), code="purchase.repair-not-yours"))
            return False
        damage = w.damage.get(key, 0)
        standing = [u for u in w.units_at(territory) if (u.type == facility if facility else w.utype(u).has("factory"))]
        if not standing and not damage:
            self.problems.append(Problem("illegal", f"{territory} has no {facility or 'industrial complex'} to repair", rule=R_PURCHASE + ": repairs",
                                         hint=f"remove {key} from repair:", path=("repair", key), code="purchase.repair-nothing"))
            return False
        if points > damage:
            self.problems.append(Problem("illegal", f"{what} has {damage} damage; cannot repair {points}", rule=R_PURCHASE + ": repairs",
                                         hint=f"repair at most {damage}", path=("repair", key), code="purchase.repair-too-much"))
            return False
        return True

    def purchase_by_country(self) -> None:
        """A power of several countries buys for each from its own treasury; a country whose capital
        is in enemy hands buys nothing (Pacific, Capturing an Enemy Capital: "it may not purchase any
        units for Australia, though it may purchase units for India as usual")."""
        w, o = self.w, self.orders
        if o.purchase and not o.purchase_by_country:
            countries = self.ruleset.countries_of(w.power)
            self.problems.append(Problem("illegal", f"{w.power} buys for each of its countries ({', '.join(countries)})", rule=R_PURCHASE,
                                         hint=f"write purchase: {{{countries[0]}: {{infantry: 2}}}}", path=("purchase",), code="purchase.by-country"))
            return
        bought: dict[str, dict[str, int]] = {}
        for country, units in o.purchase_by_country.items():
            if units and country in self.rules.economy.countries_without_income:
                self.problems.append(Problem("illegal", f"{country} has no IPCs and buys nothing", rule=R_PURCHASE,
                                             hint=f"remove purchase: {country}", path=("purchase", country), code="purchase.no-income"))
                continue
            if self.rules.capitals.no_purchase_without_capital and not w.capital_held(country):
                self.problems.append(Problem("illegal", f"{possessive(country)} capital is in enemy hands: {country} cannot buy units",
                                             rule="Capitals: a country without its capital cannot buy new units", hint=f"remove purchase: {country}",
                                             path=("purchase", country), code="purchase.no-capital"))
                continue
            cost = 0
            refused = False
            for utype, n in units.items():
                profile = self.ruleset.units[utype]
                self.log.unit_prices[utype] = self.cost_of(profile)
                if self._not_for_sale(profile, country, ("purchase", country, utype), n):
                    refused = True
                elif profile.has("factory") and not self.rules.production.new_complexes:
                    self.problems.append(Problem("illegal", f"{utype}s cannot be bought in this game", rule=R_PURCHASE + ": industrial complexes may not be built",
                                                 hint=f"remove {utype} from purchase:", path=("purchase", country, utype), code="purchase.no-complexes"))
                    refused = True
                else:
                    cost += self.cost_of(profile) * n
            money = w.treasury.get(country, 0)
            if refused:
                if cost > money:  # told at once: the player fixes both in one go
                    self.problems.append(Problem("illegal", f"even without the units it may not buy, {possessive(country)} purchase costs {cost} IPCs; "
                                                 f"{country} has {money}", rule=R_PURCHASE, hint=f"buy at most {money} IPCs worth for {country}",
                                                 path=("purchase", country), code="purchase.too-expensive"))
                continue
            if cost > money:
                self.problems.append(Problem("illegal", f"{possessive(country)} purchase costs {cost} IPCs; {country} has {money}", rule=R_PURCHASE,
                                             hint=f"buy at most {money} IPCs worth for {country}", path=("purchase", country), code="purchase.too-expensive"))
                continue
            w.treasury[country] = money - cost
            bought[country] = dict(units)
            self.log.purchase_cost += cost
            self.log.spent_by_country[country] = self.log.spent_by_country.get(country, 0) + cost
        # Repairs are paid by the country whose territory holds the facility (1940: "Two economies, tracked
        # separately: separate purchases, repairs").
        for key, points in o.repair.items():
            if not self._repairable(key, points):
                continue
            country = w.control.get(key.partition("/")[0], "")
            cost = self.repair_cost(points)
            if cost > w.treasury.get(country, 0):
                self.problems.append(Problem("illegal", f"the repair costs {cost} IPCs; {country} has {w.treasury.get(country, 0)}", rule=R_PURCHASE + ": repairs",
                                             hint=f"repair at most {w.treasury.get(country, 0)} IPCs worth for {country}", path=("repair", key), code="purchase.too-expensive"))
                continue
            w.treasury[country] = w.treasury.get(country, 0) - cost
            w.damage[key] = w.damage.get(key, 0) - points
            self.log.repairs[key] = points
            self.log.repair_costs[key] = cost
            self.log.purchase_cost += cost
            self.log.spent_by_country[country] = self.log.spent_by_country.get(country, 0) + cost
        self.bought_by_country = bought
        total = _summed(bought.values())
        self.bought = dict(sorted(total.items()))
        self.log.purchases = dict(self.bought)
        self.log.purchases_by_country = bought

    def _placeable(self) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
        """What the placements are checked against: the units bought, and by country.  While
        validating, a refused purchase counts as made: its own problem says what is wrong, and
        "only 0 were bought" beside every placement would send the player the wrong way."""
        bought = dict(self.bought)
        by_country = {c: dict(units) for c, units in self.bought_by_country.items()}
        if not (self.validating and any(p.code.startswith("purchase.") for p in self.problems)):
            return bought, by_country
        if len(self.ruleset.countries_of(self.w.power)) == 1:
            return dict(self.orders.purchase), by_country
        for country, units in self.orders.purchase_by_country.items():
            by_country.setdefault(country, dict(units))
        return _summed(by_country.values()), by_country

    def mobilize(self) -> None:
        w = self.w
        remaining, pools = self._placeable()
        used: dict[str, int] = {}
        placements = list(self.orders.placements)
        gifts = [] if self.skips_phase("mobilize") else self.free_units("mobilize", power=w.power, control=dict(w.control),
                                                                         control_at_start=dict(w.control_at_start), board=w.board, world=w)
        for grant in gifts:
            # The placement orders may choose the space: a placement of exactly these free units.
            chosen = next((p for p in placements if p.space in grant.spaces and dict(p.units) == {grant.unit: grant.count}), None)
            if chosen is not None:
                placements.remove(chosen)
            self.give(grant, chosen.space if chosen is not None else grant.spaces[0])
        for placement in placements:
            if len(self.ruleset.countries_of(w.power)) > 1:
                problems, pool = self._check_country_placement(placement, pools, used)
                if not problems:
                    for utype, n in placement.units.items():
                        pool[utype] -= n
            else:
                problems = self._check_placement(placement.space, placement.units, remaining, used, placement.yaml_path,
                                                 named=placement.complex)
            if problems:
                if self.validating:
                    self.problems.extend(problems)
                else:
                    self.log.skipped.append({"phase": "mobilize", "units": dict(placement.units), "to": placement.space, "reason": problems[0].message})
                continue
            for utype, n in placement.units.items():
                remaining[utype] -= n
                if self.ruleset.units[utype].has("upgrade"):
                    self._upgrade(placement.space, self.ruleset.units[utype], n)
                for _ in range(0 if self.ruleset.units[utype].has("upgrade") else n):
                    unit = w.add(utype, w.power, placement.space)
                    unit.phase = "placed"
                self.log.placements.setdefault(placement.space, {}).setdefault(utype, 0)
                self.log.placements[placement.space][utype] += n
            w._embark_at(placement.space) if w.is_sea(placement.space) else None
        for boarding in self.orders.onto_new_carriers:
            problem = self._board_new_carriers(boarding)
            if problem is not None and self.validating:
                self.problems.append(problem)
            elif problem is not None:
                self.log.skipped.append({"phase": "mobilize", "units": dict(boarding.units), "to": boarding.to, "reason": problem.message})
        self._land_on_new_carriers()
        refund = {t: n for t, n in remaining.items() if n > 0}
        if refund and self.rules.production.refund_unplaced:
            ipcs = sum(self.cost_of(self.ruleset.units[t]) * n for t, n in refund.items())
            for country, pool in (pools.items() if pools else [(w.power, refund)]):
                w.treasury[country] = w.treasury.get(country, 0) + sum(self.cost_of(self.ruleset.units[t]) * n for t, n in pool.items() if n > 0)
            self.log.refunds = refund
            self.log.refund_ipcs = ipcs
            if self.validating and not any(p.code.startswith("place.") for p in self.problems):
                self.warnings.append(Problem("warning", f"{_units_text(refund)} bought {'is' if sum(refund.values()) == 1 else 'are'} placed nowhere: "
                                             f"{count_of(ipcs, 'IPC')} will be refunded at the end of the turn",
                                             rule=R_MOBILIZE + ": units bought and not mobilized are refunded",
                                             hint="place them under place:, or buy fewer",
                                             path=("place",) if self.orders.placements else ("purchase",), code="place.unplaced-refunded"))
        elif refund and self.validating:
            if not any(p.code.startswith("place.") for p in self.problems):
                # the Revised FAQ: in a friendly game, tell the player he is making a mistake
                self.warnings.append(Problem("warning", f"{_units_text(refund)} bought but not placed would be lost without refund",
                                             rule=R_MOBILIZE + ": units bought and not mobilized are lost", hint="place them under place:, or buy fewer",
                                             path=("place",) if self.orders.placements else ("purchase",), code="place.unplaced-lost"))
        elif refund:
            self.log.notes.append("Bought but not placed, and lost without refund: " + _units_text(refund))

    def _board_new_carriers(self, b: Boarding) -> Problem | None:
        """Fighters on the board board an aircraft carrier mobilized this turn, from the territory of
        the complex beside its zone (Rules.production.existing_air_onto_new_carriers; Revised FAQ);
        the problem when they may not."""
        w = self.w
        rule = R_MOBILIZE + ": an existing fighter in the territory of the complex may board a newly built carrier (FAQ)"

        def problem(message: str, key: str, code: str, hint: str = "") -> Problem:
            return Problem("illegal", message, rule=rule, hint=hint, path=(*b.yaml_path, key), code=code)

        if not self.rules.production.existing_air_onto_new_carriers:
            return problem("fighters already on the board do not board new carriers in this game", "to", "place.board-not-allowed",
                           "remove onto_new_carriers: only new fighters are placed aboard carriers")
        if b.frm == b.to and w.is_sea(b.to):
            # Revised FAQ: a fighter "in the sea zone where the aircraft carrier is built" boards it: one
            # that ended its noncombat move there lands on the new carrier with no order
            return problem(f"fighters in {b.to} need no boarding order: the carriers in a sea zone, the one placed there too, hold the fighters there together",
                           "from", "place.board-from", f"remove this entry (a fighter flown to {b.to} in noncombat move lands on the new carrier)")
        if not w.is_sea(b.to) or b.frm not in w.board.neighbours(b.to) or not any(
                f.owner == w.power and w.utype(f).has("factory") for f in w.units_at(b.frm)):
            return problem(f"{b.frm} is not a territory with your industrial complex beside {b.to}", "from", "place.board-from",
                           "board from the territory of the complex next to the sea zone where the carrier is placed")
        owner = b.owner or w.power
        if not w.is_friendly(owner):
            return problem(f"{possessive(owner)} fighters are not yours or an ally's", "owner", "place.board-owner")
        wrong = sorted(t for t in b.units if not self.ruleset.units[t].lands_on_carriers)
        if wrong:
            return problem(f"{wrong[0]} does not land on carriers", "units", "place.board-units", "only fighters board carriers")
        chosen: list[Unit] = []
        for utype, n in sorted(b.units.items()):
            there = [u for u in w.units_at(b.frm) if u.owner == owner and u.type == utype and u.carrier is None]
            if len(there) < n:
                return problem(f"{owner} has {count_of(len(there), utype)} in {b.frm}, not {n}", "units", "place.board-units")
            chosen += sorted(there, key=lambda u: u.id)[:n]
        hosts = [h for h in w.units_at(b.to) if h.owner == w.power and w.utype(h).has("carrier") and h.phase == "placed"]
        room = sum(w.carrier_room(h) for h in hosts)
        if room < len(chosen):
            return problem(f"the carriers placed in {b.to} this turn have room for {room} more, not {len(chosen)}", "to", "place.board-room",
                           f"place an aircraft carrier in {b.to}, or board fewer fighters")
        for u in chosen:
            host = next(h for h in hosts if w.carrier_room(h) > 0)
            u.space, u.carrier = b.to, host.id
        verb = "boards" if len(chosen) == 1 else "board"
        self.log.notes.append(f"{_units_text(dict(b.units))} of {owner} in {b.frm} {verb} the new {hosts[0].type} in {b.to}")
        return None

    def _land_on_new_carriers(self) -> None:
        """Air units that ended their noncombat move at sea to wait for a carrier mobilized there
        (`land_air_units` leaves them) land on one placed in their zone, or are lost: the orders that
        sent them there must place it ("You must have a carrier move, remain in place, or be mobilized
        (new carriers only) to pick up a fighter", 1942 Second Edition; AMS guide, E30: "during the
        Noncombat Move Phase and the Mobilization Phase, you must provide a landing place")."""
        w = self.w
        for u in sorted(w.units.values(), key=lambda u: u.id):
            if (not w.commands(u) or w.utype(u).domain != "air" or u.carrier is not None or not w.is_sea(u.space)
                    or u.mission == "cap"):
                continue
            zone = u.space
            if self.validating:
                new = [h for h in w.units_at(zone) if h.owner == w.power and w.utype(h).has("carrier") and h.phase == "placed"]
                if new:  # placed, but full: the new air units placed aboard took the room
                    aboard = sum(1 for x in w.units_at(zone) if x.carrier in {h.id for h in new})
                    carriers = "new aircraft carrier" if len(new) == 1 else f"{len(new)} new aircraft carriers"
                    message = f"the {u.type} waiting in {zone} finds no room: the {carriers} placed there already {'holds' if len(new) == 1 else 'hold'} {count_of(aboard, 'air unit')}"
                    hint = f"place fewer air units aboard in {zone}, another aircraft carrier there, or fly the {u.type} to another landing"
                else:
                    message = f"the {u.type} waiting in {zone} for a new aircraft carrier has none to land on"
                    hint = f"place an aircraft carrier in {zone}, or fly the {u.type} to another landing"
                self.problems.append(Problem(
                    "illegal", message, rule=R_MOBILIZE + ": a fighter that ends its move at sea needs a carrier mobilized in its zone",
                    hint=hint, path=u.order or ("place",), code="place.no-carrier-for-air"))
            self.log.lost_air.append({"unit": u.type, "owner": u.owner, "space": zone,
                                      "reason": "no carrier was mobilized in its zone"})
            w.remove(u)

    def _check_country_placement(self, placement: Any, pools: dict[str, dict[str, int]],
                                 used: dict[str, int]) -> tuple[list[Problem], dict[str, int]]:
        """Units bought by one country go to that country's own complexes (Pacific, Great Britain:
        India and Australia "buy and place units separately"): the first country, in order, whose
        purchase holds them and which has a complex for them."""
        first: list[Problem] | None = None
        for country in self.ruleset.countries_of(self.w.power):
            pool = pools.get(country, {})
            if any(pool.get(t, 0) < n for t, n in placement.units.items()):
                continue
            problems = self._check_placement(placement.space, placement.units, dict(pool), used, placement.yaml_path,
                                             named=placement.complex, country=country)
            if not problems:
                return [], pool
            first = first or problems
        mixed = {c: {t: min(n, p.get(t, 0)) for t, n in placement.units.items() if p.get(t, 0)} for c, p in pools.items()}
        if first is None and all(sum(m.get(t, 0) for m in mixed.values()) >= n for t, n in placement.units.items()):
            # the units were bought, by more than one country: an entry places one country's units
            whose = "; ".join(f"{c} bought {_units_text(m)}" for c, m in mixed.items() if m)
            first = [Problem("illegal", f"no one country of {self.w.power} bought all of {_units_text(placement.units)} placed in {placement.space} ({whose})",
                             rule=R_MOBILIZE, hint="each country places what it bought, at its own complexes: "
                             + "; ".join(f"{possessive(c)} {_units_text(m)} at a complex of {c}" for c, m in mixed.items() if m),
                             path=placement.yaml_path, code="place.not-bought")]
        if first is None:
            bought = "; ".join(f"{c}: {_units_text(p)}" for c, p in pools.items() if any(p.values())) or "nothing"
            first = [Problem("illegal", f"no country of {self.w.power} bought {_units_text(placement.units)} still to be placed (left: {bought})",
                             rule=R_MOBILIZE, hint="each country places what it bought, at its own complexes", path=placement.yaml_path, code="place.not-bought")]
        return first, {}

    def _upgrade(self, space: str, upgrade: Any, n: int, reason: str | None = None) -> None:
        """The facility in `space` becomes the next level (AMS: "May upgrade existing facility to next
        highest level for 10 IPCs"); its damage is kept."""
        w = self.w
        for u in sorted((u for u in w.units_at(space) if u.type == upgrade.upgrade_from), key=lambda u: u.id)[:n]:
            if not self.ruleset.units[u.type].has("factory"):
                key = f"{space}/{u.type}"
                if key in w.damage:
                    w.damage[f"{space}/{upgrade.upgrade_to}"] = w.damage.pop(key)
            u.type = upgrade.upgrade_to
            done = f"the {upgrade.upgrade_from} in {space} is upgraded to {article(upgrade.upgrade_to)}"
            self.log.notes.append(f"{reason}: {done}" if reason else done[0].upper() + done[1:])

    def _placed_as_facility(self, profile: Any) -> bool:
        """A facility that produces nothing, or an upgrade: placed by ProductionRules.facilities_anywhere."""
        return self.rules.production.facilities_anywhere and profile.domain == "structure" and (
            profile.has("upgrade") or not profile.has("factory"))

    def _check_facilities(self, space: str, facilities: Mapping[str, int], path: tuple) -> list[Problem]:
        """Where facilities and upgrades go (E23: "Facilities can be built at any eligible location";
        AMS: pill boxes "in any controlled territory", radar towers "in any controlled territory
        containing a facility", one air strip, naval base or pill box, two radar towers a territory; an
        upgrade "Must still meet build restrictions for the higher level facility")."""
        w = self.w
        rule = R_MOBILIZE + ": facilities"
        if w.is_sea(space) or w.controller(space, at_start=True) != w.power or space in w.captured_this_turn:
            return [Problem("illegal", f"a facility goes in a territory {w.power} has controlled since the start of the turn; {space} is not one",
                            rule=rule, hint="place it in a territory you held when the turn began", path=path, code="place.facility-territory")]
        here = w.units_at(space)
        for name, n in sorted(facilities.items()):
            profile = self.ruleset.units[name]
            if profile.has("upgrade"):
                old = [u for u in here if u.type == profile.upgrade_from and w.controller(space) == w.power]
                if len(old) < n:
                    return [Problem("illegal", f"a {name} goes where a {profile.upgrade_from} stands; {space} has {len(old) or 'none'}",
                                    rule=rule + ": upgrades", hint=f"buy a {profile.upgrade_from} there first, or place the {name} where one stands", path=path, code="place.upgrade-nothing")]
                barred = upgrade_restriction(self.ruleset, self.rules, w.power, space, profile)
                if barred:
                    return [Problem("illegal", f"{space} does not meet the build restrictions of {article(profile.upgrade_to)}: {barred}",
                                    rule=rule + ": upgrades must meet the higher facility's build restrictions", hint="upgrade a facility in a territory that meets them", path=path, code="place.upgrade-restricted")]
                continue
            if profile.needs_facility and not any(w.utype(u).domain == "structure" and not w.utype(u).needs_facility for u in here):
                return [Problem("illegal", f"{article(name)} is placed only where another facility stands; {space} has none",
                                rule=rule, hint="place it beside one of your facilities", path=path, code="place.facility-needs-facility")]
            if profile.max_per_territory is not None:
                kinds = profile.tags & {"air_base", "naval_base", "pill_box", "radar", "factory"}
                standing = sum(1 for u in here if w.utype(u).tags & kinds and not w.utype(u).has("upgrade"))
                if standing + n > profile.max_per_territory:
                    return [Problem("illegal", f"{space} may hold {count_of(profile.max_per_territory, name)} at most; it has {standing} "
                                    f"and {n} {'is' if n == 1 else 'are'} placed", rule=rule + ": facilities per territory",
                                    hint="place it in another territory", path=path, code="place.facility-limit")]
            if profile.has("naval_base") and self.validating and not any(w.is_sea(z) for z in w.board.neighbours(space)):
                # no seed bars it, but it is money spent on nothing: say so before the turn is played
                self.warnings.append(Problem("warning", f"a {name} in {space} serves no ship: {space} borders no sea zone",
                                             rule=rule, hint="place it in a territory on the coast", path=path, code="place.naval-base-inland"))
        return []

    def _facility_limits(self, site: str, placed: list[str], path: tuple) -> list[Problem]:
        """What the production facility in `site` may mobilize (units.yaml `places`, `places_not`;
        AMS: a minor factory "All except capital ships & strat bombers", a military base "Infantry/Transport")."""
        w = self.w
        for f in w.units_at(site):
            profile = w.utype(f)
            if not profile.has("factory"):
                continue
            refused = [t for t in placed if (profile.places and t not in profile.places) or t in profile.places_not]
            if refused:
                allowed = ", ".join(profile.places) if profile.places else "anything but " + ", ".join(profile.places_not)
                return [Problem("illegal", f"a {profile.name} does not mobilize {', '.join(refused)}", rule=R_MOBILIZE + ": what each facility builds",
                                hint=f"a {profile.name} mobilizes {allowed}", path=path, code="place.facility-type")]
        return []

    def _open_sites(self, country: str) -> frozenset[str]:
        """Territories where `country` places with no complex and no limit (Rules.hooks.placement_without_complex)."""
        hook = self.rules.hooks.placement_without_complex
        if hook is None:
            return frozenset()
        return hook(self.options, country, control=dict(self.w.control), control_at_start=dict(self.w.control_at_start))

    def _limit(self, site: str) -> int:
        """Units a complex mobilizes this turn: its territory's value less damage (Phase 5); in the
        power's own original territories no limit where the rules say so (Europe, Place New Units)."""
        sp = self.w.space(site)
        holder = self.w.control.get(site)
        if holder is not None and site in self._open_sites(holder):
            return 10**6
        if self.rules.hooks.placement_limit is not None:
            limit = self.rules.hooks.placement_limit(self.options, self.w.power, sp)
            if limit is not None:
                return limit - self.w.damage.get(site, 0)
        if self.rules.production.production_limit == "facility":
            if not self.w.facility_operative(site, "factory", holder):
                return 0  # disabled by its damage (AMS Production Facilities, "Disabled at"), whatever a tech adds
            return (self.w.facility_production(site) or 0) + self._tech_production_bonus() - self.w.damage.get(site, 0)
        countries = self.ruleset.countries_of(self.w.power)
        if self.rules.production.production_limit == "unlimited_at_home" and sp.original_owner in countries:
            return 10**6
        if (self.rules.production.production_limit == "unlimited_at_starting_complexes" and sp.original_owner in countries
                and any(self.ruleset.units[u].has("factory") for stack in self.ruleset.setup.units.get(site, {}).values() for u in stack)):
            return 10**6
        return sp.ipc - self.w.damage.get(site, 0)

    def _check_placement(self, space: str, units: Mapping[str, int], remaining: dict[str, int], used: dict[str, int], path: tuple,
                         named: str | None = None, country: str | None = None) -> list[Problem]:
        w = self.w
        out: list[Problem] = []
        for utype, n in units.items():
            if remaining.get(utype, 0) < n:
                out.append(Problem("illegal", f"placing {count_of(n, utype)} but only {remaining.get(utype, 0)} more were bought", rule=R_MOBILIZE, hint="place only what purchase: buys", path=path, code="place.not-bought"))
        if out:
            return out
        profiles = {t: self.ruleset.units[t] for t in units}
        sea = w.is_sea(space)
        if self.state.round == 0:
            return self._check_advance_placement(space, profiles, path)
        facilities = {t: n for t, n in units.items() if self._placed_as_facility(profiles[t])}
        if facilities:
            problems = self._check_facilities(space, facilities, path)
            if problems or len(facilities) == len(units):
                return problems
            units = {t: n for t, n in units.items() if t not in facilities}
            profiles = {t: p for t, p in profiles.items() if t not in facilities}
        if any(p.has("factory") for p in profiles.values()):
            sp = w.space(space)
            if sea or not w.is_friendly_territory(space, at_start=True) or w.controller(space, at_start=True) != w.power or space in w.captured_this_turn:
                built = next(p.name for p in profiles.values() if p.has("factory"))  # named as ordered: AMS's military base too
                return [Problem("illegal", f"a new {built} goes in a territory {w.power} has controlled since the start of the turn; {space} is not one", rule=R_MOBILIZE + ": new industrial complexes", hint="place it in a territory you held when the turn began", path=path, code="place.complex-territory")]
            holder = w.control_at_start.get(space)
            if country is not None and holder != country:
                # a power of several countries: the buyer's own territory (Pacific, Phase 7: "placed into
                # any territory that was controlled by the US", not China's; it would place nothing there)
                return [Problem("illegal", f"a complex {country} buys goes in a territory {country} has controlled since the start of the turn; {space} is {possessive(holder or space)}",
                                rule=R_MOBILIZE + ": new industrial complexes", hint=f"place it in a territory of {possessive(country)}", path=path, code="place.complex-territory")]
            factory = next(p for p in profiles.values() if p.has("factory"))
            if factory.original_territory_only and sp.original_owner not in self.ruleset.countries_of(w.power):
                return [Problem("illegal", f"a {factory.name} is built only in {possessive(w.power)} original territory; {space} is not one",
                                rule=R_MOBILIZE + ": new industrial complexes", hint=f"place it in a territory that was {possessive(w.power)} at the start of the game", path=path, code="place.complex-territory")]
            least = factory.min_territory_ipc if factory.min_territory_ipc is not None else self.rules.production.new_complex_min_ipc
            if sp.ipc < least:
                return [Problem("illegal", f"{space} has an IPC value of {sp.ipc}; {article(factory.name)} needs at least {least}", rule=R_MOBILIZE + ": new industrial complexes", hint=f"place it in a territory worth {least} or more", path=path, code="place.complex-value")]
            on_islands = self.rules.production.new_complexes_on_islands if factory.on_islands is None else factory.on_islands
            if sp.island and not on_islands:
                return [Problem("illegal", f"{space} is an island: no {factory.name} is built on one", rule=R_MOBILIZE + ": new industrial complexes",
                                hint="build it on a mainland territory", path=path, code="place.complex-island")]
            existing = [u for u in w.units_at(space) if w.utype(u).has("factory")]
            ordered = units.get(next(t for t, p in profiles.items() if p.has("factory")), 0)
            most = self.rules.production.max_complexes_per_territory
            if len(existing) + ordered > most:
                text = (f"{space} already has an industrial complex" if existing
                        else f"{ordered} industrial complexes are ordered for {space}, which may hold {most}")
                return [Problem("illegal", text, rule=R_MOBILIZE + ": one complex per territory",
                                hint="place it in a territory with none" if existing else f"place {most} in {space}, any other in another territory",
                                path=path, code="place.complex-twice")]
            if len(units) == 1:
                return []
        # air units at sea first: whatever complex is near, these never go there
        air = [t for t, p in profiles.items() if p.domain == "air"] if sea else []
        if any(not profiles[t].lands_on_carriers for t in air):
            return [Problem("illegal", "only fighters are placed at sea, aboard your own carriers", rule=R_MOBILIZE, hint="place bombers in the complex's territory", path=path, code="place.air-at-sea")]
        fighters = sum(units[t] for t in air)
        if fighters and self.rules.production.new_fighters_on_carriers == "never":
            return [Problem("illegal", "new fighters are placed on land, never at sea: they may not be placed directly on aircraft carriers",
                            rule=R_MOBILIZE + ": newly purchased fighter planes may not be placed directly on aircraft carriers",
                            hint="place them in a territory with your industrial complex", path=path, code="place.fighter-on-carrier")]
        count = sum(n for t, n in units.items() if not profiles[t].has("factory"))
        factory_site = self._factory_for(space, {t: p for t, p in profiles.items() if not p.has("factory")}, path,
                                         count=count, used=used, named=named, country=country)
        if isinstance(factory_site, Problem):
            return [factory_site]
        limits = self._facility_limits(factory_site, [t for t, p in profiles.items() if not p.has("factory")], path)
        if limits:
            return limits
        if sea:
            if fighters:
                room = sum(w.carrier_room(h) for h in w.units_at(space)
                           if w.utype(h).has("carrier") and h.owner == w.power
                           and (self.rules.production.new_fighters_on_carriers == "own_carriers" or h.phase == "placed"))
                room += sum(self.ruleset.units[t].carrier_capacity * n for t, n in units.items() if self.ruleset.units[t].has("carrier"))
                if fighters > room:
                    return [Problem("illegal", f"{fighters} new fighter(s) need room on your own carriers in {space}; there is room for {room}",
                                    rule=R_MOBILIZE + ": new fighters go aboard your own carriers, never an ally's", hint=f"place at most {room} there, or buy a carrier for the others", path=path, code="place.no-carrier-room")]
        weights = {t: n for f in w.units_at(factory_site) if w.utype(f).has("factory") for t, n in w.utype(f).place_weights}
        count = sum(n * weights.get(t, 1) for t, n in units.items() if not profiles[t].has("factory"))
        limit = self._limit(factory_site)
        if used.get(factory_site, 0) + count > limit:
            return [Problem("illegal", f"the complex in {factory_site} can mobilize {count_of(max(0, limit - used.get(factory_site, 0)), 'more unit')} this turn, not {count}", rule=R_MOBILIZE + (f": production limit is the complex's own ({self._facility_productions()}), less damage, sea zones included" if self.rules.production.production_limit == "facility" else ": production limit is the territory's IPC value" + ("" if self.combat_rules.sbr_loss == "treasury" else ", less damage")
                  + ", sea zones included"), hint="place the rest at another complex", path=path, code="place.over-limit")]
        used[factory_site] = used.get(factory_site, 0) + count
        return []

    def _facility_productions(self) -> str:
        """What each kind of complex mobilizes, as the rule system's units say (AMS: a major factory 5)."""
        made = sorted(((u.production, n) for n, u in self.ruleset.units.items() if u.has("factory") and u.production), reverse=True)
        return ", ".join(f"{name} {production}" for production, name in made)

    def _check_advance_placement(self, space: str, profiles: Mapping[str, Any], path: tuple) -> list[Problem]:
        """Special Cash Advance: units go where the power already has a unit, sea units at sea, land
        and air units on land; no complex limits them."""
        w = self.w
        rule = "Special Cash Advance: units are placed in territories or sea zones in which the power already has at least one unit"
        sea = w.is_sea(space)
        wrong = [t for t, p in profiles.items() if (p.domain == "sea") != sea]
        if wrong:
            where = "a sea zone" if profiles[wrong[0]].domain == "sea" else "a territory"
            return [Problem("illegal", f"{wrong[0]} is placed in {where}, not in {space}", rule=rule, hint=f"place the {wrong[0]} in {where}", path=path, code="place.advance-domain")]
        allies = self.rules.hooks.advance_placement_with_allies is not None and self.rules.hooks.advance_placement_with_allies(self.options)
        if not any((u.owner == w.power or (allies and w.is_friendly(u.owner))) and u.phase != "placed" for u in w.units_at(space)):
            whose = "no unit of its side" if allies else "no unit"
            return [Problem("illegal", f"{w.power} has {whose} in {space} to place new units beside", rule=rule,
                            hint="place them where you already have a unit", path=path, code="place.advance-no-unit")]
        return []

    def _factory_for(self, space: str, profiles: Mapping[str, Any], path: tuple, *, count: int = 0,
                     used: Mapping[str, int] | None = None, named: str | None = None, country: str | None = None) -> str | Problem:
        w = self.w
        sea = w.is_sea(space)

        def may_use(owner: str) -> bool:
            if country is not None:
                return owner == country  # a power of several countries places each one's units at its own complexes
            if self.ruleset.power_name(owner) == w.power:
                return True
            # Revised: an ally's complex, while that ally's capital is in enemy hands.
            return (self.rules.production.place_at_ally_complex == "if_ally_capital_lost" and w.is_friendly(owner)
                    and not w.capital_held(owner))

        def usable(territory: str) -> bool:
            holder = w.control.get(territory)
            if holder is not None and may_use(holder) and territory in self._open_sites(holder):
                return True  # placed with no complex (Rules.hooks.placement_without_complex)
            return (
                holder is not None and may_use(holder)
                and any(w.utype(u).has("factory") and u.owner == self.ruleset.power_name(holder) for u in w.units_at(territory))
                and w.control_at_start.get(territory) == holder
                and territory not in w.captured_this_turn
            )

        if sea:
            if any(p.domain not in ("sea", "air") for p in profiles.values()):
                return Problem("illegal", f"only sea units (and fighters onto carriers) are placed in {space}", rule=R_MOBILIZE, hint="place land and air units in a territory with a complex", path=path, code="place.land-at-sea")
            sites = sorted(t for t in w.board.neighbours(space) if w.space(t).is_land and usable(t))
            if not sites:
                zones = sorted({z for t, sp in w.board.spaces.items() if sp.is_land and usable(t)
                                for z in w.board.neighbours(t) if w.is_sea(z)},
                               key=lambda z: (len(z), z))  # SZ 9 before SZ 10
                return Problem("illegal", f"{space} is not next to an industrial complex {country or w.power} has held since the start of the turn",
                               rule=R_MOBILIZE + ": sea units go in a sea zone adjacent to the complex",
                               hint=("sea zones next to such a complex: " + ", ".join(zones)) if zones else "", path=path, code="place.no-complex")
            if named is not None:
                if named not in sites:
                    return Problem("illegal", f"{named} has no complex of {possessive(w.power)} next to {space} that may mobilize now",
                                   rule=R_MOBILIZE + ": sea units go in a sea zone adjacent to the complex",
                                   hint="complexes next to " + space + ": " + ", ".join(sites), path=(*path, "complex"), code="place.complex-not-adjacent")
                return named
            # any adjacent complex may mobilize them: the first (by name) that still has room
            taken = used or {}
            return next((t for t in sites if taken.get(t, 0) + count <= self._limit(t)), sites[0])
        if any(p.domain == "sea" for p in profiles.values()):
            zones = sorted(t for t in w.board.neighbours(space) if w.is_sea(t)) if usable(space) else []
            hint = f"name a sea zone next to {space}: {', '.join(zones)}" if zones else self._factories_hint()
            return Problem("illegal", f"sea units are placed in a sea zone next to a complex, not in {space}", rule=R_MOBILIZE, hint=hint, path=path, code="place.sea-on-land")
        if not usable(space):
            owner = next((u.owner for u in w.units_at(space) if w.utype(u).has("factory")), None)
            if owner and owner != w.power and w.is_friendly(owner):
                if self.rules.production.place_at_ally_complex == "if_ally_capital_lost":
                    why = (f"the complex in {space} belongs to {owner}: you may mobilize at a friendly power's complex only "
                           f"while that power's capital is in enemy hands, and {possessive(owner)} is not")
                else:
                    why = f"the complex in {space} belongs to {owner}: you can never mobilize at a friendly power's complex"
                return Problem("illegal", why, rule=R_MOBILIZE, hint=self._factories_hint(), path=path, code="place.ally-complex")
            holder = w.control.get(space)
            if country is not None and holder is not None and holder != country and self.ruleset.power_name(holder) == w.power:
                # a power of several countries (1940's UK): "Units are mobilized at industrial complexes separately" (P35)
                return Problem("illegal", f"the complex in {space} is {possessive(holder)}: {possessive(country)} units are placed at {possessive(country)} own complexes",
                               rule=R_MOBILIZE + ": each country of a power mobilizes at its own complexes", hint=self._factories_hint(country),
                               path=path, code="place.no-complex")
            open_sites = sorted(self._open_sites(country or w.power))
            if open_sites and not any(w.utype(u).has("factory") for u in w.units_at(space)):
                # a power that places with no complex (1940's China) - in its own territories only
                return Problem("illegal", f"{w.power} places new units without a complex only in certain territories it holds, and {space} is not one of them",
                               rule=R_MOBILIZE + ": where a power places with no complex", hint="place them in one of: " + ", ".join(open_sites),
                               path=path, code="place.no-complex")
            return Problem("illegal", f"{w.power} has no industrial complex in {space} that it has held since the start of the turn", rule=R_MOBILIZE + ": units are placed at complexes held since the start of the turn", hint=self._factories_hint(), path=path, code="place.no-complex")
        return space

    def _factories_hint(self, country: str | None = None) -> str:
        """The complexes the mover may place at (`country`: those of one country of a power of several)."""
        w = self.w
        sites = sorted({u.space for u in w.units.values() if w.utype(u).has("factory") and u.owner == w.power
                        and w.controller(u.space, at_start=True) == w.power
                        and (country is None or w.control_at_start.get(u.space) == country)})
        whose = "your complexes" if country is None else f"{possessive(country)} complexes"
        return f"{whose}: " + ", ".join(sites) if sites else f"{'you have' if country is None else country + ' has'} no industrial complex"

    def repair_at_naval_bases(self) -> None:
        """CombatRules.two_hit_repair "at_naval_base" (1940): the mover's damaged ships in a sea zone next
        to a territory its side held at the start of the turn with a friendly naval base are repaired
        as its turn begins (TripleA "Units Repair Hits Start Turn", "Two HitPoint Units Require Repair
        Facilities")."""
        w = self.w
        if self.combat_rules.two_hit_repair != "at_naval_base":
            return
        for u in sorted(w.units.values(), key=lambda u: u.id):
            if not u.damaged or u.owner != w.power or not w.is_sea(u.space):
                continue
            # whose bases it may use: not a power's at war with no one, nor theirs (1940, P14)
            own = set(self.ruleset.countries_of(w.power))  # its own power's base named first, then an ally's
            beside = sorted(w.board.neighbours(u.space), key=lambda t: (w.control_at_start.get(t) not in own, t))
            base = next((t for t in beside if w.space(t).is_land and w.shares_with(w.control_at_start.get(t))
                         and w.facility_operative(t, "naval_base")), None)
            if base is not None:
                u.damaged = False
                self.log.notes.append(f"The damaged {u.type} in {u.space} is repaired at the naval base in {base}")

    def end_of_turn(self) -> None:
        """Liberations are decided now, when it is known whether the ally's capital is free (A42)."""
        w = self.w
        if self.combat_rules.two_hit_repair in ("end_of_turn", "end_of_combat"):
            for u in w.units.values():
                u.damaged = False  # Europe, Pacific: damaged battleships are uprighted
        countries = [self.ruleset.country(c) for c in self.ruleset.countries]
        capitals_before = {c.name for c in countries if not w.is_enemy(self.state.control.get(w.capital(c.name)), c.name)}
        for space, original in w.pending.pop("liberations", []) or []:  # type: ignore[union-attr]
            self._liberate(space, original)
        # A liberated capital brings back its power's other territories held by friendly powers
        # (Capturing and Liberating Capitals).
        for p in countries:
            if p.name in capitals_before or not w.capital_held(p.name):
                continue
            for name, sp in sorted(w.board.spaces.items()):
                holder = w.control.get(name)
                if sp.original_owner == p.name and holder not in (None, p.name) and w.is_friendly(holder, p.name):
                    w.control[name] = p.name
                    for u in w.units_at(name):
                        if w.utype(u).has("factory"):
                            u.owner = self.ruleset.power_name(p.name)
                    self.log.notes.append(f"{name} reverts to {p.name} with its liberated capital")

    def production(self, power: str) -> int:
        return national_income(self.ruleset, self.rules.economy, self.w.control, power)

    def pay_tribute(self) -> int:
        """Europe, The Middle East: the enemies pay the mover the value of the tribute spaces it holds,
        in the order their original owner's standing orders give; what they cannot pay is lost."""
        w = self.w
        owed_by = tribute_owed(self.ruleset.board, self.rules.economy, w.control, w.power, frozenset(self.ruleset.enemies(w.power)))
        received = 0
        for owner, (owed, spaces) in sorted(owed_by.items()):
            so = self.standing.get(owner)
            payers = list(so.tribute_payers if so is not None and so.tribute_payers else ())
            payers += [p for p in (owner, *self.ruleset.allies(owner)) if p not in payers]
            left = owed
            caps = so.tribute_caps if so is not None else {}
            for payer in payers:
                paid = min(left, max(0, w.treasury.get(payer, 0)), caps.get(payer, left))
                if paid:
                    w.treasury[payer] -= paid
                    left -= paid
                    received += paid
                    self.log.notes.append(f"{payer} pays {w.power} {paid} IPC{'' if paid == 1 else 's'} for {', '.join(spaces)}")
            if left:
                self.log.notes.append(f"The side of {owner} cannot pay {left} of the {count_of(owed, 'IPC')} owed to {w.power}")
        return received

    def collect_income(self) -> None:
        w = self.w
        self.declare_wars("collect_income")
        countries = self.ruleset.countries_of(w.power)
        pooled = self._convoys_to_divide(countries)
        for country in countries:
            self.collect_country_income(country, minus=pooled.get(country, 0))
        if any(pooled.values()):
            self.divide_convoy_income(countries, pooled)
        self.score_victory_points()

    def _convoys_to_divide(self, countries: tuple[str, ...]) -> dict[str, int]:
        """Country -> the income of the convoy centres under its marker, for a power of several
        countries: the power's together, divided at collect income (divide_convoy_income)."""
        earning = [c for c in countries if c not in self.rules.economy.countries_without_income]
        if len(earning) < 2:
            return {}
        return {c: convoy_centre_income(self.ruleset, self.rules.economy, self.w.control, c) for c in earning}

    def _collects(self, country: str) -> bool:
        return not (self.rules.capitals.no_income_without_capital and not self.w.capital_held(country))

    def check_convoy_income(self) -> None:
        """convoy_income names only a country that earns income (Pacific, Phase 9: the British convoy
        income goes to India or Australia; China "does not hold any IPCs")."""
        earning = [c for c in self.ruleset.countries_of(self.w.power) if c not in self.rules.economy.countries_without_income]
        for country in self.orders.convoy_income:
            if country not in earning:
                self.problems.append(Problem(
                    "illegal", f"{country} collects no income: no convoy income can go to it", rule="Collect Income",
                    hint=("countries that collect: " + ", ".join(earning)) if len(earning) > 1 else "remove convoy_income:",
                    path=("convoy_income", country), code="orders.convoy-income"))
        asked = sum(n for c, n in self.orders.convoy_income.items() if c in earning)
        if self.validating and self.orders.convoy_income and len(earning) > 1:
            # the centres the power holds as its turn begins; the turn's battles may change that
            held = sum(self._convoys_to_divide(self.ruleset.countries_of(self.w.power)).values())
            if asked > held:
                first = next(iter(self.orders.convoy_income))
                self.warnings.append(Problem(
                    "warning", f"convoy_income divides {count_of(asked, 'IPC')}, but {possessive(self.w.power)} convoy centres "
                    f"bring {count_of(held, 'IPC')} as the turn begins: the first named get theirs first",
                    rule="Collect Income: the convoy centres' income divided among the power's countries (Pacific: India and Australia)",
                    hint=f"divide {held} (convoy centres taken or lost in this turn change it)",
                    path=("convoy_income", first), code="orders.convoy-income-over"))

    def divide_convoy_income(self, countries: tuple[str, ...], parts: Mapping[str, int]) -> None:
        """Pacific, Phase 9: the British convoy income "must immediately be given to India or
        Australia, or divided between the two countries in any manner the British player wishes"
        (Orders.convoy_income; without it each centre's income goes to the country whose marker is on
        it) - never to a country that collects nothing (its capital lost): then to the other."""
        w = self.w
        receivers = [c for c in countries if self._collects(c) and c not in self.rules.economy.countries_without_income]
        pool = sum(parts.values())
        left = pool
        given: dict[str, int] = {}
        wishes = self.orders.convoy_income or {c: n for c, n in parts.items() if c in receivers}
        for country, wanted in wishes.items():
            if country in receivers and left:
                n = min(wanted, left)
                given[country] = given.get(country, 0) + n
                left -= n
        if left and receivers:
            rest = next((c for c in receivers if c not in wishes), receivers[0])
            given[rest] = given.get(rest, 0) + left
        for country, n in given.items():
            w.treasury[country] = w.treasury.get(country, 0) + n
            self.log.income[country] = self.log.income.get(country, 0) + n
        self.log.notes.append(f"{possessive(w.power)} convoy income of {count_of(pool, 'IPC')} goes " +
                              ", ".join(f"{n} to {c}" for c, n in given.items() if n) if any(given.values()) else
                              f"{possessive(w.power)} convoy income of {count_of(pool, 'IPC')} is lost")

    def score_victory_points(self) -> None:
        """Pacific, Phase 9: "Japan scores one victory point for every ten IPCs collected this turn.
        This includes any IPCs that may have been surrendered to Japan for having captured an Allied
        capital" (Rules.victory.points)."""
        vp = self.rules.victory.points
        if vp is None or vp.power != self.w.power:
            return
        collected = sum(self.log.income.get(c, 0) for c in self.ruleset.countries_of(vp.power))
        plunder = sum(int(c.get("plunder", 0)) for c in self.log.captures if self.ruleset.power_name(c["by"]) == vp.power)
        scored = (collected + plunder) // vp.per_ipcs
        self.add_victory_points(vp.power, scored, f"{count_of(collected, 'IPC')} collected this turn" + (f" and {plunder} taken with a capital" if plunder else ""))
        if scored == 0 and vp.enemies_win_on_none:
            self.points_victory = {"victory_points": "none scored", "power": vp.power}
        self.log.victory_points = {"scored": scored, "total": self.victory_point_total(vp.power)}

    def victory_point_total(self, power: str) -> int:
        return int(dict(self.w.pending.get("victory_points") or {}).get(power, 0))  # type: ignore[call-overload]

    def add_victory_points(self, power: str, change: int, why: str) -> None:
        vp = self.rules.victory.points
        if vp is None or power != vp.power or not change:
            return
        totals = dict(self.w.pending.get("victory_points") or {})  # type: ignore[call-overload]
        before = int(totals.get(power, 0))
        totals[power] = max(vp.floor, before + change)
        change = totals[power] - before  # the track stops at its floor
        if not change:
            return
        self.w.pending["victory_points"] = totals
        self.log.notes.append(f"{power} {'scores' if change > 0 else 'loses'} {abs(change)} victory point{'s' if abs(change) != 1 else ''} "
                              f"({why}): {totals[power]} in all")

    def lose_victory_points(self, power: str, ipcs_handed_over: int, why: str) -> None:
        """"For every full ten IPCs surrendered to the bank by Japan, due to an Allied Strategic Bombing
        Raid, Japan loses 1 VP"; "If Japan is captured, the Japanese player loses 1 VP for every full 10
        IPCs handed over" (Pacific, Strategic Bombing Raids; Capturing an Enemy Capital)."""
        vp = self.rules.victory.points
        if vp is not None and self.ruleset.power_name(power) == vp.power:
            self.add_victory_points(vp.power, -(ipcs_handed_over // vp.per_ipcs), why)

    def collect_country_income(self, country: str, minus: int = 0) -> None:
        w = self.w
        if self.rules.capitals.no_income_without_capital and not w.capital_held(country):
            self.log.notes.append(f"{country} collects no income: its capital is in enemy hands")
            self.log.income[country] = 0
            return
        if country in self.rules.economy.countries_without_income:
            return
        income = self.production(country) - minus
        if self.rules.hooks.income_adjustment is not None:
            subs: dict[str, int] = {}
            for u in w.units.values():
                if w.utype(u).has("submarine"):
                    subs[u.owner] = subs.get(u.owner, 0) + 1
            lost = min(income, self.rules.hooks.income_adjustment(self.options, w.power, subs))
            if lost:
                income -= lost
                self.log.notes.append(f"{w.power} loses {count_of(lost, 'IPC')} of income to enemy submarines")
        if self.rules.economy.tribute_paid_by_enemies:
            income += self.pay_tribute()
        income += self.national_objectives(country)
        income -= min(income, self.convoy_disruption(country))
        income += self.income_roll(country)
        w.treasury[country] = w.treasury.get(country, 0) + income
        self.log.income[country] = income

    def income_roll(self, country: str) -> int:
        """Technology.income_roll (AMS Propaganda): "During the collect income phase, roll 2 dice and
        collect IPCs totaling the die with the highest result"; for each economy of a power of several
        (the UK's breakthroughs "are shared by both")."""
        tech, w = self.rules.technology, self.w
        if tech is None or tech.income_roll is None or self.validating:
            return 0
        if tech.income_roll not in w.developments.get(w.power, frozenset()):
            return 0
        faces = self.dice.roll(f"propaganda/{country}/round-{self.state.round}", 2)
        gained = max(faces)
        self.log.rolls.append({"step": "propaganda", "power": w.power, "what": f"{tech.names[tech.income_roll]}: two dice, the higher in IPCs",
                               "dice": list(faces), "result": f"{count_of(gained, 'IPC')} for {country}"})
        return gained

    def claim_tokens(self) -> None:
        """Rules.tokens (AMS): which side holds each victory token now.  A token met for the first time
        in the game earns its side's power a technology roll (Rules.technology)."""
        tokens, w = self.rules.tokens, self.w
        if tokens is None or self.validating:
            return
        from pbem.engine.tokens import held_tokens, tech_receiver

        before = dict(w.pending.get("tokens") or {})  # type: ignore[call-overload]
        now = held_tokens(w, tokens)
        for o in tokens.objectives:
            if now.get(o.name) and before.get(o.name) != o.side:
                self.log.notes.append(f"The {o.side} claim the victory token: {o.name}")
            elif before.get(o.name) and not now.get(o.name):
                self.log.notes.append(f"The {before[o.name]} lose the victory token: {o.name}")
        w.pending["tokens"] = {name: now[name] for name in sorted(now)}
        claimed = set(w.pending.get("tokens_claimed") or [])  # type: ignore[call-overload]
        for o in tokens.objectives:
            if o.name in now and o.name not in claimed:
                claimed.add(o.name)
                self.technology_roll(tech_receiver(w, o, w.power), o.chart, o.name)
        w.pending["tokens_claimed"] = sorted(claimed)

    def technology_roll(self, power: str, chart: str, cause: str) -> None:
        """One roll on a technology chart (Technology; AMS: "Research rolls are awarded immediately upon
        receipt of the victory token and take effect during the Mobilize New Units phase of that
        player's current turn").  Kept in pending["breakthroughs"] until then: the mover's until its
        mobilize phase, another power's at once."""
        tech, w = self.rules.technology, self.w
        if tech is None:
            return
        from pbem.engine.technology import choose_chart, roll_breakthrough

        waiting = {p: list(d) for p, d in dict(w.pending.get("breakthroughs") or {}).items()}  # type: ignore[call-overload]
        known = w.developments.get(power, frozenset()) | frozenset(waiting.get(power, []))
        so = self.standing.get(power)
        chosen = choose_chart(tech, chart, known, so.tech_chart if so is not None else None)
        slug = "".join(ch if ch.isalnum() else "-" for ch in cause.lower()).strip("-")
        result = roll_breakthrough(tech, power, chosen, known, self.dice, f"technology/{power}/round-{self.state.round}/{slug}", cause)
        gained = tech.names[result.development] if result.development else None
        self.log.rolls.append({"step": "technology", "power": power, "what": f"technology roll on chart {chosen} for the token: {cause}",
                               "dice": list(result.rolled), "result": f"{gained} developed" if gained else "no new breakthrough"})
        if result.development:
            waiting.setdefault(power, []).append(result.development)
            w.pending["breakthroughs"] = {p: sorted(d) for p, d in sorted(waiting.items())}
            if power != w.power:
                self.apply_breakthroughs(power)

    def apply_breakthroughs(self, power: str | None = None) -> None:
        """Breakthroughs rolled this turn take effect (the mover's at its mobilize phase)."""
        w = self.w
        waiting = {p: list(d) for p, d in dict(w.pending.get("breakthroughs") or {}).items()}  # type: ignore[call-overload]
        for p in sorted(waiting):
            if power is not None and p != power:
                continue
            w.develop(p, w.developments.get(p, frozenset()) | frozenset(waiting.pop(p)))
        if waiting:
            w.pending["breakthroughs"] = waiting
        else:
            w.pending.pop("breakthroughs", None)

    def convoy_disruption(self, country: str) -> int:
        """EconomyRules.convoy_disruption (1940, E24): each convoy zone beside territories `country`
        controls, holding an enemy warship of a power at war with it, costs the dice its enemy units
        roll (units.yaml convoy_dice), at most the value of those territories; no territory loses more
        than its own value over every zone.  Rolled at adjudication only."""
        rule = self.rules.economy.convoy_disruption
        w = self.w
        if rule is None or self.validating:
            return 0
        power = self.ruleset.power_name(country)
        left: dict[str, int] = {}  # territory -> what it can still lose
        total = 0
        for zone, sp in sorted(w.board.spaces.items()):
            if not sp.convoy_zone:
                continue
            beside = sorted(t for t in w.board.neighbours(zone) if w.space(t).is_land and w.control.get(t) == country and w.space(t).ipc)
            # a submarine that submerged in a battle is back on the board in its zone: "located in the sea zone"
            enemies = [u for u in w.units_at(zone) if w.is_enemy(u.owner, power)]
            if not beside or not any(w.utype(u).domain == "sea" and not w.utype(u).has("transport") for u in enemies):
                continue
            dice = sum(w.utype(u).convoy_dice for u in enemies)
            if not dice:
                continue
            faces = self.dice.roll(f"convoy/{country}/{zone}", dice)
            rolled = sum(f for f in faces if rule.counted == "face" or f <= 3)
            for t in beside:
                left.setdefault(t, w.space(t).ipc)
            lost = 0
            for t in beside:  # spread over the territories beside the zone, none beyond its own value
                take = min(rolled - lost, left[t])
                left[t] -= take
                lost += take
            total += lost
            capped = f"; at most {count_of(lost, 'IPC')}, what {', '.join(beside)} can still lose" if lost < rolled else ""
            self.log.notes.append(f"{country} loses {count_of(lost, 'IPC') if lost else 'nothing'} to convoy disruption in {zone} "
                                  f"({dice} {'die' if dice == 1 else 'dice'}: {' '.join(str(f) for f in faces)}{capped})")
        return total

    def national_objectives(self, country: str) -> int:
        """Rules.objectives: the bonuses `country` collects now (1940 Global, E12 6.b: "add national
        objective bonuses"), each named in the report."""
        objectives = [o for o in self.rules.objectives if o.country == country]
        if not objectives:
            return 0
        from pbem.engine.objectives import earned

        w = self.w
        facts = frozenset(w.pending.get("facts", []) or [])  # type: ignore[call-overload]
        used = set(w.pending.get("once", []) or [])  # type: ignore[call-overload]
        total = 0
        for o in objectives:
            got = earned(w, o, facts, frozenset(used))
            if got:
                total += got
                self.log.notes.append(f"{country} collects {count_of(got, 'IPC')} for its national objective: {o.name}")
                if o.once:
                    used.add(o.key)
        if used:
            w.pending["once"] = sorted(used)
        return total

    def advance(self) -> GameState:
        w = self.w
        n = len(self.ruleset.powers)
        index = self.state.turn_index + 1
        rnd = self.state.round
        winner = self.state.winner
        if self.rules.victory.kind == "victory_cities" and self.rules.victory.held_for_a_round:
            winner = winner or self.check_held_for_a_round()
        elif self.rules.victory.kind == "victory_cities" and w.power == self.rules.victory.checked_after:
            winner = winner or self.check_victory()
        if index >= n:
            index, rnd = 0, rnd + 1
        if self.rules.victory.points is not None and not winner:
            winner = self.check_victory_points()
        if self.rules.victory.kind == "capital_held" and not winner:
            winner = self.check_capital_held(self.ruleset.powers[index].name)
        if self.rules.victory.kind == "tokens" and not winner:
            winner = self.check_tokens()
        self.log.winner = winner
        after = w.to_state(turn_index=index, round=rnd, winner=winner)
        victory = getattr(self, "victory", None) or dict(self.state.victory)
        return replace(after, victory=victory) if victory else after

    def victory_cities(self) -> dict[str, list[str]]:
        w = self.w
        held: dict[str, list[str]] = {}
        for name, sp in sorted(w.board.spaces.items()):
            if sp.victory_city and name in w.control:
                held.setdefault(self.ruleset.side_of(w.control[name]), []).append(sp.victory_city)
        return held

    def check_capital_held(self, power: str) -> str | None:
        """At the start of `power`'s turn: does it hold an enemy capital, and its own?  Then its side
        wins (Europe, Object of the Game: "occupy ... and hold it until your next turn. You must also
        control your home country")."""
        w = self.w
        # a power of several countries must hold each one's capital (Pacific: "The Great Britain player
        # must retain control of both India and the Australian capital, New South Wales"), but those
        # whose capital wins nothing (Pacific's China: the United States' "home country" is the USA)
        for country in self.ruleset.countries_of(power):
            if country in self.rules.victory.capitals_not_won:
                continue
            if w.control.get(self.ruleset.country(country).capital) != country:
                return None
        for enemy in self.ruleset.enemies(power):
            for country in self.ruleset.countries_of(enemy):
                if country in self.rules.victory.capitals_not_won:
                    continue
                capital = self.ruleset.country(country).capital
                holder = w.control.get(capital)
                if holder is not None and self.ruleset.power_name(holder) == power:
                    side = self.ruleset.side_of(power)
                    self.victory = {"capital": capital, "held_by": power, **self.individual_winner(side)}
                    self.log.notes.append(f"{power} holds {capital}, the capital of {country}, and its own at the start of its turn: the {side} win the game")
                    return side
        return None

    def city_groups_held(self) -> tuple[str, Any, int] | None:
        """The side holding enough cities of any one of its groups, while it holds one of its listed
        territories (1940 Global: 8 of the Europe board's 11 or 6 of the Pacific board's 8 for the
        Axis, holding an Axis capital; Berlin, Rome and Tokyo for the Allies, holding one of theirs),
        with the group and the cities held; or None."""
        control = self.w.control
        for side, how in sorted(self.ruleset.victory.sides.items()):
            def ours(t: str) -> bool:
                return t in control and self.ruleset.side_of(control[t]) == side
            if not any(ours(t) for t in how.holding_one_of):
                continue
            for group in how.any_of:
                held = [t for t in group.cities if ours(t)]
                if len(held) >= group.at_least:
                    return side, group, len(held)
        return None

    def check_city_groups(self) -> str | None:
        held = self.city_groups_held()
        if held is None:
            return None
        side, group, n = held
        self.victory = {"group": group.name, "cities": n, "needed": group.at_least}
        self.log.notes.append(f"The {side} hold {n} of the {len(group.cities)} victory cities of {group.name} "
                              f"(at least {group.at_least} win) and win the game")
        return side

    def check_held_for_a_round(self) -> str | None:
        """VictoryCheck.held_for_a_round: at the end of this turn, does a side still hold its condition
        a complete round after it first met it at the end of a turn?  The first time, and whenever it
        is lost, the report says so."""
        w = self.w
        held = self.city_groups_held()
        since = w.pending.get("victory_held")
        if held is None:
            if since:
                w.pending.pop("victory_held", None)
                side = since["side"]  # type: ignore[index]
                how = self.ruleset.victory.sides[side]
                if not any(t in w.control and self.ruleset.side_of(w.control[t]) == side for t in how.holding_one_of):
                    lost = f"no longer hold any of {', '.join(how.holding_one_of)}, one of which their victory cities need,"
                else:
                    lost = "no longer hold the victory cities they held"
                self.log.notes.append(f"The {side} {lost} since {since['power']}'s turn "  # type: ignore[index]
                                      f"in round {since['round']}: no victory")  # type: ignore[index]
            return None
        side, group, n = held
        if not since or since.get("side") != side:  # type: ignore[union-attr]
            w.pending["victory_held"] = {"side": side, "round": self.state.round, "power": w.power}
            self.log.notes.append(f"The {side} hold {n} of the {len(group.cities)} victory cities of {group.name} (at least "
                                  f"{group.at_least} win): they win if they still hold enough, at the end of every turn, until the "
                                  f"end of {w.power}'s turn in round {self.state.round + 1} (a complete round of play)")
            return None
        first = (since["round"], self.ruleset.turn_order.index(since["power"]))  # type: ignore[index]
        if (self.state.round, self.state.turn_index) < (first[0] + 1, first[1]):
            return None
        w.pending.pop("victory_held", None)
        self.victory = {"group": group.name, "cities": n, "needed": group.at_least}
        self.log.notes.append(f"The {side} hold {n} of the {len(group.cities)} victory cities of {group.name} "
                              f"(at least {group.at_least} win) for a complete round of play and win the game")
        return side

    def check_tokens(self) -> str | None:
        """AMS: "The Axis or the Allies will win the game by controlling, at end of any player's turn,
        (i) at least four victory tokens; and (ii) at least two more victory tokens than the other side"."""
        tokens = self.rules.tokens
        if tokens is None or self.validating:
            return None
        from pbem.engine.tokens import winner

        held = dict(self.w.pending.get("tokens") or {})  # type: ignore[call-overload]
        side = winner(held, tuple(self.ruleset.sides), tokens)
        if side is not None:
            mine = sorted(n for n, s in held.items() if s == side)
            self.victory = {"tokens": len(mine), "needed": tokens.at_least, "lead": tokens.lead}
            self.log.notes.append(f"The {side} hold {len(mine)} victory tokens, {tokens.lead} or more than the other side, "
                                  f"and win the game: {', '.join(mine)}")
        return side

    def check_victory_points(self) -> str | None:
        """Pacific, Object of the Game: Japan wins with 22 VPs; the Allies win when Japan scores none
        on its turn ("Japan's IPC income would need to be reduced to 9 or less")."""
        vp = self.rules.victory.points
        assert vp is not None
        total = self.victory_point_total(vp.power)
        if total >= vp.to_win:
            self.victory = {"victory_points": total, "power": vp.power}
            self.log.notes.append(f"{vp.power} has {total} victory points: the {self.ruleset.side_of(vp.power)} win the game")
            return self.ruleset.side_of(vp.power)
        if getattr(self, "points_victory", None):
            side = next(s for s in self.ruleset.sides if s != self.ruleset.side_of(vp.power))
            self.victory = dict(self.points_victory)
            self.log.notes.append(f"{vp.power} scored no victory points this turn: the {side} win the game")
            return side
        return None

    def individual_winner(self, side: str) -> dict[str, str]:
        """The optional individual winner (game option individual_winner): the power of the winning
        side whose national production rose most over its starting level (Revised, Check for Victory:
        Individual Winner; Europe, Object of the Game); a tie names each."""
        team = [p for p in self.ruleset.powers if p.side == side]
        if self.options.get("individual_winner") is not True or len(team) < 2:
            return {}
        rise = {p.name: self.production(p.name) - self.starting_treasury(p.name) for p in team}
        best = max(rise.values())
        return {"individual": " and ".join(n for n, r in rise.items() if r == best)}

    def check_victory(self) -> str | None:
        victory = self.ruleset.victory
        if victory.kind == "city_groups":
            return self.check_city_groups()
        needed = victory.conditions[str(self.options.get(victory.option, self.ruleset.options[victory.option].default))]
        for side, cities in sorted(self.victory_cities().items()):
            if len(cities) >= needed:
                # the highest level the count reaches (How the War Is Won: Revised's minor 8, major
                # 10, total 12): a side playing to a minor victory may win a major one
                level = max((n, name) for name, n in victory.conditions.items() if len(cities) >= n)[1]
                self.victory = {"level": level, "cities": len(cities), "needed": needed, **self.individual_winner(side)}
                self.log.notes.append(f"The {side} hold {len(cities)} victory cities and win the game: a {level} victory")
                return side
        return None


def _summed(groups: Any) -> dict[str, int]:
    """Unit counts added up over several groups (each country's purchase)."""
    total: dict[str, int] = {}
    for units in groups:
        for utype, n in units.items():
            total[utype] = total.get(utype, 0) + n
    return total


def run_turn(ruleset: Ruleset, rules: Rules, combat_rules: CombatRules, state: GameState, orders: Orders,
             standing: Mapping[str, StandingOrders], options: Mapping[str, Any], dice: Any | None, *,
             unread_moves: frozenset[tuple[str, int, str]] = frozenset()) -> TurnResult:
    """Validate (dice=None) or adjudicate one power's turn.  `unread_moves`: when validating orders
    of which some moves could not be read, (section, index, destination or "*") of each, so that
    later moves failing only for want of their units are not reported as well."""
    def run(orders: Orders, assume_breakthrough: bool = False, checking: bool = False) -> TurnResult:
        turn = Turn(ruleset, rules, combat_rules, state, orders, standing, options, None if checking else dice)
        if checking or dice is None:
            turn._unread_moves = sorted(unread_moves)
            turn.assume_breakthrough = assume_breakthrough
        return turn.run()

    if orders.develop is None:
        return run(orders)
    checked, implied = _checked_both_ways(orders, lambda o, assume=False: run(o, assume, checking=True))
    if dice is None:
        return checked
    if checked.problems:
        return run(orders)
    return run(replace(orders, if_developed={**implied, **orders.if_developed}))


def _markable(path: tuple) -> bool:
    """A move or rocket strike, which `if_developed` may mark."""
    return len(path) >= 2 and path[0] in ("combat_move", "noncombat_move", "rockets") and isinstance(path[1], int)


def _checked_both_ways(orders: Orders, check: Any) -> tuple[TurnResult, dict[tuple, str]]:
    """Revised Develop Weapons, Step 4: a breakthrough counts "From now on (including this turn)",
    but the orders are checked before the research dice.  So they are checked with the development
    and every order, and again without the development and without the orders that need it, so
    the turn can go ahead whatever the dice show.  The orders that need it are those marked
    `if_developed`, and the moves and rocket strikes that are legal only with it (and those that
    then fail for want of them): these are made only if the dice bring it, and a warning says so.
    Ships named to bombard that only it lets bombard are a warning too: at adjudication those that
    may not bombard are left out and the report says why.  Returns the result and the orders found
    to need the development (yaml path -> development id), for the adjudication to drop."""
    from pbem.engine.research import NAMES

    assert orders.develop is not None
    development = orders.develop[0]
    name = NAMES.get(development, development)
    marked = frozenset(orders.if_developed)
    failed = check(orders.without(marked))
    if not failed.problems and not marked:
        return failed, {}
    hoped = check(orders, True)
    hoped_problems = set(hoped.problems)
    implied: set[tuple] = set()
    for _ in range(8):  # each round drops the orders that failed for want of the ones dropped before
        new = {tuple(p.path[:2]) for p in failed.problems if p not in hoped_problems and _markable(p.path)} - implied - marked
        if not new:
            break
        implied |= new
        failed = check(orders.without(marked | implied))
    for p in failed.problems:
        if p in hoped_problems:
            continue
        if p.code == "directive.bombard":
            hoped.warnings.append(replace(p, kind="warning", message=f"{p.message}, unless this turn's research dice bring {name}",
                                          hint="if they do not, the others bombard and the report says why this one did not"))
        else:
            hoped.problems.append(replace(p, message=f"if the research dice do not bring {name}: {p.message}"))
    rule = "Phase 1: Develop Weapons, Step 4: From now on (including this turn)"
    for path in sorted(implied, key=lambda q: (("combat_move", "noncombat_move", "rockets").index(q[0]), q[1])):
        hoped.warnings.append(Problem("warning", f"this order needs {name} and is made only if this turn's research dice bring it",
                                      rule=rule, hint=f"write if_developed: {name} in it to say so", path=path,
                                      code="research.if-developed"))
    known = set(hoped.warnings)
    hoped.warnings.extend(p for p in failed.warnings if p not in known)
    return hoped, {path: development for path in implied}


def _without_a_deck(needs: list[tuple[Unit, list[str]]], carriers: list[tuple[int, frozenset[str]]]) -> list[tuple[Unit, list[str]]]:
    """The fighters left without a carrier place when each takes one of those it can reach (a
    matching: a fighter takes a place another could do without, not first come, first served).
    `carriers`: (places, the zones it may end the turn in) per carrier.  A carrier ends the turn in
    one zone, so every choice of zone for the carriers that may sail is tried (up to a bound; past
    it, a carrier's places are matched as if it could be in all its zones at once)."""
    wanted = {z for _, zones in needs for z in zones}
    choices = [sorted(zones & wanted) or sorted(zones)[:1] for _, zones in carriers]
    combinations = 1
    for c in choices:
        combinations *= len(c)
    if combinations > 4096:
        return _match_decks(needs, [zones for room, zones in carriers for _ in range(room)])
    best: list[tuple[Unit, list[str]]] | None = None
    for where in itertools.product(*choices):
        left = _match_decks(needs, [frozenset({z}) for (room, _), z in zip(carriers, where) for _ in range(room)])
        if best is None or len(left) < len(best):
            best = left
        if not best:
            break
    return best or []


def _match_decks(needs: list[tuple[Unit, list[str]]], places: list[frozenset[str]]) -> list[tuple[Unit, list[str]]]:
    """The fighters a maximum matching of fighters to carrier places (each with the zones it may
    be in) leaves without one."""
    holder: dict[int, int] = {}  # place -> the fighter's index

    def seat(i: int, tried: set[int]) -> bool:
        zones = set(needs[i][1])
        for k, where in enumerate(places):
            if k in tried or not where & zones:
                continue
            tried.add(k)
            if k not in holder or seat(holder[k], tried):
                holder[k] = i
                return True
        return False

    return [needs[i] for i in range(len(needs)) if not seat(i, set())]

