"""Revised National Advantages that change battles, checked with fixed dice (Appendix 3)."""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.engine.combat import Battle, Force, fight
from pbem.io.rulesets import load_ruleset_dir
from pbem.rulesets.revised.advantages import battle_advantages, movement_profiles, u_boat_interdiction
from pbem.rulesets.revised.combat_rules import COMBAT_RULES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engine" / "combat"))
from combat_helpers import Fixed, L  # noqa: E402

RS = load_ruleset_dir(Path(__file__).resolve().parents[3] / "pbem" / "rulesets" / "revised")
UNITS = RS.units


def adv(options, **kw):
    base = dict(kind="land", attacker="United Kingdom", defenders=frozenset({"Germany"}), attacking_units={"tank": 1},
                original_owner="Germany", controller="Germany", island=False)
    base.update(kw)
    return battle_advantages({o: True for o in options}, UNITS, **base)


def test_fortress_europe_artillery_defends_on_three_in_gray_territories_only():
    a = adv({"fortress_europe"})
    assert a.profiles["Germany"]["artillery"].defense == 3
    battle = Battle("Western Europe", "land", "United Kingdom", (Force("tank", "United Kingdom", 1),),
                    (Force("artillery", "Germany", 1),), UNITS, COMBAT_RULES, profiles=a.profiles)
    assert fight(battle, Fixed({L("Western Europe", 1, "attacker"): [6], L("Western Europe", 1, "defender"): [3]})).winner == "defender"
    assert adv({"fortress_europe"}, original_owner="Soviet Union").profiles == {}
    assert adv(set()).profiles == {}


def test_russian_winter_dug_in_defenders_banzai():
    assert adv({"russian_winter"}, defenders=frozenset({"Soviet Union"}), russian_winter=True).profiles["Soviet Union"]["infantry"].defense == 3
    assert adv({"russian_winter"}, defenders=frozenset({"Soviet Union"})).profiles == {}
    assert adv({"dug_in_defenders"}, defenders=frozenset({"Japan"}), island=True).profiles["Japan"]["infantry"].defense == 3
    assert adv({"dug_in_defenders"}, defenders=frozenset({"Japan"}), island=False).profiles == {}
    banzai = adv({"banzai_attacks"}, attacker="Japan", attacking_units={"infantry": 3})
    assert banzai.profiles["Japan"]["infantry"].attack == 2
    # FAQ: "the air units prevent you from using the Banzai Attacks advantage"
    assert adv({"banzai_attacks"}, attacker="Japan", attacking_units={"infantry": 3, "fighter": 1}).profiles == {}


def test_wolf_packs_radar_superfortresses():
    wolves = adv({"wolf_packs"}, kind="sea", attacker="Germany", attacking_subs_moved_in=3)
    assert wolves.profiles["Germany"]["submarine"].attack == 3
    assert adv({"wolf_packs"}, kind="sea", attacker="Germany", attacking_subs_moved_in=3,
               super_submarines=frozenset({"Germany"})).profiles["Germany"]["submarine"].attack == 4
    assert adv({"wolf_packs"}, kind="sea", attacker="Germany", attacking_subs_moved_in=2).profiles == {}
    radar = adv({"radar"}, attacker="Germany", defenders=frozenset({"United Kingdom"}),
                original_owner="United Kingdom", controller="United Kingdom")
    assert radar.aa_hit == 2
    assert adv({"superfortresses"}, attacker="United States").aa_immune == {"bomber"}


def test_mechanized_infantry_fast_carriers_u_boat_interdiction():
    moves = movement_profiles({"mechanized_infantry": True, "fast_carriers": True}, UNITS, "United States")
    assert moves["infantry"].move == 2 and moves["infantry"].has("blitz") and moves["aircraft carrier"].move == 3
    assert movement_profiles({"fast_carriers": True}, UNITS, "Japan") == {}
    assert u_boat_interdiction({"u_boat_interdiction": True}, "United Kingdom", 4) == 4
    assert u_boat_interdiction({"u_boat_interdiction": True}, "Soviet Union", 4) == 0


# --- Advantages that give free units, in a played turn (Rules.hooks.free_units) -----------------------

from dataclasses import replace  # noqa: E402

from tests.engine.scenario import codes, play, state, units_at, validate  # noqa: E402

R = "revised"


def test_chinese_divisions_one_free_infantry_each_mobilize_phase():
    """Chinese Divisions: "During your mobilize new units phase, you may place one of your infantry
    for free in one of the following territories if you control it: China, Sinkiang, Kwangtung, or
    French Indochina" (FAQ: "one infantry in one such territory every round")."""
    st = state(turn="United States", ruleset=R)
    china = units_at(st, "China", "United States").get("infantry", 0)
    on = {"chinese_divisions": True}
    assert units_at(play(st, "United States", "").state, "China", "United States").get("infantry", 0) == china
    default = play(st, "United States", "", options=on)
    assert units_at(default.state, "China", "United States")["infantry"] == china + 1
    body = "place:\n  Sinkiang: 1 infantry\n"
    assert validate(st, "United States", body, options=on) == []
    chosen = play(st, "United States", body, options=on)
    assert units_at(chosen.state, "Sinkiang", "United States").get("infantry", 0) == units_at(st, "Sinkiang", "United States").get("infantry", 0) + 1
    assert units_at(chosen.state, "China", "United States")["infantry"] == china
    # Not while none of the four is U.S.-controlled.
    lost = state(turn="United States", ruleset=R, control={"China": "Japan", "Sinkiang": "Japan"})
    assert play(lost, "United States", "", options=on).log.notes == play(lost, "United States", "").log.notes


