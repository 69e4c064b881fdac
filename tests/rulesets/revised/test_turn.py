"""Revised turn rules that differ from 1942 (revised.txt sections in each docstring)."""

from __future__ import annotations

from tests.engine.scenario import codes, play, state, units_at, validate

R = "revised"


def test_antiaircraft_gun_is_captured_with_the_territory() -> None:
    """Antiaircraft Gun profile: "captured ... never destroyed" (Revised); 1942 destroys lone AAA."""
    st = state(turn="Soviet Union", ruleset=R, clear=("West Russia",), units={"West Russia": {"Germany": {"antiaircraft gun": 1}}})
    result = play(st, "Soviet Union", "combat_move:\n  - {units: 1 tank, from: Russia, to: West Russia}\n")
    assert result.state.control["West Russia"] == "Soviet Union"
    assert units_at(result.state, "West Russia", "Soviet Union").get("antiaircraft gun") == 1


def test_liberation_is_decided_when_the_territory_is_taken() -> None:
    """Liberating a Territory: the original controller regains it at once if its capital is free."""
    st = state(turn="United Kingdom", ruleset=R, clear=("Caucasus",), units={"Caucasus": {}}, control={"Caucasus": "Germany"})
    result = play(st, "United Kingdom", "combat_move:\n  - {units: 1 infantry, from: Persia, to: Caucasus}\n")
    assert result.state.control["Caucasus"] == "Soviet Union"
    assert any("liberated" in n for n in result.log.notes)


def test_ally_complex_usable_only_while_the_allys_capital_is_lost() -> None:
    """Mobilize New Units: you cannot place units at an industrial complex owned by a friendly power
    unless its capital is in enemy hands."""
    st = state(turn="United Kingdom", ruleset=R)
    assert "place.ally-complex" in codes(validate(st, "United Kingdom", "purchase: 1 infantry\nplace:\n  Caucasus: 1 infantry\n"))
    lost = state(turn="United Kingdom", ruleset=R, clear=("Russia",), control={"Russia": "Germany"})
    assert validate(lost, "United Kingdom", "purchase: 1 infantry\nplace:\n  Caucasus: 1 infantry\n") == []


def test_bombing_costs_the_victim_ipcs_from_its_treasury() -> None:
    """Strategic Bombing Raid: the defending AA gun fires at each bomber; each surviving bomber rolls
    one die and the victim surrenders that many IPCs (the lesser of the roll and what it has; DIGEST
    §5 REV.1), at most the territory's income value per bomber."""
    from pbem.io.rulesets import load_ruleset

    st = state(turn="Germany", ruleset=R, treasury={"Soviet Union": 10})
    body = ("combat_move:\n  - {units: 1 bomber, from: Germany, to: Caucasus, mission: strategic_bombing}\n"
            "noncombat_move:\n  - {units: 1 bomber, from: Caucasus, to: Germany}\n")
    result = play(st, "Germany", body, dice={"raid/Caucasus/aa": [6], "raid/Caucasus/damage": [6]})
    value = load_ruleset(R).board.spaces["Caucasus"].ipc
    assert result.state.treasury["Soviet Union"] == 10 - min(6, value)
    assert "Caucasus" not in result.state.damage
    shot = play(st, "Germany", body, dice={"raid/Caucasus/aa": [1]})
    assert shot.state.treasury["Soviet Union"] == 10 and units_at(shot.state, "Germany", "Germany").get("bomber") is None


