"""Movement rules of 1942 Second Edition: each with a legal and an illegal case.

Citations name the rulebook's phase and section (aa1942_2e.txt); page numbers where the text gives them.
"""

from __future__ import annotations

import pytest

from pbem.engine.problems import ProblemsError
from tests.engine.scenario import codes, play, state, units_at, validate

EMPTY = {}


def test_land_units_stop_on_entering_hostile_territory() -> None:
    """Phase 2: Combat Move, Tanks and Blitzing (pg. 13): a tank meeting enemy units in the first
    territory stops there; it cannot pass an occupied hostile territory."""
    st = state(turn="Soviet Union")
    problems = validate(st, "Soviet Union", "combat_move:\n  - {units: 1 tank, from: Russia, to: Belorussia, via: [West Russia]}\n")
    assert codes(problems) == ["move.blitz-blocked"]
    assert "Tanks and Blitzing" in problems[0].rule


def test_tank_blitzes_through_an_empty_hostile_territory_and_captures_it() -> None:
    """Tanks and Blitzing (pg. 13): the tank takes control of the empty territory it passes."""
    st = state(turn="Soviet Union", clear=("West Russia",))
    body = "combat_move:\n  - {units: 1 tank, from: Russia, to: Belorussia, via: [West Russia]}\n"
    assert validate(st, "Soviet Union", body) == []
    result = play(st, "Soviet Union", body, dice={
        "battle/Belorussia/round-1/attacker": [1], "battle/Belorussia/round-1/defender": [6, 6, 6],
        "battle/Belorussia/round-2/attacker": [1], "battle/Belorussia/round-2/defender": [6, 6],
        "battle/Belorussia/round-3/attacker": [1], "battle/Belorussia/round-3/defender": [6],
    })
    assert result.state.control["West Russia"] == "Soviet Union"
    assert any(c["space"] == "West Russia" and c["blitz"] for c in result.log.captures)


def test_blitz_blocked_by_antiaircraft_artillery() -> None:
    """Tanks and Blitzing (pg. 13): antiaircraft artillery or an industrial complex in the first
    territory stops a blitzing tank."""
    st = state(turn="Soviet Union", units={"West Russia": {"Germany": {"antiaircraft artillery": 1}}})
    problems = validate(st, "Soviet Union", "combat_move:\n  - {units: 1 tank, from: Russia, to: Belorussia, via: [West Russia]}\n")
    assert codes(problems) == ["move.blitz-blocked"]


def test_combat_move_must_end_in_combat() -> None:
    """Phase 2: Combat Move: every move must end in combat; moving into a friendly space is noncombat."""
    st = state(turn="Soviet Union")
    problems = validate(st, "Soviet Union", "combat_move:\n  - {units: 1 infantry, from: Russia, to: Archangel}\n")
    assert codes(problems) == ["move.not-combat"]
    assert validate(st, "Soviet Union", "noncombat_move:\n  - {units: 1 infantry, from: Russia, to: Archangel}\n") == []


def test_hostile_sea_zone_stops_surface_ships() -> None:
    """Phase 2: Combat Move: sea units stop in hostile sea zones (enemy surface warships)."""
    st = state(turn="Germany", units={"SZ 15": {"Germany": {"cruiser": 1}}})
    problems = validate(st, "Germany", "noncombat_move:\n  - {units: 1 cruiser, from: SZ 15, to: SZ 34, via: [SZ 17]}\n")
    assert "move.through-hostile-sea" in codes(problems) or "move.canal" in codes(problems)


def test_submarines_pass_warships_but_not_destroyers() -> None:
    """Submarines: they move through sea zones with enemy warships unless an enemy destroyer is there."""
    st = state(turn="Germany")
    # SZ 7 holds a British battleship and transport but no destroyer.
    assert validate(st, "Germany", "noncombat_move:\n  - {units: 2 submarines, from: SZ 9, to: SZ 6, via: [SZ 7]}\n") == []
    st2 = state(turn="Germany", units={"SZ 7": {"United Kingdom": {"destroyer": 1, "battleship": 1}}})
    problems = validate(st2, "Germany", "noncombat_move:\n  - {units: 2 submarines, from: SZ 9, to: SZ 6, via: [SZ 7]}\n")
    assert codes(problems) == ["move.sub-destroyer"]