def test_french_resistance_once_per_game_when_the_allies_take_western_europe():
    """French Resistance: "Once per game, if Western Europe becomes controlled by the Allies, you may
    place three of your infantry there for free" (the once-marker is kept in the game state)."""
    st = state(turn="United States", ruleset=R, clear=("Western Europe", "Southern Europe"),
               units={"Southern Europe": {"United States": {"tank": 1}}}, control={"Southern Europe": "United States"})
    body = "combat_move:\n  - {units: 1 tank, from: Southern Europe, to: Western Europe}\n"
    on = {"french_resistance": True}
    taken = play(st, "United States", body, options=on)
    assert taken.state.control["Western Europe"] == "United States"
    assert units_at(taken.state, "Western Europe", "United Kingdom") == {"infantry": 3}
    assert taken.state.pending["once"] == ["french_resistance"]
    again = play(replace(st, pending={"once": ["french_resistance"]}), "United States", body, options=on)
    assert units_at(again.state, "Western Europe", "United Kingdom") == {}
    assert units_at(play(st, "United States", body).state, "Western Europe", "United Kingdom") == {}


def test_salvage_a_free_tank_after_beating_attacking_tanks_in_a_red_territory():
    """Salvage: "If you win a combat against attacking tanks in a red territory and at least one
    attacking tank is destroyed, you may place one free tank in that territory.\""""
    st = state(turn="Germany", ruleset=R, clear=("Caucasus", "Ukraine S.S.R."),
               units={"Caucasus": {"Soviet Union": {"infantry": 2}}, "Ukraine S.S.R.": {"Germany": {"tank": 1}}})
    body = "combat_move:\n  - {units: 1 tank, from: Ukraine S.S.R., to: Caucasus}\n"
    dice = {"battle/Caucasus/round-1/attacker": [6], "battle/Caucasus/round-1/defender": [1, 6]}
    won = play(st, "Germany", body, dice=dice, options={"salvage": True})
    assert units_at(won.state, "Caucasus", "Soviet Union") == {"infantry": 2, "tank": 1}
    assert units_at(play(st, "Germany", body, dice=dice).state, "Caucasus", "Soviet Union") == {"infantry": 2}
    assert "Salvage: 1 tank of Soviet Union placed free in Caucasus" in won.log.notes


def test_nonaggression_treaty_four_infantry_at_the_first_japanese_attack_on_a_red_territory():
    """Nonaggression Treaty: "The first time in the game that Japanese forces attack any red
    territory, you may place four of your infantry for free in that territory before resolving
    combat. If you attack Japan before it attacks you, you lose this advantage.\""""
    st = state(turn="Japan", ruleset=R, clear=("Buryatia S.S.R.", "Manchuria"),
               units={"Buryatia S.S.R.": {"Soviet Union": {"infantry": 1}}, "Manchuria": {"Japan": {"infantry": 1}}})
    body = "combat_move:\n  - {units: 1 infantry, from: Manchuria, to: Buryatia S.S.R.}\n"
    dice = {"battle/Buryatia S.S.R./round-1/attacker": [6], "battle/Buryatia S.S.R./round-1/defender": [1, 6, 6, 6, 6]}
    on = {"nonaggression_treaty": True}
    first = play(st, "Japan", body, dice=dice, options=on)
    assert units_at(first.state, "Buryatia S.S.R.", "Soviet Union") == {"infantry": 5}
    assert first.state.pending["once"] == ["nonaggression_treaty"]
    later = play(replace(st, pending=first.state.pending), "Japan", body, dice={"battle/Buryatia S.S.R./round-1/attacker": [6],
                                                                               "battle/Buryatia S.S.R./round-1/defender": [1]}, options=on)
    assert units_at(later.state, "Buryatia S.S.R.", "Soviet Union") == {"infantry": 1}
    # The Soviet Union attacking Japanese units on land first uses the treaty up.
    soviet = state(turn="Soviet Union", ruleset=R, clear=("Buryatia S.S.R.", "Manchuria"),
                   units={"Buryatia S.S.R.": {"Soviet Union": {"infantry": 1}}, "Manchuria": {"Japan": {"infantry": 1}}})
    broken = play(soviet, "Soviet Union", "combat_move:\n  - {units: 1 infantry, from: Buryatia S.S.R., to: Manchuria}\n",
                  dice={"battle/Manchuria/round-1/attacker": [6], "battle/Manchuria/round-1/defender": [1]}, options=on)
    assert broken.state.pending["once"] == ["nonaggression_treaty"]


def test_nonaggression_treaty_faq_sea_battles_and_non_red_territories_leave_it_in_force():
    """FAQ, USSR: the Soviet Union breaks the treaty attacking any Japanese unit, "The only exception
    is an attack against Japanese naval units. The combat must take place in a land territory";
    Japan "could attack USSR troops in non-red territories without breaking the treaty"."""
    on = {"nonaggression_treaty": True}
    at_sea = state(turn="Soviet Union", ruleset=R, clear=("SZ 62", "SZ 63"),
                   units={"SZ 63": {"Soviet Union": {"submarine": 1}}, "SZ 62": {"Japan": {"transport": 1}}})
    sank = play(at_sea, "Soviet Union", "combat_move:\n  - {units: 1 submarine, from: SZ 63, to: SZ 62}\n",
                dice={"battle/SZ 62/round-1/surprise-attacker": [1]}, options=on)
    assert units_at(sank.state, "SZ 62", "Japan") == {} and "nonaggression_treaty" not in (sank.state.pending.get("once") or [])
    in_china = state(turn="Japan", ruleset=R, clear=("China", "Manchuria"), control={"China": "Soviet Union"},
                     units={"China": {"Soviet Union": {"infantry": 1}}, "Manchuria": {"Japan": {"infantry": 2}}})
    won = play(in_china, "Japan", "combat_move:\n  - {units: 2 infantry, from: Manchuria, to: China}\n",
               dice={"battle/China/round-1/attacker": [1, 6], "battle/China/round-1/defender": [6]}, options=on)
    assert units_at(won.state, "China", "Soviet Union") == {} and "nonaggression_treaty" not in (won.state.pending.get("once") or [])