def test_develop_weapons_breakthrough_applies_this_turn() -> None:
    """Phase 1: Develop Weapons: buy research dice at 5 IPCs each for one development; a die showing
    its number is a breakthrough.  Its battles use it at once; orders written before the dice cannot
    count on it (README, "A breakthrough in the turn's own orders"): the six-space flight validates
    once the development is held."""
    from dataclasses import replace

    st = state(turn="Germany", ruleset=R)
    result = play(st, "Germany", "develop: {development: long range aircraft, dice: 2}\n", dice={"research/Germany/round-1": [4, 1]})
    assert result.state.developments == {"Germany": ("long_range_aircraft",)}
    assert result.state.treasury["Germany"] == 40 - 10 + 40
    # the report names the number the dice needed, so a 6 failing for Combined Bombardment reads right
    assert result.log.rolls[0]["what"] == "research dice for Long-Range Aircraft (a 4 develops it)"
    # A fighter flying Germany -> Archangel and back needs 6 moves: only with the development.
    body = ("combat_move:\n  - {units: 1 fighter, from: Germany, to: Archangel}\n"
            "noncombat_move:\n  - {units: 1 fighter, from: Archangel, to: Germany}\n")
    assert codes(validate(st, "Germany", body)) == ["move.too-far"]
    assert validate(replace(st, developments={"Germany": ("long_range_aircraft",)}), "Germany", body) == []


def test_research_needs_the_ipcs_and_the_phase() -> None:
    """Develop Weapons, Step 2: each research die costs 5 IPCs; 1942 Second Edition has no such phase."""
    st = state(turn="Germany", ruleset=R, treasury={"Germany": 9})
    assert codes(validate(st, "Germany", "develop: {development: jet fighters, dice: 2}\n")) == ["research.cost"]
    st42 = state(turn="Germany")
    assert codes(validate(st42, "Germany", "develop: {development: jet fighters, dice: 1}\n")) == ["research.disabled"]


def test_jet_fighters_defend_at_five() -> None:
    """Weapons Developments, Jet Fighters: your fighters defend at 5."""
    from dataclasses import replace

    st = replace(state(turn="Germany", ruleset=R, clear=("Karelia S.S.R.",), units={"Karelia S.S.R.": {"Soviet Union": {"fighter": 1}}}),
                 developments={"Soviet Union": ("jet_fighters",)})
    result = play(st, "Germany", "combat_move:\n  - {units: 1 infantry, from: Belorussia, to: Karelia S.S.R.}\n",
                  dice={"battle/Karelia S.S.R./round-1/attacker": [6], "battle/Karelia S.S.R./round-1/defender": [5]})
    events = result.log.battles[0]["outcome"].events
    defender_groups = [g for e in events if getattr(e, "side", None) == "defender" and hasattr(e, "groups") for g in e.groups]
    assert defender_groups[0].group.value == 5 and defender_groups[0].hits == 1


def test_antiaircraft_guns_fire_at_aircraft_flying_over() -> None:
    """Combat Move, Air Units: whenever an air unit moves into a hostile territory containing an
    antiaircraft gun, the gun gets a chance to shoot it down, space by space along its path."""
    st = state(turn="Germany", ruleset=R, clear=("Kazakh S.S.R.",), units={"Kazakh S.S.R.": {"Soviet Union": {"infantry": 1}}})
    body = ("combat_move:\n  - {units: 1 fighter, from: Ukraine S.S.R., to: Kazakh S.S.R., via: [Caucasus]}\n"
            "noncombat_move:\n  - {units: 1 fighter, from: Kazakh S.S.R., to: Ukraine S.S.R., via: [Caucasus]}\n")
    shot = play(st, "Germany", body, dice={"aa/combat/combat-1/1-Caucasus": [1]})
    assert units_at(shot.state, "Ukraine S.S.R.", "Germany").get("fighter") is None
    assert any(r["step"] == "aa-overflight" and "Caucasus" in r["what"] and r["result"] == "1 fighter shot down"
               for r in shot.log.rolls)
    # Missed on the way out and on the way back: the fighter attacks and comes home.
    missed = play(st, "Germany", body, dice={"aa/combat/combat-1/1-Caucasus": [4], "aa/return/return-1/1-Caucasus": [6],
                                             "battle/Kazakh S.S.R./round-1/attacker": [1], "battle/Kazakh S.S.R./round-1/defender": [6]})
    assert units_at(missed.state, "Ukraine S.S.R.", "Germany").get("fighter") == 1


