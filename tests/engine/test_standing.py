"""Standing orders the game never reads are told when the file is checked (`pbem.engine.standing`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine.problems import ProblemsError
from pbem.game.game import new_game


def _warned(tmp_path: Path, ruleset: str, text: str, options: dict[str, object] | None = None) -> list[str]:
    game = new_game(tmp_path / "g", ruleset, {}, game_id="g", dice_mode="local", options=options)
    _, result = game.check(text, "standing.yaml")
    assert result is not None and not result.problems
    return [f"{w.line}:{w.code}:{w.message} ({w.hint})" for w in result.warnings]


def test_intercept_without_interceptors_is_warned_and_with_the_option_is_not(tmp_path: Path) -> None:
    """1942 Second Edition, Optional Rule "Escorts and Interceptors" (p. 14): without it no fighter
    intercepts, so a standing `intercept:` would never be read; with it, it is."""
    text = "power: Germany\nstanding_orders:\n  default: {intercept: true}\n  territories:\n    Germany: {intercept: 2}\n"
    warned = _warned(tmp_path / "a", "1942-2e", text)
    assert [w.split(":")[0] for w in warned] == ["3", "5"] and all("standing.unread" in w for w in warned)
    assert "escorts_and_interceptors option is off" in warned[0]
    assert _warned(tmp_path / "b", "1942-2e", text, {"escorts_and_interceptors": True}) == []


def test_keys_of_other_systems_are_warned(tmp_path: Path) -> None:
    """Revised, Appendix 3 (National Advantages): Kaiten Torpedoes is Japan's, Enigma Decoded the
    United Kingdom's; 1940 Global's scramble (E16) and AMS's technology charts and France's units
    are not 1942's, and their keys do nothing there."""
    text = ("power: Soviet Union\nstanding_orders:\n  default: {kaiten: 1}\n  scramble: [{from: Karelia S.S.R.}]\n"
            "  tech_chart: 2\n  liberation_units: {infantry: 4}\n"
            "  enigma: [{when_attacked: Karelia S.S.R., units: 1 infantry, from: Archangel, to: Karelia S.S.R.}]\n")
    warned = _warned(tmp_path, "1942-2e", text)
    assert [w.split(":")[0] for w in warned] == ["3", "4", "5", "6", "7"]
    for key in ("kaiten", "scramble", "tech_chart", "liberation_units", "enigma"):
        assert any(f"{key}: " in w for w in warned), key


def test_revised_advantages_read_their_keys_only_when_on(tmp_path: Path) -> None:
    """Revised, Kaiten Torpedoes: Japan's standing `kaiten:` is read with the advantage on; the
    Nonaggression Treaty's choice of territory is the Soviet Union's, and a misspelt choice is told."""
    kaiten = "power: Japan\nstanding_orders:\n  default: {kaiten: 2}\n"
    assert _warned(tmp_path / "a", "revised", kaiten, {"kaiten_torpedoes": True}) == []
    assert "kaiten: Japan has no kaiten" in _warned(tmp_path / "b", "revised", kaiten)[0]
    choices = ("power: Soviet Union\nstanding_orders:\n  choices: {nonaggression_treaty: [Buryatia S.S.R.], "
               "nonagression: [Soviet Far East]}\n")
    (typo,) = _warned(tmp_path / "c", "revised", choices, {"nonaggression_treaty": True})
    assert "nonagression is no choice" in typo and "choices here: nonaggression_treaty" in typo


def test_scramble_in_1940_is_read(tmp_path: Path) -> None:
    """1940 Global, Scramble (E16): the standing `scramble:` is read there."""
    assert _warned(tmp_path, "global-1940", "power: Germany\nstanding_orders:\n  scramble: [{from: Western Germany}]\n") == []


@pytest.mark.parametrize("units, words", [
    ("{tank: 2, infantry: 1}", "cost 15 IPCs"),
    ("{destroyer: 1}", "destroyer cannot be placed in France"),
])
def test_ams_frances_liberation_units_are_checked_when_submitted(tmp_path: Path, units: str, words: str) -> None:
    """AMS national objectives, France: "First time France is liberated by Allies: Place 12 IPCs worth
    of units in France".  Units too dear, or ships, are refused when the standing orders are checked,
    not set aside for four infantry when France is liberated, long after."""
    game = new_game(tmp_path / "g", "global-1940-ams", {}, game_id="g", dice_mode="local")
    with pytest.raises(ProblemsError) as caught:
        game.check(f"power: France\nstanding_orders:\n  liberation_units: {units}\n", "standing.yaml")
    assert [p.code for p in caught.value.problems] == ["standing.liberation-units"] and words in caught.value.problems[0].message
    _, result = game.check("power: France\nstanding_orders:\n  liberation_units: {tank: 1, infantry: 2}\n", "standing.yaml")
    assert result is not None and result.warnings == []