# --- Advantages that lend movement (Rules.hooks.movement_bonus) ----------------------------------------


def test_trans_siberian_railway_moves_two_only_along_the_railway_in_noncombat():
    """Trans-Siberian Railway: "Your infantry, antiaircraft guns, and artillery may move 2 territories
    per turn only among these territories: Russia, Novosibirsk, Yakut S.S.R., and Buryatia S.S.R."
    FAQ: only in the Noncombat Move phase, beginning and ending on those spaces, never leaving them."""
    st = state(turn="Soviet Union", ruleset=R)
    on = {"trans_siberian_railway": True}
    body = "noncombat_move:\n  - {units: 1 infantry, from: Russia, to: Yakut S.S.R.}\n"
    assert codes(validate(st, "Soviet Union", body)) == ["move.too-far"]
    assert validate(st, "Soviet Union", body, options=on) == []
    result = play(st, "Soviet Union", body, options=on)
    assert units_at(result.state, "Yakut S.S.R.", "Soviet Union")["infantry"] == units_at(st, "Yakut S.S.R.", "Soviet Union").get("infantry", 0) + 1
    off_rail = "noncombat_move:\n  - {units: 1 infantry, from: Russia, to: Yakut S.S.R., via: [Evenki National Okrug]}\n"
    assert codes(validate(st, "Soviet Union", off_rail, options=on)) == ["move.too-far"]
    leaving = "noncombat_move:\n  - {units: 1 artillery, from: Russia, to: Sinkiang, via: [Novosibirsk]}\n"
    assert "move.too-far" in codes(validate(st, "Soviet Union", leaving, options=on))


def test_mideast_oil_air_units_landing_there_move_again():
    """Mideast Oil: "If an air unit you own lands in Anglo-Egypt, Trans-Jordan, or Persia during your
    noncombat move phase, it may then move an additional number of spaces equal to its normal
    movement.\""""
    st = state(turn="United Kingdom", ruleset=R)
    body = ("noncombat_move:\n  - {units: 1 fighter, from: Anglo-Egypt, to: Trans-Jordan}\n"
            "  - {units: 1 fighter, from: Trans-Jordan, to: Union of South Africa}\n")
    assert codes(validate(st, "United Kingdom", body)) == ["move.too-far"]
    assert validate(st, "United Kingdom", body, options={"mideast_oil": True}) == []
    result = play(st, "United Kingdom", body, options={"mideast_oil": True})
    assert units_at(result.state, "Union of South Africa", "United Kingdom").get("fighter") == 1
    # Only after landing there in noncombat: a fighter starting in Trans-Jordan gets no bonus.
    moved = replace(st, units={**st.units, "Trans-Jordan": {"United Kingdom": {"fighter": 1}}})
    far = "noncombat_move:\n  - {units: 1 fighter, from: Trans-Jordan, to: Australia}\n"
    assert codes(validate(moved, "United Kingdom", far, options={"mideast_oil": True})) == ["move.too-far"]


def test_panzerblitz_tanks_move_one_after_a_one_round_win():
    """Panzerblitz: "If your attacking forces destroy all defending units in a territory in one cycle
    of combat, any of your surviving tanks in the attacking forces may move 1 territory during the
    noncombat move phase" (FAQ: normal noncombat movement rules still apply)."""
    st = state(turn="Germany", ruleset=R, clear=("Caucasus", "Ukraine S.S.R."),
               units={"Caucasus": {"Soviet Union": {"infantry": 1}}, "Ukraine S.S.R.": {"Germany": {"tank": 2}}})
    body = ("combat_move:\n  - {units: 2 tank, from: Ukraine S.S.R., to: Caucasus}\n"
            "noncombat_move:\n  - {units: 1 tank, from: Caucasus, to: Ukraine S.S.R.}\n")
    on = {"panzerblitz": True}
    assert "move.already-moved" in codes(validate(st, "Germany", body))
    assert validate(st, "Germany", body, options=on) == []
    one_round = {"battle/Caucasus/round-1/attacker": [1, 6], "battle/Caucasus/round-1/defender": [6]}
    result = play(st, "Germany", body, dice=one_round, options=on)
    assert units_at(result.state, "Ukraine S.S.R.", "Germany") == {"tank": 1}
    assert units_at(result.state, "Caucasus", "Germany").get("tank") == 1
    # Two cycles of combat: the tanks stay.
    two_rounds = {"battle/Caucasus/round-1/attacker": [6, 6], "battle/Caucasus/round-1/defender": [6],
                  "battle/Caucasus/round-2/attacker": [1, 6], "battle/Caucasus/round-2/defender": [6]}
    slow = play(st, "Germany", body, dice=two_rounds, options=on)
    assert units_at(slow.state, "Caucasus", "Germany") == {"tank": 2} and slow.log.skipped
    # FAQ: "Normal noncombat movement rules still apply": the extra move enters no enemy territory,
    # not even an empty one.
    onward = ("combat_move:\n  - {units: 2 tank, from: Ukraine S.S.R., to: Caucasus}\n"
              "noncombat_move:\n  - {units: 1 tank, from: Caucasus, to: Kazakh S.S.R.}\n")
    assert "move.noncombat-hostile" in codes(validate(replace(st, control={**st.control, "Kazakh S.S.R.": "Soviet Union"}), "Germany", onward, options=on))


