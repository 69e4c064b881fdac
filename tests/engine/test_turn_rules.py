"""Turn rules of 1942 Second Edition beyond movement that need more than a case can state (the
simpler ones are rule cases: tests/rulesets/aa1942_2e/cases/turn-rules.yaml)."""

from __future__ import annotations

from tests.engine.scenario import RULESET, codes, play, state, units_at, validate


def test_capturing_a_capital_takes_the_treasury() -> None:
    """Capturing and Liberating Capitals: the captor takes all unspent IPCs of the original controller."""
    st = state(turn="Germany", clear=("Russia",), treasury={"Soviet Union": 17})
    result = play(st, "Germany", "combat_move:\n  - {units: 1 tank, from: West Russia, to: Russia}\n")
    assert result.state.control["Russia"] == "Germany"
    assert result.state.treasury["Soviet Union"] == 0
    income = sum(RULESET.board.spaces[t].ipc for t, o in result.state.control.items() if o == "Germany")
    assert result.state.treasury["Germany"] == 40 + 17 + income
    assert result.log.captures[0]["plunder"] == 17












def test_repairs_cost_one_ipc_per_point() -> None:
    """Phase 1: Purchase Units, Step 2: pay to remove damage from industrial complexes, 1 IPC a point."""
    st = state(turn="Soviet Union", damage={"Russia": 3})
    result = play(st, "Soviet Union", "repair: {Russia: 2}\n")
    assert result.state.damage == {"Russia": 1}
    assert result.log.purchase_cost == 2








def test_unplaced_units_are_refunded() -> None:
    """Phase 5: Mobilize New Units: units bought but not placed are returned and refunded (the
    rulebook wins over TripleA, which keeps them)."""
    st = state(turn="Soviet Union")
    result = play(st, "Soviet Union", "purchase: 2 infantry\nplace:\n  Russia: 1 infantry\n")
    assert result.log.refunds == {"infantry": 1}
    income = result.log.income["Soviet Union"]
    assert result.state.treasury["Soviet Union"] == 24 - 6 + 3 + income


def test_income_is_the_national_production_level() -> None:
    """Phase 6: Collect Income: collect the total IPC value of the territories you control."""
    st = state(turn="Japan")
    result = play(st, "Japan", "")
    assert result.log.income["Japan"] == 30
    assert result.state.treasury["Japan"] == 60




def test_bombardment_only_without_a_sea_battle_and_one_ship_per_offloaded_unit() -> None:
    """Amphibious Assault Sequence, Step 2: battleships and cruisers bombard only if there was no
    sea combat in the offload zone, at most one ship per land unit offloaded."""
    st = state(turn="United Kingdom", clear=("SZ 8", "France"),
               units={"SZ 8": {"United Kingdom": {"transport": 1, "battleship": 1, "cruiser": 1, "infantry": 1}},
                      "France": {"Germany": {"infantry": 1}}})
    body = "combat_move:\n  - {units: 1 infantry, from: SZ 8, to: France}\n"
    result = play(st, "United Kingdom", body, dice={
        "battle/France/round-1/bombard": [1],
        "battle/France/round-1/attacker": [6], "battle/France/round-1/defender": [6],
        "battle/France/round-2/attacker": [6], "battle/France/round-2/defender": [6],
    })
    entry = result.log.battles[0]
    assert entry["bombard"] == ["battleship"]
    assert result.state.control["France"] == "United Kingdom"


def test_no_bombardment_after_a_sea_battle_in_the_offload_zone() -> None:
    """Amphibious Assault Sequence: after sea combat in the offload zone, go straight to land combat."""
    st = state(turn="United Kingdom", clear=("SZ 8", "France"),
               units={"SZ 8": {"United Kingdom": {"transport": 1, "battleship": 1, "infantry": 1}, "Germany": {"submarine": 1}},
                      "France": {"Germany": {"infantry": 1}}})
    body = "combat_move:\n  - {units: 1 infantry, from: SZ 8, to: France}\n"
    dice = {"battle/SZ 8/round-1/surprise-defender": [6], "battle/SZ 8/round-1/attacker": [1, 6],
            "battle/France/round-1/attacker": [1], "battle/France/round-1/defender": [6]}
    # The battleship did not move into SZ 8: the submarine is ignored, there is no sea combat, and
    # the battleship bombards.
    ignored = play(st, "United Kingdom", body, dice={**dice, "battle/France/round-1/bombard": [6]})
    assert [b["bombard"] for b in ignored.log.battles] == [["battleship"]]
    body2 = ("combat_move:\n  - {units: 1 infantry, from: SZ 8, to: France}\n  - {units: 1 battleship, from: SZ 7, to: SZ 8}\n")
    st2 = state(turn="United Kingdom", clear=("SZ 8", "France"),
                units={"SZ 8": {"United Kingdom": {"transport": 1, "infantry": 1}, "Germany": {"submarine": 1}},
                       "France": {"Germany": {"infantry": 1}}})
    result = play(st2, "United Kingdom", body2, dice=dice)
    land = [b for b in result.log.battles if b["battle"].space == "France"][0]
    assert land["bombard"] == []