def test_1942_antiaircraft_artillery_does_not_fire_at_overflights() -> None:
    """1942 Second Edition, Air Units: AAA fires only when air units attack its territory."""
    st = state(turn="Germany", clear=("Kazakh S.S.R.",), units={"Kazakh S.S.R.": {"Soviet Union": {"infantry": 1}}})
    body = ("combat_move:\n  - {units: 1 fighter, from: Ukraine S.S.R., to: Kazakh S.S.R., via: [Caucasus]}\n"
            "noncombat_move:\n  - {units: 1 fighter, from: Kazakh S.S.R., to: Ukraine S.S.R., via: [Caucasus]}\n")
    result = play(st, "Germany", body, dice={"battle/Kazakh S.S.R./round-1/attacker": [1], "battle/Kazakh S.S.R./round-1/defender": [6]})
    assert units_at(result.state, "Ukraine S.S.R.", "Germany").get("fighter") == 1


def test_national_advantages_take_effect_in_a_game() -> None:
    """Appendix 3, National Advantages (each a game option): Mechanized Infantry ("Your infantry have
    a move of 2 and may blitz just as tanks do") and U-Boat Interdiction (the U.K. loses 1 IPC of
    income per German submarine on the board)."""
    st = state(turn="United States", ruleset=R)
    body = "noncombat_move:\n  - {units: 1 infantry, from: Eastern United States, to: Western United States, via: [Central United States]}\n"
    assert codes(validate(st, "United States", body)) == ["move.too-far"]
    assert validate(st, "United States", body, options={"mechanized_infantry": True}) == []
    uk = state(turn="United Kingdom", ruleset=R)
    plain = play(uk, "United Kingdom", "")
    interdicted = play(uk, "United Kingdom", "", options={"u_boat_interdiction": True})
    german_subs = sum(by.get("Germany", {}).get("submarine", 0) for by in uk.units.values())
    assert german_subs > 0
    assert interdicted.log.income["United Kingdom"] == plain.log.income["United Kingdom"] - german_subs


def test_transport_that_fought_may_load_or_offload_but_not_both() -> None:
    """Noncombat Move, Transports (FAQ; DIGEST §5 REV.4): a transport that moved in combat may not
    move again but may load or offload in place, not both, unless it retreated; 1942 allows neither."""
    st = state(turn="United Kingdom", ruleset=R, units={"SZ 7": {"United Kingdom": {"battleship": 1, "transport": 1}},
                                                          "SZ 8": {"Germany": {"submarine": 1}}})
    moved = "combat_move:\n  - {units: 1 battleship, from: SZ 7, to: SZ 8}\n  - {units: 1 transport, from: SZ 7, to: SZ 8}\n"
    ok = moved + "noncombat_move:\n  - {units: 1 infantry, from: United Kingdom, to: SZ 8}\n"
    assert validate(st, "United Kingdom", ok) == []
    both = ok + "  - {units: 1 infantry, from: SZ 8, to: United Kingdom}\n"
    assert "move.offload-after-combat" in codes(validate(st, "United Kingdom", both))
    st42 = state(turn="United Kingdom", units={"SZ 7": {"United Kingdom": {"battleship": 1, "transport": 1}},
                                               "SZ 8": {"Germany": {"submarine": 1}}})
    assert "move.load-after-combat" in codes(validate(st42, "United Kingdom", ok))