# --- Declarations (Rules.hooks.declarations) -----------------------------------------------------------


def test_russian_winter_declared_once_in_collect_income_lasts_until_the_next_soviet_turn():
    """Russian Winter: "Once during the game in your collect income phase, you can declare a severe
    winter. Until the start of your next turn, your infantry defend on a 3.\""""
    on = {"russian_winter": True}
    soviet = state(turn="Soviet Union", ruleset=R)
    body = "declare: [russian_winter]\n"
    assert codes(validate(soviet, "Soviet Union", body)) == ["declare.unknown"]
    assert validate(soviet, "Soviet Union", body, options=on) == []
    declared = play(soviet, "Soviet Union", body, options=on)
    assert declared.state.pending == {"declared": {"russian_winter": "Soviet Union"}, "once": ["russian_winter"]}
    # Germany's turn: a Soviet infantry defends on 3 (a 3 hits).
    german = replace(declared.state, units=state(ruleset=R, clear=("Caucasus", "Ukraine S.S.R."), units={
        "Caucasus": {"Soviet Union": {"infantry": 1}}, "Ukraine S.S.R.": {"Germany": {"tank": 1}}}).units)
    attack = "combat_move:\n  - {units: 1 tank, from: Ukraine S.S.R., to: Caucasus}\n"
    dice = {"battle/Caucasus/round-1/attacker": [6], "battle/Caucasus/round-1/defender": [3]}
    cold = play(german, "Germany", attack, dice=dice, options=on)
    assert units_at(cold.state, "Caucasus", "Germany") == {} and cold.state.pending["declared"] == {"russian_winter": "Soviet Union"}
    mild = {**dice, "battle/Caucasus/round-2/attacker": [1], "battle/Caucasus/round-2/defender": [6]}
    warm = play(replace(german, pending={"once": ["russian_winter"]}), "Germany", attack, dice=mild, options=on)
    assert units_at(warm.state, "Caucasus", "Germany") == {"tank": 1}
    # The next Soviet turn ends it, and it cannot be declared again.
    again = replace(declared.state, turn_index=0, round=2)
    assert codes(validate(again, "Soviet Union", body, options=on)) == ["declare.used"]
    assert play(again, "Soviet Union", "", options=on).state.pending == {"once": ["russian_winter"]}


# --- Units that carry by an option (Rules.hooks.extra_cargo) -------------------------------------------


def test_tokyo_express_a_japanese_destroyer_carries_one_infantry_as_a_transport_does():
    """Tokyo Express: "Each of your destroyers may act as a transport for one infantry. These
    destroyers follow the same rules for loading and offloading units as transports do.\""""
    on = {"tokyo_express": True}
    st = state(turn="Japan", ruleset=R, clear=("SZ 61",), units={"SZ 61": {"Japan": {"destroyer": 1}}})
    body = ("noncombat_move:\n  - {units: 1 infantry, from: Japan, to: SZ 61}\n"
            "  - {units: 1 infantry, from: SZ 61, to: Manchuria}\n")
    assert codes(validate(st, "Japan", body))[0] == "move.load-capacity"
    assert validate(st, "Japan", body, options=on) == []
    result = play(st, "Japan", body, options=on)
    assert units_at(result.state, "Manchuria", "Japan")["infantry"] == units_at(st, "Manchuria", "Japan")["infantry"] + 1
    # One infantry only: not two, not a tank; and not for another power's destroyers.
    two = "noncombat_move:\n  - {units: 2 infantry, from: Japan, to: SZ 61}\n"
    assert codes(validate(st, "Japan", two, options=on)) == ["move.load-capacity"]
    tank = state(turn="Japan", ruleset=R, clear=("SZ 61", "Japan"), units={"SZ 61": {"Japan": {"destroyer": 1}}, "Japan": {"Japan": {"tank": 1}}})
    assert codes(validate(tank, "Japan", "noncombat_move:\n  - {units: 1 tank, from: Japan, to: SZ 61}\n", options=on)) == ["move.load-capacity"]
    # An infantry at sea in the state file rides the destroyer; the destroyer carries it when it moves.
    aboard = state(turn="Japan", ruleset=R, clear=("SZ 61", "SZ 59"), units={"SZ 61": {"Japan": {"destroyer": 1, "infantry": 1}}})
    sail = ("noncombat_move:\n  - {units: 1 destroyer, from: SZ 61, to: SZ 59}\n"
            "  - {units: 1 infantry, from: SZ 59, to: Kwangtung}\n")
    assert validate(aboard, "Japan", sail, options=on) == []
    assert units_at(play(aboard, "Japan", sail, options=on).state, "Kwangtung", "Japan")["infantry"] == units_at(aboard, "Kwangtung", "Japan").get("infantry", 0) + 1


def test_luftwaffe_dive_bombers_german_fighters_may_be_ordered_on_a_raid():
    """Luftwaffe Dive-Bombers: "Your fighters may conduct strategic bombing raids, following the same
    rules as bombers" (the halved dice of the raid are the combat code's)."""
    st = state(turn="Germany", ruleset=R)
    body = "combat_move:\n  - {units: 1 fighter, from: Western Europe, to: United Kingdom, mission: strategic_bombing}\n"
    assert codes(validate(st, "Germany", body)) == ["raid.not-bomber"]
    # The move is accepted; the raid itself (fighters as raiders, halved dice) is resolved in
    # pbem.engine.battles._raid, which reads Rules.hooks.may_bomb.
    assert "raid.not-bomber" not in codes(validate(st, "Germany", body, options={"luftwaffe_dive_bombers": True}))
    uk = state(turn="United Kingdom", ruleset=R)
    raid = "combat_move:\n  - {units: 1 fighter, from: United Kingdom, to: Western Europe, mission: strategic_bombing}\n"
    assert codes(validate(uk, "United Kingdom", raid, options={"luftwaffe_dive_bombers": True})) == ["raid.not-bomber"]


