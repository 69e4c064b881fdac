"""Revised's RULES and COMBAT_RULES: the choices that differ from 1942, pinned with their sections."""

from __future__ import annotations

import dataclasses

from pbem.engine.combat.rules import CombatRules
from pbem.engine.rules import Rules
from pbem.rulesets.aa1942_2e.combat_rules import COMBAT_RULES as A42_COMBAT
from pbem.rulesets.aa1942_2e.rules import RULES as A42
from pbem.rulesets.revised.combat_rules import COMBAT_RULES
from pbem.rulesets.revised.rules import RULES


def test_every_field_is_stated():
    """No choice has a default: constructing the records proves each one is stated, group by group."""
    assert {f.name for f in dataclasses.fields(Rules)} == set(vars(RULES))
    for group in ("movement", "capitals", "production", "victory"):
        record = getattr(RULES, group)
        assert all(f.default is dataclasses.MISSING for f in dataclasses.fields(record)), group
    assert {f.name for f in dataclasses.fields(CombatRules)} == set(vars(COMBAT_RULES))


def test_revised_rules_that_differ_from_1942():
    # Spaces on the Game Board: any enemy unit makes a sea zone hostile (transports and subs too).
    assert RULES.movement.hostile_sea_zone_tags == {"surface_warship", "submarine", "transport"}
    assert A42.movement.hostile_sea_zone_tags == {"surface_warship"}
    # Mobilize New Units: an ally's complex if that ally's capital is in enemy hands.
    assert RULES.production.place_at_ally_complex == "if_ally_capital_lost" and A42.production.place_at_ally_complex == "never"
    # Liberating a Territory: decided when you liberate.
    assert not RULES.capitals.liberation_deferred_to_end_of_turn
    assert RULES.victory.checked_after == "United States"
    assert RULES.movement.closed_straits == {}


def test_revised_combat_rules_that_differ_from_1942():
    c, a = COMBAT_RULES, A42_COMBAT
    assert not c.surprise_cancelled_by_destroyer and a.surprise_cancelled_by_destroyer
    assert c.submerge_timing == "at_press_or_retreat" and c.air_hits_subs == "always"
    assert c.aa_shots_per_unit is None and c.aa_casualty_chooser == "targeted" and not c.aa_can_be_casualty
    assert not c.defenceless_transports and not c.transports_chosen_last
    assert not c.bombard_cap_per_seaborne_unit and not c.overland_can_retreat_from_amphibious
    assert c.sbr_loss == "treasury" and c.sbr_cap_per_bomber and c.air_battle_rounds == 0