def test_no_offloading_beside_ignored_subs_without_a_warship() -> None:
    """Transports: a transport may not offload for an amphibious assault in a sea zone containing
    ignored enemy submarines unless a warship of the attacking power is present there at the end
    of the Combat Move phase."""
    st = state(turn="United Kingdom", clear=("SZ 8", "France"),
               units={"SZ 8": {"United Kingdom": {"transport": 1, "infantry": 1}, "Germany": {"submarine": 1}},
                      "France": {"Germany": {"infantry": 1}}})
    body = "combat_move:\n  - {units: 1 infantry, from: SZ 8, to: France}\n"
    assert codes(validate(st, "United Kingdom", body)) == ["move.offload-ignored-subs"]
    body_ok = body + "  - {units: 1 battleship, from: SZ 7, to: SZ 8}\n"
    assert validate(st, "United Kingdom", body_ok) == []


def test_no_offloading_in_a_hostile_sea_zone_without_a_sea_battle() -> None:
    """Transports: a transport cannot load or offload in a hostile sea zone; a sea battle must clear it."""
    st = state(turn="United Kingdom", clear=("SZ 8", "France"),
               units={"SZ 8": {"United Kingdom": {"transport": 1, "infantry": 1}, "Germany": {"destroyer": 1}},
                      "France": {"Germany": {"infantry": 1}}})
    body = "combat_move:\n  - {units: 1 infantry, from: SZ 8, to: France}\n"
    assert codes(validate(st, "United Kingdom", body)) == ["move.offload-hostile"]
    assert validate(st, "United Kingdom", body + "  - {units: 1 battleship, from: SZ 7, to: SZ 8}\n") == []
    # Sea Units Starting in Hostile Sea Zones: a warship that began the turn there and stays fights
    # there too ("Remain in the sea zone and conduct combat"), so the assault may follow it
    stayed = state(turn="United Kingdom", clear=("SZ 8", "France"),
                   units={"SZ 8": {"United Kingdom": {"transport": 1, "infantry": 1, "battleship": 1}, "Germany": {"destroyer": 1}},
                          "France": {"Germany": {"infantry": 1}}})
    assert validate(stayed, "United Kingdom", body) == []


def test_fighters_of_a_sunk_defending_carrier_land_one_space_away() -> None:
    """Aircraft Carriers: if a carrier is destroyed, its fighters (which defended in the air) land on
    another carrier in the zone or move one space to a friendly territory or carrier, or are lost."""
    st = state(turn="Germany", clear=("SZ 7", "SZ 6"),
               units={"SZ 7": {"United Kingdom": {"aircraft carrier": 1, "fighter": 1}},
                      "SZ 6": {"Germany": {"battleship": 1}}})
    body = "combat_move:\n  - {units: 1 battleship, from: SZ 6, to: SZ 7}\n"
    dice = {"battle/SZ 7/round-1/attacker": [1], "battle/SZ 7/round-1/defender": [6, 6],
            "battle/SZ 7/round-2/attacker": [6], "battle/SZ 7/round-2/defender": [6],
            "battle/SZ 7/round-3/attacker": [6], "battle/SZ 7/round-3/defender": [1],
            "battle/SZ 7/round-4/attacker": [6], "battle/SZ 7/round-4/defender": [1]}
    from pbem.engine.orders import DefencePolicy, StandingOrders

    carrier_first = {"United Kingdom": StandingOrders("United Kingdom", DefencePolicy(order_of_loss=("aircraft carrier",)), explicit=True)}
    result = play(st, "Germany", body, dice=dice, standing=carrier_first)
    # The carrier was lost first (as ordered), the fighter landed in the United Kingdom next door.
    assert "aircraft carrier" not in units_at(result.state, "SZ 7", "United Kingdom")
    assert units_at(result.state, "United Kingdom", "United Kingdom")["fighter"] == 3