def test_island_bases_us_air_units_treat_held_islands_as_their_sea_zones():
    """Island Bases: "When moving your air units, you may treat island groups as part of the sea
    zones containing them. For example, a fighter (move 4) could travel from Hawaii to the East
    Indies in one turn, assuming your side controlled both island groups.\""""
    on = {"island_bases": True}
    st = state(turn="United States", ruleset=R, clear=("East Indies",), control={"East Indies": "United States"})
    body = "noncombat_move:\n  - {units: 1 fighter, from: Hawaiian Islands, to: East Indies}\n"
    assert codes(validate(st, "United States", body)) == ["move.too-far"]
    assert validate(st, "United States", body, options=on) == []
    assert units_at(play(st, "United States", body, options=on).state, "East Indies", "United States") == {"fighter": 1}
    # Only island groups the Allies control, and only for U.S. air units.
    from pbem.rulesets.revised.advantages import free_air_steps

    steps = free_air_steps(on, "United States", RS.board, state(ruleset=R).control)
    assert ("Hawaiian Islands", "SZ 52") in steps and ("SZ 52", "Hawaiian Islands") in steps
    assert ("Wake Island", "SZ 51") not in steps and ("Japan", "SZ 60") not in steps
    assert free_air_steps(on, "United Kingdom", RS.board, state(ruleset=R).control) == frozenset()


# --- Setup choices (Rules.hooks.setup_changes) ---------------------------------------------------------


def test_colonial_garrison_an_extra_british_complex_in_the_tan_territory_the_option_names():
    """Colonial Garrison: "You begin the game with one additional industrial complex in any tan
    territory with an income value of at least 1. (You still can't have more than one industrial
    complex in a territory.)\""""
    import pytest

    from pbem.engine.problems import ProblemsError
    from pbem.io.state import initial_state
    from pbem.rulesets.revised.rules import RULES

    plain = initial_state(RS)
    assert initial_state(RS, {"colonial_garrison": False}, RULES) == plain
    garrisoned = initial_state(RS, {"colonial_garrison": "anglo-egypt"}, RULES)
    assert garrisoned.units["Anglo-Egypt"]["United Kingdom"]["industrial complex"] == 1
    assert {s: u for s, u in garrisoned.units.items() if s != "Anglo-Egypt"} == {s: u for s, u in plain.units.items() if s != "Anglo-Egypt"}
    for bad in (True, "Germany", "United Kingdom", "Gibraltar", "Nowhere"):
        with pytest.raises(ProblemsError):
            initial_state(RS, {"colonial_garrison": bad}, RULES)


def test_mobile_industry_soviet_complexes_move_one_territory_in_noncombat():
    """Mobile Industry: "Your industrial complexes each may move 1 territory during your noncombat
    move phase. They cannot move during the combat move phase." FAQ: units may be mobilized there
    "if the Soviets owned the industrial complex at the start of the turn and also owned the
    territory that the IC moved into"."""
    on = {"mobile_industry": True}
    st = state(turn="Soviet Union", ruleset=R)
    body = "noncombat_move:\n  - {units: 1 industrial complex, from: Caucasus, to: Kazakh S.S.R.}\npurchase: 1 infantry\nplace:\n  Kazakh S.S.R.: 1 infantry\n"
    assert "move.structure" in codes(validate(st, "Soviet Union", body))
    assert validate(st, "Soviet Union", body, options=on) == []
    moved = play(st, "Soviet Union", body, options=on)
    assert units_at(moved.state, "Kazakh S.S.R.", "Soviet Union").get("industrial complex") == 1
    assert units_at(moved.state, "Kazakh S.S.R.", "Soviet Union").get("infantry") == units_at(st, "Kazakh S.S.R.", "Soviet Union").get("infantry", 0) + 1
    assert "industrial complex" not in units_at(moved.state, "Caucasus", "Soviet Union")
    combat = "combat_move:\n  - {units: 1 industrial complex, from: Caucasus, to: Kazakh S.S.R.}\n"
    assert codes(validate(st, "Soviet Union", combat, options=on)) == ["move.structure-combat"]
    far = "noncombat_move:\n  - {units: 1 industrial complex, from: Caucasus, to: Novosibirsk}\n"
    assert "move.too-far" in codes(validate(st, "Soviet Union", far, options=on))
    crowded = "noncombat_move:\n  - {units: 1 industrial complex, from: Caucasus, to: Russia}\n"
    assert codes(validate(st, "Soviet Union", crowded, options=on)) == ["move.structure-twice"]


