"""Report data says what happened in battles without dice: units a rule removes are named, with the rule."""

from __future__ import annotations

from pbem.game.reportdata import _battle
from pbem.io.rulesets import load_ruleset
from tests.engine.scenario import play, state


def test_a_battle_against_lone_transports_says_they_were_destroyed_and_why() -> None:
    """1942 2E, Conduct Combat, General Combat step 5 / Transports: "transports ... are destroyed if
    they are alone" when enemy warships attack - the report says so instead of only "attacker won"."""
    board = load_ruleset("1942-2e").board
    target = sorted(n for n in board.neighbours("SZ 5") if board.spaces[n].is_sea)[0]
    st = state(turn="Germany", clear=("SZ 5", target), units={"SZ 5": {"Germany": {"destroyer": 1}},
                                                              target: {"United Kingdom": {"transport": 2}}})
    result = play(st, "Germany", f"combat_move:\n  - {{units: 1 destroyer, from: SZ 5, to: {target}}}\n")
    entry = next(e for e in result.log.battles if e["battle"].space == target)
    battle = _battle(entry, "Germany", low_luck=False)
    assert battle["result"] == "attacker-won"
    assert battle["removed"] == [{"round": battle["removed"][0]["round"], "power": "United Kingdom", "unit": "transport",
                                  "count": 2, "damaged": False, "chosen_by": "rule",
                                  "reason": "rule: defenceless transports are destroyed (General Combat, step 5)"}]


def test_every_format_shows_units_removed_without_dice() -> None:
    import json
    from pathlib import Path

    from pbem.report.render import render_report

    data = json.loads((Path(__file__).resolve().parents[1] / "report" / "fixtures" / "full_turn.json").read_text())
    data["battles"][0]["removed"] = [{"round": 1, "power": "United Kingdom", "unit": "transport", "count": 2,
                                      "damaged": False, "chosen_by": "rule", "reason": "rule: defenceless transports are destroyed"}]
    for fmt in ("text", "md", "bbcode", "html", "json"):
        out = " ".join(render_report(data, fmt).split())  # words, whatever the line wrapping
        assert "2 transports" in out or '"transport"' in out, fmt
        assert "defenceless transports are destroyed" in out, fmt


def test_stored_odds_keep_ten_decimals_so_a_last_bit_of_the_calculator_changes_nothing(monkeypatch) -> None:
    """Audit replays reports byte for byte with whatever pbem runs it: a faster solve or another
    processor's sums move the calculator's last bit, and the report stored the full float, so such a
    change failed audit of every earlier game.  Reports keep ten decimals (Python's correctly
    rounded `round`), and every command shows its figures from that same rounding."""
    import pbem.odds
    from pbem.engine.combat import Battle, Force
    from pbem.engine.combat.model import Orders
    from pbem.game.reportdata import battle_odds
    from pbem.report.render import percent
    from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES

    units = load_ruleset("1942-2e").units
    battle = Battle("Ukraine", "land", "Germany", (Force("infantry", "Germany", 3), Force("tank", "Germany", 2)),
                    (Force("infantry", "Soviet Union", 4),), units, COMBAT_RULES)
    stored = battle_odds(battle, Orders(hold_territory=True), Orders(), False, 40_000)
    assert stored is not None
    assert all(v == round(v, 10) for v in stored.values())
    exact = pbem.odds.battle_odds(battle, Orders(hold_territory=True), Orders(), budget=40_000)
    assert abs(stored["attacker_win"] - exact.attacker_win) <= 5e-11

    real = pbem.odds.battle_odds

    def one_bit_off(*args, **kw):  # the same battle with every chance moved by its last bit
        import dataclasses
        import math

        odds = real(*args, **kw)
        return dataclasses.replace(odds, **{f: math.nextafter(getattr(odds, f), 2.0) for f in ("attacker_win", "defender_win", "draw")})

    monkeypatch.setattr(pbem.odds, "battle_odds", one_bit_off)
    moved = battle_odds(battle, Orders(hold_territory=True), Orders(), False, 40_000)
    assert moved == stored
    assert percent(exact.attacker_win) == percent(stored["attacker_win"])


def test_a_casualty_chosen_by_a_rule_names_the_rule_once() -> None:
    """Transports (1942 2E): "transports can only be chosen as a casualty if there are no other
    eligible units" - the report reads "rule: transports are chosen last", not "rule: rule: ..."
    (every format writes the label, a colon, then the reason)."""
    board = load_ruleset("1942-2e").board
    target = sorted(n for n in board.neighbours("SZ 5") if board.spaces[n].is_sea)[0]
    st = state(turn="Germany", clear=("SZ 5", target), units={"SZ 5": {"Germany": {"destroyer": 2}},
                                                              target: {"United Kingdom": {"transport": 1, "cruiser": 1}}})
    body = f"combat_move:\n  - {{units: 2 destroyers, from: SZ 5, to: {target}}}\n"
    dice = {f"battle/{target}/round-1/attacker": [1, 1], f"battle/{target}/round-1/defender": [6]}
    from pbem.engine.orders import DefencePolicy, StandingOrders

    transport_first = {"United Kingdom": StandingOrders("United Kingdom", DefencePolicy(order_of_loss=("transport", "cruiser")),
                                                        explicit=True)}
    result = play(st, "Germany", body, dice=dice, standing=transport_first)
    entry = next(e for e in result.log.battles if e["battle"].space == target)
    text = str(_battle(entry, "Germany", low_luck=False))
    assert "'chosen_by': 'rule', 'reason': 'transports are chosen last (Transports)'" in text
    assert "'reason': 'rule:" not in text