def test_submerged_submarines_do_not_make_a_zone_hostile() -> None:
    """Spaces on the Game Board: sea zones containing only submerged enemy submarines are not hostile;
    Submarines: a submerged sub stays submerged for the rest of the turn."""
    from pbem.engine.orders import DefencePolicy, StandingOrders

    st = state(turn="United Kingdom", ruleset=R, units={"SZ 7": {"United Kingdom": {"battleship": 1, "transport": 1}},
                                                          "SZ 8": {"Germany": {"submarine": 1}}})
    body = ("combat_move:\n  - {units: 1 battleship, from: SZ 7, to: SZ 8}\n"
            "noncombat_move:\n  - {units: 1 transport, from: SZ 7, to: SZ 8}\n")
    germany = {"Germany": StandingOrders("Germany", DefencePolicy(submerge=True), explicit=True)}
    result = play(st, "United Kingdom", body, standing=germany, dice={
        "battle/SZ 8/round-1/surprise-attacker": [], "battle/SZ 8/round-1/surprise-defender": [6],
        "battle/SZ 8/round-1/attacker": [6], "battle/SZ 8/round-1/defender": [6]})
    outcome = result.log.battles[0]["outcome"]
    assert outcome.submerged.get("Germany", {}).get("submarine") == 1
    # The transport ended its noncombat move beside the submerged submarine.
    assert units_at(result.state, "SZ 8", "United Kingdom").get("transport") == 1


def test_rocket_strikes() -> None:
    """Weapons Developments, Rockets: each antiaircraft gun territory may strike one enemy industrial
    complex within 3 spaces; each complex once a turn; no defence; the owner surrenders IPCs equal to
    the die, at most the territory's income value."""
    from dataclasses import replace

    from pbem.io.rulesets import load_ruleset

    st = replace(state(turn="Germany", ruleset=R, treasury={"Soviet Union": 30}), developments={"Germany": ("rockets",)})
    strike = "rockets:\n  - {from: Germany, target: Caucasus}\n"
    assert validate(st, "Germany", strike) == []
    value = load_ruleset(R).board.spaces["Caucasus"].ipc
    result = play(st, "Germany", strike, dice={"rocket/Germany/Caucasus": [6]})
    assert result.state.treasury["Soviet Union"] == 30 - min(6, value)
    problems = validate(st, "Germany", "rockets:\n  - {from: Germany, target: Russia}\n")
    assert codes(problems) == ["rocket.illegal"] and "more than 3 spaces" in problems[0].message
    twice = strike + "  - {from: Germany, target: United Kingdom}\n"
    assert "only one gun per territory" in validate(st, "Germany", twice)[0].message
    without = state(turn="Germany", ruleset=R)
    assert "has not developed Rockets" in validate(without, "Germany", strike)[0].message


def test_radar_and_superfortresses_apply_to_bombing_raids() -> None:
    """National Advantages: Radar ("Your antiaircraft guns in tan territories hit air units on a roll
    of 2") and Superfortresses ("Your bombers are immune to antiaircraft fire") in a raid."""
    st = state(turn="Germany", ruleset=R, treasury={"United Kingdom": 20})
    body = ("combat_move:\n  - {units: 1 bomber, from: Germany, to: United Kingdom, mission: strategic_bombing}\n"
            "noncombat_move:\n  - {units: 1 bomber, from: United Kingdom, to: Germany}\n")
    plain = play(st, "Germany", body, dice={"raid/United Kingdom/aa": [2], "raid/United Kingdom/damage": [3]})
    assert plain.state.treasury["United Kingdom"] == 17  # a 2 misses without Radar
    radar = play(st, "Germany", body, options={"radar": True}, dice={"raid/United Kingdom/aa": [2]})
    assert radar.state.treasury["United Kingdom"] == 20  # shot down on a 2


def test_colonial_garrison_is_chosen_when_the_game_is_created(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Colonial Garrison: "You begin the game with one additional industrial complex in any tan
    territory with an income value of at least 1"; the game option names the territory."""
    from pbem.game.audit import audit_game
    from pbem.game.game import GameError, new_game

    game = new_game(tmp_path / "g", "revised", {}, dice_mode="local", options={"colonial_garrison": "Anglo-Egypt"})
    assert game.state().units["Anglo-Egypt"]["United Kingdom"]["industrial complex"] == 1
    assert audit_game(tmp_path / "g").ok
    import pytest

    with pytest.raises(GameError):
        new_game(tmp_path / "h", "revised", {}, dice_mode="local", options={"colonial_garrison": "Germany"})