def test_lend_lease_friendly_units_in_red_territories_become_soviet_in_the_purchase_phase():
    """Lend-Lease: "During your purchase units phase, you can convert units belonging to a friendly
    power into your units if they begin in or move into red territories. Remove the affected units
    from play and replace them with the same units of your own color.\""""
    on = {"lend_lease": True}
    st = state(turn="Soviet Union", ruleset=R, units={
        "Russia": {**state(ruleset=R).units["Russia"], "United Kingdom": {"fighter": 1}, "United States": {"tank": 1}},
        "Persia": {"United Kingdom": {"infantry": 1}}})
    body = ("convert:\n  - {units: 1 fighter, in: Russia}\n  - {units: 1 tank, in: Russia, owner: United States}\n"
            "noncombat_move:\n  - {units: 1 tank, from: Russia, to: Caucasus}\n")
    assert "convert.illegal" in codes(validate(st, "Soviet Union", body))
    assert validate(st, "Soviet Union", body, options=on) == []
    result = play(st, "Soviet Union", body, options=on)
    russia = units_at(result.state, "Russia", "Soviet Union")
    assert russia.get("fighter", 0) == units_at(st, "Russia", "Soviet Union").get("fighter", 0) + 1
    assert units_at(result.state, "Russia", "United Kingdom") == {} and units_at(result.state, "Russia", "United States") == {}
    assert units_at(result.state, "Caucasus", "Soviet Union")["tank"] == units_at(st, "Caucasus", "Soviet Union").get("tank", 0) + 1
    # Only in red territories, and no more than are there.
    persia = "convert:\n  - {units: 1 infantry, in: Persia}\n"
    assert codes(validate(st, "Soviet Union", persia, options=on)) == ["convert.illegal"]
    two = "convert:\n  - {units: 2 fighter, in: Russia}\n"
    assert codes(validate(st, "Soviet Union", two, options=on)) == ["convert.illegal"]


def test_lightning_assaults_a_japanese_transport_splits_its_landings_between_two_assaults():
    """Lightning Assaults: "Your transports may make more than one amphibious assault per turn: They
    may move, attack a coastal territory, then move again and attack a second coastal territory. ...
    it still cannot load or offload more than one land unit plus one infantry in the turn" (FAQ:
    "Load up 2 infantry ... in Sea Zone A. Move one space to Sea Zone B, and drop off one of those
    infantry on an enemy territory. Then, move your transport again to Sea Zone C, and drop off the
    other infantry in a different enemy territory")."""
    on = {"lightning_assaults": True}
    st = state(turn="Japan", ruleset=R, clear=("Buryatia S.S.R.", "Soviet Far East"))
    body = ("combat_move:\n  - {units: 2 infantry, from: Japan, to: SZ 60}\n"
            "  - {units: 1 infantry, from: SZ 60, to: Buryatia S.S.R.}\n"
            "  - {units: 1 transport, from: SZ 60, to: SZ 62}\n"
            "  - {units: 1 infantry, from: SZ 62, to: Soviet Far East}\n")
    assert "move.transport-offloaded" in codes(validate(st, "Japan", body))
    assert validate(st, "Japan", body, options=on) == []
    result = play(st, "Japan", body, options=on)
    assert result.state.control["Buryatia S.S.R."] == "Japan" and result.state.control["Soviet Far East"] == "Japan"
    # The capacity counts what it offloaded: after two infantry, no third.
    third = ("combat_move:\n  - {units: 2 infantry, from: Japan, to: SZ 60}\n"
             "  - {units: 1 infantry, from: SZ 60, to: Buryatia S.S.R.}\n"
             "  - {units: 1 infantry, from: Japan, to: SZ 60}\n")
    assert "move.load-capacity" in codes(validate(st, "Japan", third, options=on))
    # Only Japan's transports, and two assaults at most.
    from pbem.rulesets.revised.advantages import assaults_per_turn

    assert assaults_per_turn(on, "Japan", UNITS["transport"]) == 2
    assert assaults_per_turn(on, "United Kingdom", UNITS["transport"]) == 1


def test_the_revised_rules_apply_the_combat_advantages_in_a_played_turn():
    """Marines: "Your infantry attacks on a 2 in the first cycle of the land combat portion of an
    amphibious assault" acts with
    Revised's own RULES (battle_modifiers is advantages_combat.battle_advantages_with_combat)."""
    st = state(turn="United States", ruleset=R, clear=("SZ 7", "Western Europe"),
               units={"SZ 7": {"United States": {"transport": 1, "infantry": 2}}, "Western Europe": {"Germany": {"infantry": 1}}})
    body = "combat_move:\n  - {units: 2 infantry, from: SZ 7, to: Western Europe}\n"
    dice = {"battle/Western Europe/round-1/attacker": [2, 6], "battle/Western Europe/round-1/defender": [6]}
    result = play(st, "United States", body, dice=dice, options={"marines": True})
    assert result.log.battles[0]["outcome"].winner == "attacker"
    assert units_at(result.state, "Western Europe", "United States") == {"infantry": 2}


def test_kamikaze_mission_needs_no_landing_and_only_attacks_ships():
    """Kamikaze Attacks: "Your air units may make a combat move without having to land in a friendly
    space afterward. You must declare during the combat move phase that an air unit is making a
    kamikaze attack" (orders: mission: kamikaze)."""
    on = {"kamikaze_attacks": True}
    st = state(turn="Japan", ruleset=R, clear=("SZ 61",), units={"SZ 61": {"United States": {"destroyer": 1}}})
    body = "combat_move:\n  - {units: 1 fighter, from: Japan, to: SZ 61, mission: kamikaze}\n"
    assert codes(validate(st, "Japan", body)) == ["move.mission"]
    assert validate(st, "Japan", body, options=on) == []
    result = play(st, "Japan", body, dice={"battle/SZ 61/round-1/sacrifice-attacker": [3]}, options=on)
    assert result.log.battles[0]["outcome"].sacrificed == {"Japan": {"fighter": 1}}
    # Its hit sinks the destroyer even though nothing of the attacker is left to go on fighting.
    assert units_at(result.state, "SZ 61", "United States") == {}
    assert units_at(result.state, "SZ 61", "Japan") == {} and not result.log.lost_air
    assert units_at(result.state, "Japan", "Japan").get("fighter", 0) == units_at(st, "Japan", "Japan")["fighter"] - 1
    on_land = "combat_move:\n  - {units: 1 fighter, from: Manchuria, to: Buryatia S.S.R., mission: kamikaze}\n"
    assert codes(validate(st, "Japan", on_land, options=on)) == ["move.mission-target"]


