"""The working copy of one power's turn: individual units with what they did this turn.

The saved state counts units per space; within a turn the engine needs individual units (movement
used, cargo aboard which transport, whether it fought).  `World.from_state` expands the counts in a
fixed order and `World.to_state` counts them back, so the round trip is deterministic.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator

from pbem.engine.model import GameState, Space, UnitType
from pbem.engine.ruleset import Ruleset
from pbem.engine.rules import Rules


@dataclass
class Unit:
    id: int
    type: str
    owner: str
    space: str
    start: str
    moved: int = 0  # movement points used this turn
    phase: str | None = None  # "combat" or "noncombat" once it moved
    carrier: int | None = None  # id of the transport or carrier it is aboard
    loaded_phase: str | None = None  # the phase it boarded a transport in, this turn
    offloaded_to: str | None = None  # transports: where they offloaded this turn
    offloaded_phase: str | None = None  # transports: the phase of their first offload this turn
    assaults: int = 0  # transports: territories offloaded into in combat move this turn
    unloaded: int = 0  # transports: cargo slots offloaded this turn (capacity counts them: Rules.hooks.assaults_per_turn)
    fought: bool = False
    captured: bool = False  # changed hands with its territory this turn (a complex, an AA gun)
    retreated: bool = False
    raid_target: str | None = None  # the facility a raider strikes (Move.target; None: the complex)
    scrambled_from: str | None = None  # air units scrambled into a sea zone: their base (Rules.scramble)
    damaged: bool = False  # a two-hit unit with one hit that stays until repaired (CombatRules.two_hit_repair)
    mission: str | None = None
    seaborne_from: str | None = None  # land units: the sea zone they assaulted from
    came_by: int | None = None  # land units: the transport they offloaded from this turn
    order: tuple[str | int, ...] = ()  # YAML path of the last order that moved it, for error messages
    combat_path: int = 0  # how much of `path` was flown in combat move (the rest is the flight home)
    noncombat_work: str | None = None  # transports after combat (Revised): "load" or "offload" done
    submerged: bool = False  # submerged in a battle this turn: out of sight until the turn ends
    stowed: bool = False  # an air unit left aboard its carrier as it moved: cargo for the rest of the turn
    after_battle_move: int = 0  # spaces it may still move in noncombat after its battle (Rules.hooks.move_after_battle)
    # air units: where its last flight began and the movement used before it, so a carrier's other
    # possible zones can be judged as that flight's end (Turn._carrier_that_could_carry)
    leg_from: tuple[str, int] | None = None
    path: list[str] = field(default_factory=list)


class World:
    """Mutable within one turn; built from and returned to frozen `GameState`s."""

    def __init__(self, ruleset: Ruleset, rules: Rules, state: GameState):
        self.ruleset = ruleset
        self.rules = rules
        self.board = ruleset.board
        self.state = state
        self.power = ruleset.powers[state.turn_index].name
        self.side = ruleset.side_of(self.power)
        self.control: dict[str, str] = dict(state.control)
        self.control_at_start: dict[str, str] = dict(state.control)
        # sea zones hostile to the mover as its turn began (Turn.run sets it before any move)
        self.hostile_seas_at_start: frozenset[str] = frozenset()
        self.treasury: dict[str, int] = dict(state.treasury)
        self.damage: dict[str, int] = dict(state.damage)
        self.units: dict[int, Unit] = {}
        self.captured_this_turn: set[str] = set()
        self.pending: dict[str, object] = dict(state.pending)
        self.options: dict[str, object] = {}  # the game's rule options, set by the turn
        # Other powers whose units the mover commands in combat this turn (Rules.hooks.commands, e.g.
        # Revised's Joint Strike): those of their units that moved in combat attack as the mover's.
        self.commanded: frozenset[str] = frozenset()
        self.developments: dict[str, frozenset[str]] = {p: frozenset(d) for p, d in state.developments.items()}
        # orders' `markers:`: the country a power of several names for a territory it takes (Rules.hooks.capture_country)
        self.marker_choices: dict[str, str] = {}
        self.markers_used: set[str] = set()  # spaces whose marker_choices entry decided a capture
        # Rules.politics: the pairs of powers at war (None: opposing sides always are)
        self.wars: set[frozenset[str]] | None = None
        if rules.politics is not None:
            kept = state.pending.get("war")
            self.wars = ({frozenset(p) for p in kept} if kept is not None  # type: ignore[union-attr]
                         else set(rules.politics.at_war))
        self.wars_at_start = frozenset(self.wars) if self.wars is not None else None  # before this turn's declarations
        self._profiles: dict[str, dict[str, UnitType]] = {}
        self._next_id = 1
        for space in sorted(state.units):
            for owner in sorted(state.units[space]):
                for utype in sorted(state.units[space][owner]):
                    for _ in range(state.units[space][owner][utype]):
                        self.add(utype, owner, space)
        # two-hit units still damaged from an earlier turn (GameState.pending["damaged"])
        for space, by_owner in sorted(dict(state.pending.get("damaged") or {}).items()):  # type: ignore[call-overload]
            for owner, by_type in sorted(by_owner.items()):
                for utype, count in sorted(by_type.items()):
                    for u in [u for u in self.units_at(space) if u.owner == owner and u.type == utype][:count]:
                        u.damaged = True
        # fighters on combat air patrol stay in the air (Rules.movement.combat_air_patrol)
        for zone, by_owner in sorted(dict(state.pending.get("cap") or {}).items()):  # type: ignore[call-overload]
            for owner, count in sorted(by_owner.items()):
                fighters = [u for u in self.units_at(zone) if u.owner == owner and self.ruleset.units[u.type].has("fighter")]
                for u in fighters[:count]:
                    u.mission = "cap"
        for space in sorted({u.space for u in self.units.values() if self.is_sea(u.space)}):
            self._embark_at(space)

    @contextmanager
    def acting_for(self, power: str) -> Iterator[None]:
        """Within the block `power` is the moving power: a Mover moves its units by its side's
        rules (another power's move in this turn: Rules.hooks.commands, Rules.hooks.interjections)."""
        saved = self.power, self.side
        self.power, self.side = power, self.ruleset.side_of(power)
        try:
            yield
        finally:
            self.power, self.side = saved

    def commands(self, unit: Unit) -> bool:
        """The mover's own unit, or a commanded power's unit that moved in combat this turn."""
        return unit.owner == self.power or (unit.owner in self.commanded and unit.phase == "combat")

    # --- construction -------------------------------------------------------------------------
    def add(self, utype: str, owner: str, space: str) -> Unit:
        unit = Unit(self._next_id, utype, owner, space, space)
        self.units[unit.id] = unit
        self._next_id += 1
        return unit

    def _embark_at(self, space: str) -> None:
        """Land units at sea ride transports, air units at sea sit on carriers: own first, then allies'."""
        here = self.units_at(space)
        for cargo_tag, host_tag, domain in (("transport", "transport", "land"), ("carrier", "carrier", "air")):
            hosts = [u for u in here if (self.carries_land(u) if host_tag == "transport" else self.utype(u).has(host_tag))]
            riders = [u for u in here if self.utype(u).domain == domain and u.carrier is None and u.mission != "cap"]
            # Biggest cargo first, each onto the fullest transport (own before an ally's, a transport
            # before a unit a rule lets carry one, like Japan's destroyers) it fits: one tank and one
            # infantry per transport, as they were loaded.
            riders.sort(key=lambda u: (-self.utype(u).transport_size, u.id))
            for rider in riders:
                fits = [h for h in hosts if self.ruleset.side_of(h.owner) == self.ruleset.side_of(rider.owner)
                        and self.has_room(h, rider.type)]
                if fits:
                    load = {h.id: len(self.cargo_of(h)) if domain == "air" else
                            sum(self.utype(c).transport_size for c in self.cargo_of(h)) for h in fits}
                    rider.carrier = sorted(fits, key=lambda h: (h.owner != rider.owner, domain == "land" and not self.utype(h).has("transport"),
                                                                -load[h.id], h.id))[0].id

    def to_state(self, **changes: object) -> GameState:
        counts: dict[str, dict[str, dict[str, int]]] = {}
        for u in self.units.values():
            counts.setdefault(u.space, {}).setdefault(u.owner, {}).setdefault(u.type, 0)
            counts[u.space][u.owner][u.type] += 1
        units = {
            s: {o: dict(sorted(t.items())) for o, t in sorted(by_owner.items())}
            for s, by_owner in sorted(counts.items())
        }
        if self.wars is not None:
            self.pending["war"] = sorted(sorted(pair) for pair in self.wars)
        cap: dict[str, dict[str, int]] = {}
        for u in self.units.values():
            if u.mission == "cap" and u.carrier is None and self.is_sea(u.space):
                cap.setdefault(u.space, {}).setdefault(u.owner, 0)
                cap[u.space][u.owner] += 1
        if cap:
            self.pending["cap"] = {z: dict(sorted(o.items())) for z, o in sorted(cap.items())}
        else:
            self.pending.pop("cap", None)
        hurt: dict[str, dict[str, dict[str, int]]] = {}
        for u in self.units.values():
            if u.damaged:
                by_type = hurt.setdefault(u.space, {}).setdefault(u.owner, {})
                by_type[u.type] = by_type.get(u.type, 0) + 1
        if hurt:
            self.pending["damaged"] = {s: {o: dict(sorted(t.items())) for o, t in sorted(by.items())} for s, by in sorted(hurt.items())}
        else:
            self.pending.pop("damaged", None)
        base = replace(
            self.state,
            control=dict(sorted(self.control.items())),
            units=units,
            treasury={c: self.treasury.get(c, 0) for c in self.ruleset.countries},
            damage={k: v for k, v in sorted(self.damage.items()) if v},
            pending=dict(sorted(self.pending.items())),
            developments={p: tuple(sorted(d)) for p, d in sorted(self.developments.items()) if d},
        )
        return replace(base, **changes)  # type: ignore[arg-type]

    # --- queries ------------------------------------------------------------------------------
    def utype(self, unit: Unit) -> UnitType:
        """The unit's profile for its owner: weapons developments change some (Revised)."""
        changed = self.profiles_of(unit.owner)
        return changed.get(unit.type) or self.ruleset.units[unit.type]

    def profiles_of(self, power: str) -> dict[str, UnitType]:
        """The profiles a power's developments change (unit name -> profile); empty for most."""
        if power not in self._profiles:
            known = self.developments.get(power, frozenset())
            changed: dict[str, UnitType] = {}
            if self.rules.hooks.movement_profiles is not None:
                changed.update(self.rules.hooks.movement_profiles(self.options, self.ruleset.units, power))
            if known and self.rules.technology is not None:
                changed.update(self.rules.technology.profiles(self.ruleset.units, known))
            elif known:
                from pbem.engine.research import unit_profiles

                changed.update(unit_profiles(self.ruleset.units, known))
            self._profiles[power] = changed
        return self._profiles[power]

    def develop(self, power: str, developments: frozenset[str]) -> None:
        self.developments[power] = developments
        self._profiles.pop(power, None)

    def space(self, name: str) -> Space:
        return self.board.spaces[name]

    def is_sea(self, name: str) -> bool:
        return self.board.spaces[name].is_sea

    def units_at(self, space: str) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.space == space), key=lambda u: u.id)

    def carrier_room(self, host: Unit) -> int:
        """Air units `host` can still take aboard: none on a damaged carrier where the rules ground them
        (Rules.movement.damaged_carriers_hold_no_air)."""
        if host.damaged and self.rules.movement.damaged_carriers_hold_no_air:
            return 0
        return max(0, self.utype(host).carrier_capacity - len(self.cargo_of(host)))

    def grounded_air(self, zone: str) -> frozenset[int]:
        """Air units in `zone` that sit on a damaged carrier (Rules.movement.damaged_carriers_hold_no_air):
        those beyond what the zone's undamaged friendly carriers hold, lowest ids on the sound decks.
        Aircraft that flew this turn under their own power are in the air, aboard no carrier: they land
        in noncombat move ("you can move air units that moved during the Combat Move Phase and must use
        their remaining movement points to find a friendly landing spot"); only those carried as cargo
        (Unit.stowed) sit on a deck."""
        if not self.rules.movement.damaged_carriers_hold_no_air or not self.is_sea(zone):
            return frozenset()
        here = self.units_at(zone)
        carriers = [c for c in here if self.utype(c).has("carrier")]
        if not any(c.damaged for c in carriers):
            return frozenset()
        out: set[int] = set()
        for side_of in sorted({self.ruleset.side_of(c.owner) for c in carriers if c.damaged}):
            mine = [c for c in carriers if self.ruleset.side_of(c.owner) == side_of]
            sound = sum(self.utype(c).carrier_capacity for c in mine if not c.damaged)
            air = sorted((u for u in here if self.utype(u).lands_on_carriers and self.ruleset.side_of(u.owner) == side_of
                          and (u.phase is None or u.stowed)), key=lambda u: u.id)
            out |= {u.id for u in air[sound:]}
        return frozenset(out)

    def facility_operative(self, space: str, tag: str, of: str | None = None) -> bool:
        """A facility with `tag` in `space` owned by a power friendly to `of` (default: the mover) whose
        damage is below its `inoperable_at` (1940: a base with 3 damage works no more)."""
        for u in self.units_at(space):
            profile = self.utype(u)
            if profile.has(tag) and (self.is_friendly(u.owner, of) or self.ruleset.power_name(u.owner) == self.ruleset.power_name(of or self.power)):
                key = space if profile.has("factory") else f"{space}/{profile.name}"
                if profile.inoperable_at is None or self.damage.get(key, 0) < profile.inoperable_at:
                    return True
        return False

    def facility_max_damage(self, space: str) -> int | None:
        """The damage cap of the industrial complex in `space` where its profile states one (1940
        Global: major 20, minor 6); None: the rules' cap by the territory's IPC value."""
        caps = [self.utype(u).max_damage for u in self.units_at(space) if self.utype(u).has("factory")]
        return max((c for c in caps if c is not None), default=None)

    def facility_production(self, space: str) -> int | None:
        """Units the complex in `space` mobilizes a turn before damage where its profile states it
        (1940 Global: major 10, minor 3); None: the ruleset's production rule."""
        made = [self.utype(u).production for u in self.units_at(space) if self.utype(u).has("factory")]
        return max((m for m in made if m is not None), default=None)

    def cargo_of(self, host: Unit) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.carrier == host.id), key=lambda u: u.id)

    def extra_cargo(self, host: Unit) -> tuple[int, frozenset[str]] | None:
        """What a unit that is no transport may carry by a rule (Rules.hooks.extra_cargo), or None."""
        if self.rules.hooks.extra_cargo is None or self.utype(host).has("transport"):
            return None
        return self.rules.hooks.extra_cargo(self.options, host.owner, self.utype(host))

    def carries_land(self, host: Unit) -> bool:
        """A transport, or a unit a rule lets carry land units."""
        return self.utype(host).has("transport") or self.extra_cargo(host) is not None

    def has_room(self, host: Unit, rider_type: str) -> bool:
        host_type = self.utype(host)
        rider = self.ruleset.units[rider_type]
        aboard = self.cargo_of(host)
        extra = self.extra_cargo(host) if rider.domain == "land" else None
        if extra is not None:
            count, tags = extra
            return bool(rider.tags & tags) and len(aboard) < count
        if host_type.has("transport") and rider.domain == "land":
            if rider.transport_size == 0:
                return False
            used = sum(self.ruleset.units[u.type].transport_size for u in aboard) + host.unloaded
            return used + rider.transport_size <= host_type.transport_capacity
        if host_type.has("carrier") and rider.lands_on_carriers:
            if host.damaged and self.rules.movement.damaged_carriers_hold_no_air:
                return False  # 1940: "A damaged carrier cannot launch or land aircraft"
            return len(aboard) < host_type.carrier_capacity
        return False

    def relation(self, power: str, of: str | None = None) -> str:
        """"allied" (the same side), "war", or "peace" (opposing sides not at war, Rules.politics)."""
        a, b = self.ruleset.power_name(power), self.ruleset.power_name(of or self.power)
        if self.ruleset.side_of(a) == self.ruleset.side_of(b):
            return "allied"
        if self.wars is None or frozenset({a, b}) in self.wars:
            return "war"
        neutrals = self.rules.politics.neutrals if self.rules.politics is not None else None
        if neutrals is not None:
            for mover, owner in ((a, b), (b, a)):
                if mover in neutrals.attackable_by.get(owner, ()) and self.at_war_with_anyone(mover, neutrals):
                    return "war"
                patron = neutrals.at_war_with_enemies_of.get(owner)
                if patron is not None and frozenset({mover, patron}) in self.wars:
                    return "war"
        return "peace"

    def at_war_with_anyone(self, power: str, neutrals: Any = None) -> bool:
        """A power at war with some other power (1940: a "neutral power" - at war with none - enters no
        neutral territory); always, where the rules do not ask."""
        if neutrals is not None and not neutrals.only_powers_at_war:
            return True
        return self.wars is None or any(power in pair for pair in self.wars)

    def takes_by_moving_in(self, territory: str, power: str | None = None) -> bool:
        """A friendly neutral `power` takes by moving land units into it in noncombat move (Politics.neutrals)."""
        neutrals = self.rules.politics.neutrals if self.rules.politics is not None else None
        owner = self.control.get(territory)
        mover = self.ruleset.power_name(power or self.power)
        return (neutrals is not None and owner is not None and self.space(territory).is_land
                and mover in neutrals.taken_by_moving_in.get(owner, ()) and self.at_war_with_anyone(mover, neutrals))

    def is_enemy(self, power: str | None, of: str | None = None) -> bool:
        """At war: only enemies fight, and only their territories are hostile."""
        if power is None:
            return False
        return self.relation(power, of) == "war"

    def is_friendly(self, power: str | None, of: str | None = None) -> bool:
        """The same side: allies share territories, carriers and transports."""
        return power is not None and self.relation(power, of) == "allied"

    def shares_with(self, owner: str | None, of: str | None = None) -> bool:
        """May units of `of` (default: the mover) board, land on or use the ships and bases of `owner`?
        The same side, and where there is politics neither of two different powers at war with no one
        (1940, P14: "When not at war, US may not move units ... onto ships belonging to another power
        or use another power's naval bases, and other powers may not move its units ... onto US ships
        or use US naval bases")."""
        if not self.is_friendly(owner, of):
            return False
        if self.rules.politics is None or self.wars is None:
            return True
        a, b = self.ruleset.power_name(owner or ""), self.ruleset.power_name(of or self.power)
        return a == b or (self.at_war_with_anyone(a) and self.at_war_with_anyone(b))

    def is_closed(self, name: str, of: str | None = None) -> bool:
        """A territory of a power at peace with `of` (Rules.politics): no entry, no overflight."""
        owner = self.control.get(name)
        return owner is not None and self.space(name).is_land and self.relation(owner, of) == "peace"

    def hostile_by_declaration(self, zone: str) -> bool:
        """A sea zone hostile now only because of this turn's declarations of war: transports already
        in it may still load there (1940, E12, restated by the AMS guide: "transports that are already
        in a sea zone that becomes hostile by a DOW may be loaded in that sea zone (but not others)")."""
        if self.wars is None or self.wars_at_start is None or self.wars == self.wars_at_start:
            return False
        if not self.is_hostile_sea_zone(zone):
            return False
        now, self.wars = self.wars, set(self.wars_at_start)
        try:
            return not self.is_hostile_sea_zone(zone)
        finally:
            self.wars = now

    def declare_war(self, power: str, target: str) -> None:
        assert self.wars is not None
        self.wars.add(frozenset({self.ruleset.power_name(power), self.ruleset.power_name(target)}))

    def is_friendly_territory(self, name: str, *, at_start: bool = False, of: str | None = None) -> bool:
        control = self.control_at_start if at_start else self.control
        owner = control.get(name)
        return owner is not None and self.is_friendly(owner, of)

    def is_hostile_territory(self, name: str, *, of: str | None = None) -> bool:
        owner = self.control.get(name)
        return owner is not None and self.is_enemy(owner, of)

    def enemy_units_at(self, space: str, of: str | None = None) -> list[Unit]:
        return [u for u in self.units_at(space) if self.is_enemy(u.owner, of)]

    def is_hostile_sea_zone(self, space: str, of: str | None = None, *, subs: bool = False) -> bool:
        """Enemy units of the ruleset's kinds make a zone hostile; submerged submarines never do.
        Enemy fighters on combat air patrol do too, except to submarines (`subs`): "the CAP will stop
        all enemy naval units (except subs) from moving through the sea zone" (Pacific, Phase 6)."""
        return any((self.utype(u).tags & self.rules.movement.hostile_sea_zone_tags and not u.submerged)
                   or (u.mission == "cap" and not subs)
                   for u in self.enemy_units_at(space, of))

    def enemy_destroyer_at(self, space: str, of: str | None = None) -> bool:
        return any(self.utype(u).has("destroyer") for u in self.enemy_units_at(space, of))

    def canal_open(self, a: str, b: str, of: str | None = None, *, subs: bool = False) -> bool:
        """A canal may be used when the mover's side controlled it at the start of the turn (`subs`: by
        submarines alone, which pass the canals of Rules.movement.canals_open_to_submarines)."""
        canal = self.board.canal_between(a, b)
        if canal is None:
            return True
        if subs and canal.name in self.rules.movement.canals_open_to_submarines:
            return True
        if not all(self.is_friendly_territory(t, at_start=True, of=of) for t in canal.controlled_by):
            return False
        # 1940 (E9): "You cannot move ships through a canal controlled by a neutral power" - a power at
        # war with none (the United States at the start), ally or not; its own ships pass
        mover = self.ruleset.power_name(of or self.power)
        holders = {self.ruleset.power_name(self.control_at_start[t]) for t in canal.controlled_by}
        return self.wars is None or all(h == mover or any(h in pair for pair in self.wars) for h in holders)

    def strait_closed(self, a: str, b: str) -> bool:
        """A closed strait (a game option) bars sea units from entering or leaving its zones."""
        for option, zones in self.rules.movement.closed_straits.items():
            if self.options.get(option) and (a in zones or b in zones):
                return True
        return False

    def owned(self, power: str, space: str, types: Iterable[str] | None = None) -> list[Unit]:
        wanted = set(types) if types is not None else None
        return [u for u in self.units_at(space) if u.owner == power and (wanted is None or u.type in wanted)]

    def remove(self, unit: Unit) -> None:
        for rider in self.cargo_of(unit):
            del self.units[rider.id]
        del self.units[unit.id]

    def move_unit(self, unit: Unit, path: list[str], cost: int | None = None) -> None:
        unit.path.extend(path)
        unit.moved += len(path) if cost is None else cost
        unit.space = path[-1] if path else unit.space
        for rider in self.cargo_of(unit):
            rider.space = unit.space

    def capital(self, country: str) -> str:
        """The country's capital: its own, or where it went into exile (CapitalRules.exile)."""
        exiles = self.pending.get("exiles") or {}
        return exiles.get(country) or self.ruleset.country(country).capital  # type: ignore[union-attr]

    def capital_of_space(self, space: str) -> str | None:
        """The country whose capital `space` is now (an exile's included)."""
        for country, there in sorted((self.pending.get("exiles") or {}).items()):  # type: ignore[union-attr]
            if there == space:
                return country
        own = self.space(space).capital_of
        return own if own is not None and self.capital(own) == space else None

    def capital_held(self, name: str) -> bool:
        """A country's capital is in friendly hands; for a power of several countries, every one's."""
        countries = (name,) if name not in self.ruleset.turn_order else self.ruleset.countries_of(name)
        return all(not self.is_enemy(self.control.get(self.capital(c)), c) for c in countries)

    def controller(self, space: str, *, at_start: bool = False) -> str | None:
        """The power whose country controls `space` (control is kept by country)."""
        holder = (self.control_at_start if at_start else self.control).get(space)
        return None if holder is None else self.ruleset.power_name(holder)

    def country_for(self, space: str, power: str) -> str:
        """The country whose control marker `power` places on `space` when it takes it: the space's
        original country if it is one of the power's, else by the ruleset's hook, else its first."""
        countries = self.ruleset.countries_of(power)
        original = self.space(space).original_owner
        if original in countries:
            return original
        if len(countries) > 1 and self.rules.hooks.capture_country is not None:
            chosen = self.rules.hooks.capture_country(self.options, power, self.space(space), self,
                                                      chosen=self.marker_choices.get(space))
            if chosen and chosen == self.marker_choices.get(space):
                self.markers_used.add(space)
            if chosen:
                return chosen
        return countries[0]