def test_suez_canal_needs_the_sides_control_at_start_of_turn() -> None:
    """Canals (pg. 9): Suez joins sea zones 17 and 34; a side must control Anglo-Egyptian Sudan and
    Trans-Jordan at the start of its turn to sail through."""
    st = state(turn="United Kingdom")
    assert validate(st, "United Kingdom", "noncombat_move:\n  - {units: 1 destroyer, from: SZ 17, to: SZ 34}\n") == []
    st2 = state(turn="Germany", clear=("SZ 17",), units={"SZ 17": {"Germany": {"cruiser": 1}}})
    problems = validate(st2, "Germany", "noncombat_move:\n  - {units: 1 cruiser, from: SZ 17, to: SZ 34}\n")
    assert codes(problems) == ["move.canal"]
    assert "Trans-Jordan" in problems[0].hint and "Anglo-Egyptian Sudan" in problems[0].hint
    st3 = state(turn="Germany", clear=("SZ 17",), units={"SZ 17": {"Germany": {"cruiser": 1}}},
                control={"Anglo-Egyptian Sudan": "Germany", "Trans-Jordan": "Germany"})
    assert validate(st3, "Germany", "noncombat_move:\n  - {units: 1 cruiser, from: SZ 17, to: SZ 34}\n") == []


def test_impassable_neutrals_cannot_be_entered_or_overflown() -> None:
    """Neutral Territories (pg. 9): they cannot be attacked, entered or flown over."""
    st = state(turn="Soviet Union")
    assert codes(validate(st, "Soviet Union", "noncombat_move:\n  - {units: 1 fighter, from: Russia, to: Persia, via: [Caucasus, Turkey]}\n")) == ["move.neutral"]
    assert validate(st, "Soviet Union", "noncombat_move:\n  - {units: 1 fighter, from: Russia, to: Persia, via: [Caucasus]}\n") == []


def test_air_units_need_a_possible_landing() -> None:
    """Phase 2: Combat Move, Air Units: before any battle, show a possible landing for every
    attacking air unit, assuming all attacks succeed; air units cannot land where they attacked."""
    st = state(turn="Germany")
    ok = "combat_move:\n  - {units: 1 fighter, from: Norway, to: Karelia S.S.R.}\n"
    assert validate(st, "Germany", ok) == []
    far = "combat_move:\n  - {units: 1 fighter, from: Germany, to: Russia}\n"
    assert codes(validate(st, "Germany", far)) == ["air.no-landing"]


def test_air_units_cannot_land_in_a_territory_captured_this_turn() -> None:
    """Phase 4: Noncombat Move, Air Units: land only in a territory friendly at the start of the turn."""
    st = state(turn="Germany", clear=("Karelia S.S.R.",))
    body = ("combat_move:\n  - {units: 1 infantry, from: Finland, to: Karelia S.S.R.}\n"
            "  - {units: 1 fighter, from: Norway, to: Karelia S.S.R.}\n"
            "noncombat_move:\n  - {units: 1 fighter, from: Karelia S.S.R., to: Karelia S.S.R.}\n")
    problems = validate(st, "Germany", body)
    assert "air.landing" in codes(problems)


def test_transport_capacity_one_land_unit_plus_one_infantry() -> None:
    """Transports: a transport carries any one land unit plus one additional infantry."""
    st = state(turn="United Kingdom")
    ok = "noncombat_move:\n  - {units: 1 tank, from: United Kingdom, to: SZ 7}\n  - {units: 1 infantry, from: United Kingdom, to: SZ 7}\n"
    assert validate(st, "United Kingdom", ok) == []
    bad = "noncombat_move:\n  - {units: 1 tank, from: United Kingdom, to: SZ 7}\n  - {units: 1 artillery, from: United Kingdom, to: SZ 7}\n"
    assert codes(validate(st, "United Kingdom", bad)) == ["move.load-capacity"]