def test_kaiten_is_a_standing_order():
    """Kaiten Torpedoes: "you may designate it as a kaiten torpedo" - in the standing orders
    (`kaiten: N` submarines, per territory or sea zone, or by default)."""
    from pbem.io.orders import read_orders_text

    text = "power: Japan\nstanding_orders:\n  default: {kaiten: 1}\n  territories:\n    SZ 61: {kaiten: 2}\n"
    _, standing = read_orders_text(text, "standing.yaml", RS)
    assert standing.default.kaiten == 1 and standing.policy_for("SZ 61").kaiten == 2


# --- Out-of-turn advantages: Enigma Decoded (Rules.hooks.interjections), Joint Strike (Rules.hooks.commands) ---

def _enigma(entries: str):  # type: ignore[no-untyped-def]
    from pbem.io.orders import read_orders_text

    _, standing = read_orders_text("power: United Kingdom\nstanding_orders:\n  enigma:\n" + entries, "standing.yaml", RS)
    return {"United Kingdom": standing}


def _karelia(**units: dict[str, dict[str, int]]):  # type: ignore[no-untyped-def]
    spaces = {"Karelia S.S.R.": {}, "Archangel": {}, "Eastern Europe": {"Germany": {"tank": 1}}, **units}
    return state(ruleset=R, clear=tuple(spaces), units={s: u for s, u in spaces.items() if u})


GERMAN_ATTACK = "combat_move:\n  - {units: 1 tank, from: Eastern Europe, to: Karelia S.S.R.}\n"


def test_enigma_decoded_reinforces_a_space_germany_attacks_once_per_game():
    """Enigma Decoded: "you may move any number of your units from an adjacent space into any one
    friendly space being attacked by Germany" - the U.K.'s standing order, made after Germany's
    combat move; "If your units survive, they remain in the space to which they were moved."""
    on = {"enigma_decoded": True}
    st = _karelia(**{"Karelia S.S.R.": {"Soviet Union": {"infantry": 1}}, "Archangel": {"United Kingdom": {"infantry": 2}}})
    standing = _enigma("    - {when_attacked: West Russia, units: 1 infantry, from: Archangel, to: West Russia}\n"
                       "    - {when_attacked: Karelia S.S.R., units: 2 infantry, from: Archangel, to: Karelia S.S.R.}\n")
    dice = {"battle/Karelia S.S.R./round-1/attacker": [6], "battle/Karelia S.S.R./round-1/defender": [2, 6, 6]}
    done = play(st, "Germany", GERMAN_ATTACK, dice=dice, options=on, standing=standing)
    assert units_at(done.state, "Karelia S.S.R.", "United Kingdom") == {"infantry": 2}
    assert units_at(done.state, "Karelia S.S.R.", "Germany") == {} and units_at(done.state, "Archangel", "United Kingdom") == {}
    assert done.state.pending["once"] == ["enigma_decoded"]
    assert any("Enigma Decoded" in n for n in done.log.notes)
    # Once per game: used, nothing moves (the lone Soviet infantry then defends alone).
    again = play(replace(st, pending={"once": ["enigma_decoded"]}), "Germany", GERMAN_ATTACK,
                 dice={"battle/Karelia S.S.R./round-1/attacker": [1], "battle/Karelia S.S.R./round-1/defender": [6]},
                 options=on, standing=standing)
    assert units_at(again.state, "Archangel", "United Kingdom") == {"infantry": 2}
    assert again.state.control["Karelia S.S.R."] == "Germany"
    # The option off: nothing moves either, and nothing is used.
    off = play(st, "Germany", GERMAN_ATTACK, dice={"battle/Karelia S.S.R./round-1/attacker": [1], "battle/Karelia S.S.R./round-1/defender": [6]},
               standing=standing)
    assert units_at(off.state, "Archangel", "United Kingdom") == {"infantry": 2} and "once" not in off.state.pending


def test_enigma_decoded_evacuates_a_space_germany_attacks_leaving_one_unit_behind():
    """Enigma Decoded: "you may move any number of your units from a space being attacked by Germany
    into an adjacent friendly space, but you must leave at least one unit behind" (FAQ: an ally's
    unit may be the one left behind)."""
    on = {"enigma_decoded": True}
    standing = _enigma("    - {when_attacked: Karelia S.S.R., units: 2 infantry, from: Karelia S.S.R., to: Archangel}\n")
    lose = {"battle/Karelia S.S.R./round-1/attacker": [1], "battle/Karelia S.S.R./round-1/defender": [6]}
    st = _karelia(**{"Karelia S.S.R.": {"Soviet Union": {"infantry": 1}, "United Kingdom": {"infantry": 2}}})
    done = play(st, "Germany", GERMAN_ATTACK, dice=lose, options=on, standing=standing)
    assert units_at(done.state, "Archangel", "United Kingdom") == {"infantry": 2}
    assert units_at(done.state, "Karelia S.S.R.", "Soviet Union") == {} and done.state.control["Karelia S.S.R."] == "Germany"
    assert done.state.pending["once"] == ["enigma_decoded"]
    # Taking every unit out is refused: reported, not made, not used.
    alone = _karelia(**{"Karelia S.S.R.": {"United Kingdom": {"infantry": 2}}})
    dice = {"battle/Karelia S.S.R./round-1/attacker": [6], "battle/Karelia S.S.R./round-1/defender": [2, 6]}
    kept = play(alone, "Germany", GERMAN_ATTACK, dice=dice, options=on, standing=standing)
    assert units_at(kept.state, "Archangel", "United Kingdom") == {} and "once" not in kept.state.pending
    assert any("at least one unit must stay behind" in n for n in kept.log.notes)