def test_a_low_luck_battle_reports_its_pooled_strength_and_sure_hits() -> None:
    """Low Luck (a game option): strength is pooled, whole sixes hit without dice and only the
    remainder rolls.  The report says so, rather than "0 dice @3 (2 tanks): - -> 0 hits" followed
    by a casualty no die explains, and counts the sure hits in the battle's luck line."""
    from pbem.report.render import render_report

    st = state(turn="Germany", clear=("Karelia S.S.R.", "Finland"),
               units={"Karelia S.S.R.": {"Soviet Union": {"infantry": 1}}, "Finland": {"Germany": {"tank": 2}}})
    body = "combat_move:\n  - {units: 2 tanks, from: Finland, to: Karelia S.S.R.}\n"
    result = play(st, "Germany", body, dice={"battle/Karelia S.S.R./round-1/defender": [6]}, options={"low_luck": True})
    entry = next(e for e in result.log.battles if e["battle"].space == "Karelia S.S.R.")
    battle = _battle(entry, "Germany", low_luck=True)
    attack, defend = battle["rounds"][0]["steps"]
    assert attack["low_luck"] == {"units": [{"unit": "tank", "count": 2, "value": 3}], "strength": 6, "sure_hits": 1}
    assert attack["groups"] == []
    assert defend["low_luck"]["sure_hits"] == 0 and [g["dice"] for g in defend["groups"]] == [[6]]
    assert battle["luck"]["attacker"] == {"expected_hits": 1.0, "actual_hits": 1}
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).resolve().parents[1] / "report" / "fixtures" / "full_turn.json").read_text())
    data["battles"] = [battle]
    for fmt in ("text", "md", "bbcode", "html"):
        out = " ".join(render_report(data, fmt).split())
        assert "Low Luck: 2 tanks @3 = strength 6" in out and "1 sure hit" in out, fmt


def test_units_a_rule_places_for_nothing_are_listed_for_programs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Pacific, Chinese infantry: "one infantry per territory ... plus one for the open Burma Road,
    in Szechwan" at the United States' mobilization.  The JSON report lists such units in
    `free_units` (space, power, units, the rule), beside the note that says it in words, so that a
    program counting units needs no words parsed; a turn without them has no such key."""
    import json

    from pbem.game.game import Game, new_game

    game = new_game(tmp_path / "g", "pacific-2001", {}, game_id="g", dice_mode="local")
    for _ in range(3):  # Japan, Great Britain, then the United States, each sending empty orders
        st = game.state()
        game.submit(f"game: g\npower: {game.power_to_move(st)}\nround: {st.round}\n".encode(), "o.yaml")
        _, report = game.adjudicate()
        game = Game(tmp_path / "g")
    assert report["power"] == "United States"
    note = next(n for n in report["notes"] if "placed free" in n)  # "...: 3 Chinese infantry of United States placed free in Szechwan"
    count = int(note.split(": ")[-1].split()[0])
    assert report["free_units"] == [{"space": "Szechwan", "power": "United States", "units": {"Chinese infantry": count},
                                     "reason": note.split(": ")[0]}]
    free = report["free_units"]
    written = json.loads((tmp_path / "g" / "reports" / "round-01" / "3-united-states.json").read_text())
    assert written["free_units"] == free
    first = json.loads((tmp_path / "g" / "reports" / "round-01" / "1-japan.json").read_text())
    assert "free_units" not in first


def test_a_defenders_default_loss_says_whether_it_wrote_standing_orders() -> None:
    """A defender with no standing orders loses its cheapest units first: the casualty line says no
    standing orders were written, not that its (unwritten) order of loss left the unit out."""
    from pbem.engine.orders import DefencePolicy, StandingOrders

    st = state(turn="Germany", clear=("Karelia S.S.R.", "Finland"),
               units={"Karelia S.S.R.": {"Soviet Union": {"infantry": 1, "tank": 1}}, "Finland": {"Germany": {"tank": 3}}})
    body = "combat_move:\n  - {units: 3 tanks, from: Finland, to: Karelia S.S.R.}\n"
    dice = {"battle/Karelia S.S.R./round-1/attacker": [1, 1, 6], "battle/Karelia S.S.R./round-1/defender": [6, 6]}
    reasons = []
    for standing in ({}, {"Soviet Union": StandingOrders("Soviet Union", DefencePolicy(order_of_loss=("tank",)), explicit=True)}):
        result = play(st, "Germany", body, dice=dice, standing=standing)
        entry = next(e for e in result.log.battles if e["battle"].space == "Karelia S.S.R.")
        step = _battle(entry, "Germany", low_luck=False)["rounds"][0]["steps"][0]
        reasons.append([(c["unit"], c["reason"]) for c in step["casualties"]])
    assert reasons == [[("infantry", "cheapest first (no standing orders written)"), ("tank", "cheapest first (no standing orders written)")],
                       [("tank", "the order of loss in the standing orders"),
                        ("infantry", "cheapest first (not in the standing orders' order of loss)")]]