def test_escorts_need_the_optional_rule_and_interceptors_follow_standing_orders() -> None:
    """Strategic Bombing Raids, optional rule: escorts and interceptors fight one round, bombers and
    escorts at 1, interceptors at 2; the defender decides in advance whether its fighters intercept."""
    from pbem.engine.orders import DefencePolicy, StandingOrders

    st = state(turn="Germany", clear=("Germany",), units={"Germany": {"Germany": {"bomber": 1, "fighter": 1, "industrial complex": 1}}})
    body = ("combat_move:\n  - {units: 1 bomber, from: Germany, to: Karelia S.S.R., mission: strategic_bombing}\n"
            "  - {units: 1 fighter, from: Germany, to: Karelia S.S.R., mission: escort}\n"
            "noncombat_move:\n  - {units: 1 bomber, from: Karelia S.S.R., to: Germany}\n  - {units: 1 fighter, from: Karelia S.S.R., to: Germany}\n")
    assert codes(validate(st, "Germany", body)) == ["raid.escort-option"]
    option = {"escorts_and_interceptors": True}
    assert validate(st, "Germany", body, options=option) == []
    soviet = {"Soviet Union": StandingOrders("Soviet Union", DefencePolicy(intercept=True), explicit=True)}
    result = play(st, "Germany", body, options=option, standing=soviet, dice={
        "raid/Karelia S.S.R./escort": [1, 6], "raid/Karelia S.S.R./interceptor": [],
        "raid/Karelia S.S.R./aa": [6], "raid/Karelia S.S.R./damage": [3]})
    assert "fighter" not in units_at(result.state, "Karelia S.S.R.", "Soviet Union")
    assert result.state.damage["Karelia S.S.R."] == 3




def test_sea_units_may_end_noncombat_beside_enemy_transports_only() -> None:
    """Transports: sea units can end their noncombat movement in a sea zone containing only enemy
    transports; enemy submarines and transports do not block movement."""
    st = state(turn="United Kingdom", clear=("SZ 8",), units={"SZ 8": {"Germany": {"transport": 1}}})
    assert validate(st, "United Kingdom", "noncombat_move:\n  - {units: 1 battleship, from: SZ 7, to: SZ 8}\n") == []
    st2 = state(turn="United Kingdom", clear=("SZ 8",), units={"SZ 8": {"Germany": {"cruiser": 1}}})
    assert codes(validate(st2, "United Kingdom", "noncombat_move:\n  - {units: 1 battleship, from: SZ 7, to: SZ 8}\n")) == ["move.noncombat-hostile"]




def test_interceptors_leave_a_territory_captured_after_the_raid() -> None:
    """Strategic Bombing Raids, optional rule: interceptors fight in no other battle that turn and
    return to their territory; if it was captured they move one space to a friendly territory or
    carrier, or are lost."""
    from pbem.engine.orders import DefencePolicy, StandingOrders

    st = state(turn="Germany", clear=("Germany", "Karelia S.S.R."),
               units={"Germany": {"Germany": {"bomber": 1, "industrial complex": 1}},
                      "Karelia S.S.R.": {"Soviet Union": {"fighter": 1, "industrial complex": 1, "infantry": 1}}})
    body = ("combat_move:\n  - {units: 1 bomber, from: Germany, to: Karelia S.S.R., mission: strategic_bombing}\n"
            "  - {units: 3 infantry, from: Finland, to: Karelia S.S.R.}\n"
            "noncombat_move:\n  - {units: 1 bomber, from: Karelia S.S.R., to: Germany}\n")
    soviet = {"Soviet Union": StandingOrders("Soviet Union", DefencePolicy(intercept=True), explicit=True)}
    result = play(st, "Germany", body, options={"escorts_and_interceptors": True}, standing=soviet, dice={
        "raid/Karelia S.S.R./escort": [6], "raid/Karelia S.S.R./interceptor": [6],
        "raid/Karelia S.S.R./aa": [6], "raid/Karelia S.S.R./damage": [2],
        "battle/Karelia S.S.R./round-1/attacker": [1, 6, 6], "battle/Karelia S.S.R./round-1/defender": [6]})
    assert result.state.control["Karelia S.S.R."] == "Germany"
    battle = result.log.battles[0]["battle"]
    assert all(f.unit != "fighter" for f in battle.defenders)  # the interceptor did not defend
    assert units_at(result.state, "Archangel", "Soviet Union").get("fighter") == 1