def test_kamikaze_targets_the_rules_never_strike_and_counts_of_none_are_warned(tmp_path: Path) -> None:
    """1940 Kamikaze (P16): the strikes choose "which enemy surface warships will be struck"; a
    transport, a submarine or a land unit named there is never chosen, and a count of 0 launches none."""
    text = ("power: Japan\nstanding_orders:\n  kamikaze:\n    - {targets: [transport, destroyer], count: 1}\n"
            "    - {targets: [battleship], count: 0}\n")
    warned = _warned(tmp_path, "global-1940", text)
    assert [w.split(":")[0] for w in warned] == ["4", "5"]
    assert "kamikaze: transport is never struck by a kamikaze" in warned[0] and "count 0 launches none" in warned[1]


def test_policies_a_battle_of_that_kind_never_reads_are_warned(tmp_path: Path) -> None:
    """Intercepting is against bombing raids on a territory (1942 SBR optional rule); submarines
    submerge at sea (Submarines: Submerge)."""
    text = ("power: Germany\nstanding_orders:\n  territories:\n    SZ 5: {intercept: true, hold_territory: true}\n"
            "    Germany: {submerge: true}\n")
    warned = _warned(tmp_path, "1942-2e", text, {"escorts_and_interceptors": True})
    assert [w.split(":")[0] for w in warned] == ["4", "4", "5"]
    assert "intercept: SZ 5 is a sea zone, and no bombing raid is flown over a sea zone" in warned[0]
    assert "submerge: Germany is a territory, and no submarine fights in a territory" in warned[2]


@pytest.mark.parametrize("move, words", [
    ("{when_attacked: Karelia S.S.R., units: 1 infantry, from: Archangel, to: West Russia}", "neither enters nor leaves Karelia S.S.R."),
    ("{when_attacked: Karelia S.S.R., units: 2 infantry, from: United Kingdom, to: Karelia S.S.R.}", "United Kingdom and Karelia S.S.R. are not adjacent"),
    ("{when_attacked: SZ 7, units: 1 fighter, from: United Kingdom, to: SZ 7}", "fighter may not move into a sea zone"),
    ("{when_attacked: Western Europe, units: 1 battleship, from: SZ 7, to: Western Europe}", "battleship sail only from sea zone"),
])
def test_enigma_moves_that_can_never_be_made_are_warned(tmp_path: Path, move: str, words: str) -> None:
    """Revised, Appendix 3, Enigma Decoded: "You may move any number of your units from an adjacent
    space into any one friendly space being attacked by Germany", or out of it into an adjacent one,
    as a noncombat move; FAQ: fighters may not move into a sea zone by it.  A standing `enigma:`
    entry no board position allows is told when the file is checked, not first on Germany's turn."""
    text = f"power: United Kingdom\nstanding_orders:\n  enigma:\n    - {move}\n"
    (warned,) = _warned(tmp_path, "revised", text, {"enigma_decoded": True})
    assert warned.startswith("4:standing.enigma-never:") and words in warned, warned
    fine = "{when_attacked: Karelia S.S.R., units: 2 infantry, from: Archangel, to: Karelia S.S.R.}"
    assert _warned(tmp_path / "b", "revised", f"power: United Kingdom\nstanding_orders:\n  enigma: [{fine}]\n",
                   {"enigma_decoded": True}) == []


def test_nonaggression_choices_outside_red_territories_are_warned(tmp_path: Path) -> None:
    """Revised, Appendix 3, Nonaggression Treaty: "The first time in the game that Japanese forces
    attack any red territory, you may place four of your infantry for free in that territory": a
    choice naming a territory that was never Soviet is never taken."""
    text = "power: Soviet Union\nstanding_orders:\n  choices:\n    nonaggression_treaty: [Buryatia S.S.R., Manchuria]\n"
    (warned,) = _warned(tmp_path, "revised", text, {"nonaggression_treaty": True})
    assert warned.startswith("4:standing.choice-never:") and "Manchuria is no red territory" in warned and "Buryatia S.S.R." in warned


def test_scramble_from_a_territory_without_an_air_base_is_warned(tmp_path: Path) -> None:
    """1940 Global, Scramble (E16): "Operative air bases on a coastal territory or island permit
    fighters and/or tactical bombers to scramble": naming a territory with no air base today, or
    an inland one, sends nothing up (a warning: a base may be built there later)."""
    text = "power: Germany\nstanding_orders:\n  scramble:\n    - {from: Norway}\n    - {from: Greater Southern Germany}\n    - {from: Western Germany}\n"
    warned = _warned(tmp_path, "global-1940", text)
    assert [w.split(":")[0] for w in warned] == ["4", "5"] and all("standing.scramble-base" in w for w in warned), warned
    assert "no air base of your side in Norway now" in warned[0] and "Western Germany" in warned[0]
    assert "Greater Southern Germany has no sea zone beside it" in warned[1]
    # an enemy's air base is of no use until taken
    (enemy,) = _warned(tmp_path / "b", "global-1940", "power: United Kingdom\nstanding_orders:\n  scramble:\n    - {from: Western Germany}\n")
    assert "no air base of your side in Western Germany" in enemy