def test_no_loading_in_a_hostile_sea_zone() -> None:
    """Transports: a transport cannot load or offload while in a hostile sea zone."""
    st = state(turn="United Kingdom", units={"SZ 7": {"United Kingdom": {"transport": 1}, "Germany": {"cruiser": 1}}})
    # Loading happens as the moves are made, before the battle that the ships staying there must fight.
    assert "move.load-hostile" in codes(validate(st, "United Kingdom", "combat_move:\n  - {units: 1 infantry, from: United Kingdom, to: SZ 7}\n"))


def test_cargo_loaded_in_combat_move_must_assault() -> None:
    """Transports: land units loaded during Combat Move must be offloaded in an amphibious assault."""
    st = state(turn="United Kingdom")
    body = "combat_move:\n  - {units: 2 infantry, from: United Kingdom, to: SZ 7}\n"
    found = validate(st, "United Kingdom", body)
    assert codes(found) == ["move.cargo-not-offloaded"]
    # the error points at the move that loaded them, not at the whole combat_move section
    assert found[0].path == ("combat_move", 0, "units")


def test_amphibious_assault_is_legal_and_transport_offloads_once() -> None:
    """Amphibious Assaults / Transports: load, move, offload into a hostile territory; a transport
    cannot offload in two territories in one turn."""
    st = state(turn="United Kingdom", clear=("SZ 8",))
    ok = ("combat_move:\n"
          "  - {units: '1 infantry, 1 tank', from: United Kingdom, to: SZ 7}\n"
          "  - {units: 1 transport, from: SZ 7, to: SZ 8}\n"
          "  - {units: '1 infantry, 1 tank', from: SZ 8, to: France}\n")
    assert validate(st, "United Kingdom", ok) == []
    twice = ("combat_move:\n"
             "  - {units: '1 infantry, 1 tank', from: United Kingdom, to: SZ 7}\n"
             "  - {units: 1 transport, from: SZ 7, to: SZ 8}\n"
             "  - {units: 1 infantry, from: SZ 8, to: France}\n"
             "  - {units: 1 tank, from: SZ 8, to: Northwestern Europe}\n")
    assert "move.offload-twice" in codes(validate(st, "United Kingdom", twice))


def test_noncombat_move_only_for_units_that_did_not_move_in_combat() -> None:
    """Phase 4: Noncombat Move: units that moved in combat move or fought cannot move (air units land)."""
    st = state(turn="Soviet Union")
    body = ("combat_move:\n  - {units: 1 infantry, from: Karelia S.S.R., to: Belorussia}\n"
            "noncombat_move:\n  - {units: 1 infantry, from: Belorussia, to: Karelia S.S.R.}\n")
    assert "move.already-moved" in codes(validate(st, "Soviet Union", body))


def test_noncombat_land_moves_through_friendly_territory_only() -> None:
    """Phase 4: Noncombat Move: only air units and submarines move through hostile spaces."""
    st = state(turn="Soviet Union")
    problems = validate(st, "Soviet Union", "noncombat_move:\n  - {units: 1 tank, from: Russia, to: Belorussia, via: [West Russia]}\n")
    assert "move.noncombat-hostile" in codes(problems)


def test_antiaircraft_artillery_moves_only_in_noncombat() -> None:
    """Unit Profiles (pg. 24): antiaircraft artillery moves only in the Noncombat Move phase."""
    st = state(turn="Soviet Union")
    assert codes(validate(st, "Soviet Union", "combat_move:\n  - {units: 1 aaa, from: Russia, to: West Russia}\n")) == ["move.aaa-combat"]
    assert validate(st, "Soviet Union", "noncombat_move:\n  - {units: 1 aaa, from: Russia, to: Archangel}\n") == []


def test_turkish_straits_closed_option() -> None:
    """Optional rule: Turkish straits closed: no sea unit may move into or out of sea zone 16."""
    st = state(turn="Germany", clear=("SZ 17",))
    body = "noncombat_move:\n  - {units: 1 battleship, from: SZ 15, to: SZ 16}\n"
    assert validate(st, "Germany", body) == []
    assert codes(validate(st, "Germany", body, options={"turkish_straits_closed": True})) == ["move.straits"]


