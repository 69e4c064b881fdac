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