def test_joint_strike_uk_skips_combat_and_the_us_fights_with_british_units_once_per_game():
    """Joint Strike: the U.K. declares it and skips its combat move and conduct combat phases; "On
    the U.S.'s turn, the U.S.'s player can move any of your units during his or her combat move
    phase and conduct combat with them, as if they belonged to the U.S.\""""
    on = {"joint_strike": True}
    uk = state(turn="United Kingdom", ruleset=R, clear=("Karelia S.S.R.", "Archangel"), control={"Karelia S.S.R.": "Germany"},
               units={"Karelia S.S.R.": {"Germany": {"infantry": 1}}, "Archangel": {"United Kingdom": {"infantry": 2}}})
    body = "declare: [joint_strike]\n"
    assert codes(validate(uk, "United Kingdom", body)) == ["declare.unknown"]
    attack = "combat_move:\n  - {units: 2 infantry, from: Archangel, to: Karelia S.S.R.}\n"
    assert codes(validate(uk, "United Kingdom", body + attack, options=on)) == ["declare.no-combat"]
    declared = play(uk, "United Kingdom", body, options=on)
    assert declared.state.pending == {"declared": {"joint_strike": "United Kingdom"}, "once": ["joint_strike"]}
    # The U.S. turn: British infantry attack under U.S. orders; without the declaration they cannot.
    us = replace(declared.state, turn_index=4)
    strike = "combat_move:\n  - {units: 2 infantry, from: Archangel, to: Karelia S.S.R., owner: United Kingdom}\n"
    assert codes(validate(replace(us, pending={"once": ["joint_strike"]}), "United States", strike, options=on)) == ["move.owner"]
    assert validate(us, "United States", strike, options=on) == []
    dice = {"battle/Karelia S.S.R./round-1/attacker": [1, 6], "battle/Karelia S.S.R./round-1/defender": [6]}
    won = play(us, "United States", strike, dice=dice, options=on)
    assert units_at(won.state, "Karelia S.S.R.", "United Kingdom") == {"infantry": 2}
    assert units_at(won.state, "Karelia S.S.R.", "Germany") == {} and won.state.control["Karelia S.S.R."] != "Germany"
    # Once per game.
    later = replace(won.state, turn_index=2, round=2)
    assert codes(validate(later, "United Kingdom", body, options=on)) == ["declare.used"]


def test_joint_strike_lands_only_the_british_air_units_that_attacked():
    """Joint Strike: the U.S. moves British units in its combat move; in noncombat move it may only
    land the British air units that attacked, not move one that stayed home (README, Joint Strike)."""
    on = {"joint_strike": True}
    us = state(turn="United States", ruleset=R, clear=("Karelia S.S.R.", "Archangel"), control={"Karelia S.S.R.": "Germany"},
               units={"Karelia S.S.R.": {"Germany": {"infantry": 1}}, "Archangel": {"United Kingdom": {"infantry": 1, "fighter": 2}}})
    us = replace(us, pending={"declared": {"joint_strike": "United Kingdom"}, "once": ["joint_strike"]})
    strike = ("combat_move:\n  - {units: 1 infantry, from: Archangel, to: Karelia S.S.R., owner: United Kingdom}\n"
              "  - {units: 1 fighter, from: Archangel, to: Karelia S.S.R., owner: United Kingdom}\n"
              "noncombat_move:\n  - {units: 1 fighter, from: Karelia S.S.R., to: Archangel, owner: United Kingdom}\n")
    assert validate(us, "United States", strike, options=on) == []
    idle = strike + "  - {units: 1 fighter, from: Archangel, to: Karelia S.S.R., owner: United Kingdom}\n"
    (problem,) = validate(us, "United States", idle, options=on)
    assert problem.code == "move.already-moved" and "only United Kingdom's fighters that attacked" in (problem.hint or "")


def test_nonaggression_treaty_the_soviet_player_chooses_where_the_infantry_go():
    """Nonaggression Treaty, FAQ: "What if the Japanese player attacks two or more red territories on
    the same turn?" - the Soviet player chooses; made in advance in the standing orders
    (choices: {nonaggression_treaty: [...]}), else the first battle fought gets them."""
    from pbem.rulesets.revised.advantages import free_units

    on = {"nonaggression_treaty": True}
    attacked = (("Buryatia S.S.R.", "Soviet Union", "Soviet Union"), ("Soviet Far East", "Soviet Union", "Soviet Union"))

    def grants(space: str, choices: dict) -> list:  # type: ignore[type-arg]
        return [g for g in free_units(on, "attacked", space=space, attacker="Japan", controller="Soviet Union",
                                      defenders=frozenset({"Soviet Union"}), original_owner="Soviet Union",
                                      attacked=attacked, choices=choices) if g.count]

    choice = {"Soviet Union": {"nonaggression_treaty": ("Soviet Far East",)}}
    assert not grants("Buryatia S.S.R.", choice) and grants("Soviet Far East", choice)[0].count == 4
    assert grants("Buryatia S.S.R.", {}) and not grants("Soviet Far East", {})
    # The choice is parsed from the standing orders file.
    from pbem.io.orders import read_orders_text

    text = "power: Soviet Union\nstanding_orders:\n  choices: {nonaggression_treaty: [soviet far east]}\n"
    _, standing = read_orders_text(text, "standing.yaml", RS)
    assert standing.choices == {"nonaggression_treaty": ("Soviet Far East",)}