def test_allied_transport_carries_your_units_across_turns() -> None:
    """Transporting Multinational Forces: you load on your turn, the owner moves the transport on
    its turn, you offload on your next turn."""
    st = state(turn="United Kingdom", units={"SZ 11": {"United States": {"transport": 1}}}, clear=("SZ 11",),
               control={"Eastern Canada": "United Kingdom"})
    st = state(turn="United Kingdom", units={"SZ 10": {"United States": {"transport": 1}}})
    result = play(st, "United Kingdom", "noncombat_move:\n  - {units: 1 tank, from: Eastern Canada, to: SZ 10}\n")
    assert units_at(result.state, "SZ 10", "United Kingdom") == {"tank": 1}


def test_retreat_only_to_a_space_an_attacker_came_from() -> None:
    """General Combat, step 6 (Attacker Retreats, pg. 18): the attacker retreats to one adjacent
    friendly space from which at least one attacking land or sea unit moved."""
    st = state(turn="Soviet Union")
    base = "combat_move:\n  - {units: 3 infantry, from: Russia, to: West Russia}\nbattles:\n  West Russia: {retreat: {to: %s, when: after round 1}}\n"
    assert validate(st, "Soviet Union", base % "Russia") == []
    problems = validate(st, "Soviet Union", base % "Caucasus")
    assert codes(problems) == ["directive.retreat-to"] and "Russia" in problems[0].hint


def test_retreat_conditions_read_as_pbem_odds_reads_them() -> None:
    """Battle directives: `when:` takes the words `pbem odds --retreat` takes, "defenders outnumber"
    among them (it was refused with only "defenders outnumber us" understood)."""
    st = state(turn="Soviet Union")
    base = "combat_move:\n  - {units: 3 infantry, from: Russia, to: West Russia}\nbattles:\n  West Russia: {retreat: {to: Russia, when: %s}}\n"
    for words in ("defenders outnumber", "when defenders outnumber us", "outnumbered", "attackers <= 1", "after 2 rounds"):
        assert validate(st, "Soviet Union", base % words) == [], words
    with pytest.raises(ProblemsError, match="cannot read the retreat condition 'sometimes'"):
        validate(st, "Soviet Union", base % "sometimes")


def test_directive_for_a_space_without_battle_is_refused() -> None:
    """Battle directives are for the battles the combat moves start; a typo must not pass silently."""
    st = state(turn="Soviet Union")
    problems = validate(st, "Soviet Union", "combat_move:\n  - {units: 3 infantry, from: Russia, to: West Russia}\nbattles:\n  Ukraine S.S.R.: {order_of_loss: [infantry]}\n")
    assert codes(problems) == ["directive.no-battle"]


def test_new_fighters_at_sea_need_room_on_own_carriers() -> None:
    """Phase 5: Mobilize New Units: new fighters may be placed on your own new or existing carrier in
    an adjacent sea zone, never on a carrier of a friendly power."""
    st = state(turn="United States")
    ok = "purchase: {aircraft carrier: 1, fighter: 2}\nplace:\n  SZ 11: {aircraft carrier: 1, fighter: 2}\n"
    assert validate(st, "United States", ok) == []
    bad = "purchase: {fighter: 1}\nplace:\n  SZ 11: 1 fighter\n"
    assert codes(validate(st, "United States", bad)) == ["place.no-carrier-room"]


def test_landing_plan_may_rely_on_a_carrier_that_stays_for_noncombat() -> None:
    """Combat Move, Air Units: a landing may rely on a carrier's noncombat move if that carrier does
    not move in combat move."""
    st = state(turn="United States", clear=("SZ 53", "SZ 52"), units={"SZ 53": {"United States": {"aircraft carrier": 1}},
                                                                      "SZ 52": {"Japan": {"transport": 1}}})
    # The Hawaiian fighter attacks the transport two zones away... and can land on the carrier.
    body = "combat_move:\n  - {units: 1 fighter, from: Hawaiian Islands, to: SZ 52}\n"
    assert validate(st, "United States", body) == []