def test_a_ship_placed_on_land_is_pointed_to_the_sea() -> None:
    """Phase 5: Mobilize New Units: sea units go in a sea zone adjacent to the industrial complex;
    the hint names those zones, or the power's complexes where the territory has none."""
    st = state(turn="Germany")
    problems = validate(st, "Germany", "purchase: {submarine: 1}\nplace: {Germany: 1 submarine}\n")
    assert codes(problems) == ["place.sea-on-land"]
    assert problems[0].hint == "name a sea zone next to Germany: SZ 5"
    problems = validate(st, "Germany", "purchase: {submarine: 1}\nplace: {Poland: 1 submarine}\n")
    assert codes(problems) == ["place.sea-on-land"]
    assert problems[0].hint.startswith("your complexes: ") and "Germany" in problems[0].hint


def test_survivors_of_a_battle_still_make_their_noncombat_move() -> None:
    """Noncombat Move: orders are written before the dice, so when a battle leaves fewer units than
    a noncombat order names, the survivors make the move and the report says how many."""
    st = state(turn="Germany", clear=("Karelia S.S.R.", "Norway"),
               units={"Karelia S.S.R.": {"Soviet Union": {"infantry": 1}}, "Norway": {"Germany": {"fighter": 2}}})
    body = ("combat_move:\n  - {units: 2 fighters, from: Norway, to: Karelia S.S.R.}\n"
            "noncombat_move:\n  - {units: 2 fighters, from: Karelia S.S.R., to: Norway}\n")
    dice = {"battle/Karelia S.S.R./round-1/attacker": [1, 6], "battle/Karelia S.S.R./round-1/defender": [2]}
    result = play(st, "Germany", body, dice=dice)
    assert units_at(result.state, "Norway", "Germany") == {"fighter": 1}
    assert "Of the 2 fighters ordered from Karelia S.S.R. to Norway, only 1 fighter was left after the battles; it made the move" in result.log.notes


def test_each_fighter_counting_on_a_carrier_gets_a_place_of_its_own() -> None:
    """Air units: "a possible landing must be shown for every attacking air unit", each its own (the
    Pacific manual: "you must declare up front where each plane plans to land").  The places are
    matched, not handed out first come, first served: a fighter that can reach two carriers leaves
    the one place of the only carrier another can reach to that one."""
    from pbem.engine.turn import _without_a_deck
    from pbem.engine.world import Unit

    a, b, c = (Unit(i, "fighter", "Japan", "SZ 1", "SZ 1") for i in (1, 2, 3))
    one, two = frozenset({"SZ 1"}), frozenset({"SZ 2"})
    assert _without_a_deck([(a, ["SZ 1", "SZ 2"]), (b, ["SZ 1"])], [(1, one), (1, two)]) == []
    left = _without_a_deck([(a, ["SZ 1"]), (b, ["SZ 1"]), (c, ["SZ 1"])], [(2, one)])
    assert [u.id for u, _ in left] == [3]
    # a carrier that may sail to either zone has its two places in one of them, not in both
    left = _without_a_deck([(a, ["SZ 1"]), (b, ["SZ 2"]), (c, ["SZ 2"])], [(2, one | two)])
    assert [u.id for u, _ in left] == [1]


def test_a_fighter_left_at_sea_without_its_new_carrier_is_lost_at_adjudication() -> None:
    """Noncombat Move, Air Units (1942 Second Edition): a carrier must "be mobilized (new carriers
    only) to pick up a fighter that would end its noncombat movement in a sea zone". Validation
    refuses orders that place it elsewhere; orders adjudicated without validation must still not
    leave the fighter floating at sea with no carrier: it is lost, and the report says why."""
    st = state(turn="United Kingdom", clear=("SZ 7", "SZ 8", "SZ 6"), treasury={"United Kingdom": 30})
    body = ("purchase: {aircraft carrier: 1}\nnoncombat_move:\n  - {units: 1 fighter, from: United Kingdom, to: SZ 7}\n"
            "place:\n  SZ 8: {aircraft carrier: 1}\n")
    result = play(st, "United Kingdom", body)
    assert "fighter" not in result.state.units.get("SZ 7", {}).get("United Kingdom", {})
    assert {"unit": "fighter", "owner": "United Kingdom", "space": "SZ 7",
            "reason": "no carrier was mobilized in its zone"} in result.log.lost_air