def test_cargo_carried_over_turns_stays_aboard_every_transport() -> None:
    """Transports: cargo stays aboard between turns; two transports holding two infantry and two
    tanks carry all four when they move on (one tank and one infantry each)."""
    st = state(turn="United States", units={"SZ 10": {"United States": {"transport": 2, "infantry": 2, "tank": 2}}})
    result = play(st, "United States", "noncombat_move:\n  - {units: 2 transports, from: SZ 10, to: SZ 11}\n")
    assert units_at(result.state, "SZ 11", "United States") == {"destroyer": 1, "infantry": 2, "tank": 2, "transport": 4}


def test_a_fighter_taken_along_by_its_carrier_is_explained_when_moved_on_its_own() -> None:
    """Aircraft carriers: fighters aboard move with their carrier (1942 Second Edition, Aircraft
    Carrier). Moving one on its own after the carrier sailed says the carrier took it, rather than
    only "has 0 fighter" (issue 14)."""
    st = state(turn="United States", clear=("SZ 10", "SZ 11"),
               units={"SZ 10": {"United States": {"aircraft carrier": 1, "fighter": 2}}})
    body = ("noncombat_move:\n  - {units: 1 aircraft carrier, from: SZ 10, to: SZ 11}\n"
            "  - {units: 1 fighter, from: SZ 10, to: SZ 11}\n")
    problems = validate(st, "United States", body)
    assert codes(problems) == ["move.no-units"]
    assert "aboard the aircraft carrier that moved from SZ 10 to SZ 11 went with it" in (problems[0].hint or "")


def test_a_unit_moved_twice_in_combat_move_gets_a_combat_move_hint() -> None:
    """A combat move refused because its units already moved this phase must not be told about
    noncombat move (issue 14)."""
    st = state(turn="Soviet Union")
    body = ("combat_move:\n  - {units: 2 infantry, from: Karelia S.S.R., to: Belorussia}\n"
            "  - {units: 1 infantry, from: Belorussia, to: Poland}\n")
    problems = validate(st, "Soviet Union", body)
    moved = [p for p in problems if p.code == "move.already-moved"]
    assert moved and "noncombat" not in (moved[0].hint or "") and "one combat move" in (moved[0].hint or "")


def test_a_noncombat_move_given_in_legs_past_the_movement_says_it_is_spent() -> None:
    """Units may make their noncombat move in legs; a leg past their movement is refused, and the
    hint names the spent movement, not combat (which they never saw)."""
    st = state(turn="Soviet Union")
    body = ("noncombat_move:\n  - {units: 2 tank, from: Russia, to: Kazakh S.S.R.}\n"
            "  - {units: 2 tank, from: Kazakh S.S.R., to: Novosibirsk}\n"
            "  - {units: 2 tank, from: Novosibirsk, to: Evenki National Okrug}\n")
    problems = validate(st, "Soviet Union", body)
    moved = [p for p in problems if p.code == "move.already-moved"]
    assert moved and moved[0].hint == "2 tanks there already used their whole movement this turn"


def test_cargo_named_beside_its_transport_is_told_it_sails_with_it() -> None:
    """Transports (1942 Second Edition, Transport): loaded units move with their transport.  A new
    player writes the loaded infantry beside the transport; the hint says cargo goes with the ship,
    not that the infantry "used their whole movement"."""
    st = state(turn="United States", clear=("SZ 10", "SZ 11"), units={"SZ 10": {"United States": {"transport": 1}}, "Eastern Canada": {"United States": {"infantry": 2}}})
    body = ("noncombat_move:\n  - {units: 2 infantry, from: Eastern Canada, to: SZ 10}\n"
            "  - {units: \"1 transport, 2 infantry\", from: SZ 10, to: SZ 11}\n")
    problems = validate(st, "United States", body)
    moved = [p for p in problems if p.code == "move.already-moved"]
    assert moved and "aboard: cargo sails with its transport, so name only the ship" in (moved[0].hint or ""), problems
    ok = play(st, "United States", "noncombat_move:\n  - {units: 2 infantry, from: Eastern Canada, to: SZ 10}\n"
                                   "  - {units: 1 transport, from: SZ 10, to: SZ 11}\n")
    assert units_at(ok.state, "SZ 11", "United States") == {"infantry": 2, "transport": 1}


def test_counts_in_messages_read_as_english() -> None:
    """Messages say "0 tanks" and "1 fighter", as players write (issue 14: plurals read as English)."""
    st = state(turn="Germany")
    problems = validate(st, "Germany", "combat_move:\n  - {units: 2 tank, from: Finland, to: Karelia S.S.R.}\n")
    assert "Germany has 0 tanks in Finland, not 2" in problems[0].message
    from pbem.engine.words import count_of, plural, possessive

    assert (count_of(1, "fighter"), plural("industrial complex"), plural("infantry")) == ("1 fighter", "industrial complexes", "infantry")
    assert (possessive("Germany"), possessive("United States")) == ("Germany's", "United States'")


def test_a_move_of_two_kinds_is_made_whole_or_not_at_all() -> None:
    """A move naming infantry and a fighter: when the fighter may not go (air units cannot land in
    a territory captured this turn), the infantry must not have gone either (issue 21)."""
    from pbem.dice import FixedDice
    from pbem.engine.turn import Turn
    from tests.engine.scenario import _system, orders

    st = state(turn="Germany", clear=("Karelia S.S.R.", "Finland"), units={"Finland": {"Germany": {"infantry": 3, "fighter": 1}}})
    system, rules, combat = _system("1942-2e")
    _, parsed = orders("Germany", "combat_move:\n  - {units: 1 infantry, from: Finland, to: Karelia S.S.R.}\n"
                       "noncombat_move:\n  - {units: 1 infantry, from: Finland, to: Karelia S.S.R.}\n")
    turn = Turn(system, rules, combat, st, parsed, {}, system.option_defaults(), FixedDice({}))
    turn.moves(parsed.combat_moves)
    turn.capture("Karelia S.S.R.", "Germany")
    from dataclasses import replace

    both = replace(parsed.noncombat_moves[0], units={"infantry": 1, "fighter": 1})
    problems = turn.mover.apply(both)
    assert problems and all(p.code != "move.no-units" for p in problems)
    w = turn.w
    assert sorted(u.type for u in w.units_at("Finland") if u.owner == "Germany") == ["fighter", "infantry", "infantry"]
    assert [u.type for u in w.units_at("Karelia S.S.R.") if u.owner == "Germany"] == ["infantry"]


def test_a_move_of_missing_units_says_where_they_are() -> None:
    """Units must exist where the order names them: the hint counts those there, or names where
    the power's units of that type stand, in plain English ("2 tanks", "Germany's tanks")."""
    st = state(turn="Soviet Union")
    problems = validate(st, "Soviet Union", "combat_move:\n  - {units: 1 tank, from: Karelia S.S.R., to: Finland}\n")
    assert codes(problems)[0] == "move.no-units"
    assert (problems[0].hint or "").startswith("Soviet Union's tanks stand in ")
    problems = validate(st, "Soviet Union", "combat_move:\n  - {units: 9 infantry, from: Karelia S.S.R., to: Finland}\n")
    assert codes(problems)[0] == "move.no-units"
    assert (problems[0].hint or "").endswith("infantry of Soviet Union stand in Karelia S.S.R.")


def test_each_attacking_fighter_needs_a_landing_of_its_own() -> None:
    """Phase 2: Combat Move, Air Units: "you must be able to demonstrate some possible way ... for
    all your attacking air units to land safely that turn": three fighters at the end of their range
    cannot all count on the two places of one carrier."""
    st = state(turn="United Kingdom", clear=("SZ 11", "SZ 12"),
               units={"SZ 11": {"Germany": {"submarine": 1}}, "SZ 12": {"United Kingdom": {"aircraft carrier": 1}},
                      "United Kingdom": {"United Kingdom": {"fighter": 3, "infantry": 2}}})

    def attack(fighters: int) -> str:
        return ("combat_move:\n  - {units: 1 aircraft carrier, from: SZ 12, to: SZ 11}\n"
                f"  - {{units: {fighters} fighter, from: United Kingdom, to: SZ 11, via: [SZ 8, SZ 9, SZ 12]}}\n")

    assert validate(st, "United Kingdom", attack(2)) == []
    assert codes(validate(st, "United Kingdom", attack(3))) == ["air.no-landing"]
