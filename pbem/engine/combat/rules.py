"""Every point where the five rule systems' battle rules differ, as data.

The combat code reads these fields and never asks which game it is playing, so Revised, Pacific,
Europe and 1940 become new `CombatRules(...)` values, not new branches.  No field has a default:
a rule system must state each choice (with its rulebook citation) in its own module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AirHitsSubs = Literal["always", "with_friendly_destroyer"]
# When submarines submerge: in the surprise-strike step, both sides (1942); at the press-or-retreat
# step (Revised); or (Europe) attacking subs instead of their first strike and defending subs
# instead of firing back, after the attacker has fired (a defending sub already hit still fires)
SubmergeTiming = Literal["instead_of_surprise_strike", "at_press_or_retreat", "attacker_at_strike_defender_instead_of_return_fire",
                         "never"]
AaChooser = Literal["aircraft_owner", "targeted"]  # targeted: each die is rolled at one aircraft type
# When a two-hit unit's damage goes: at the end of its battle (1942), at the end of the turn (Europe,
# Pacific: "Damaged Battleships Uprighted"), never, or (1940) at the start of its owner's turn in a sea
# zone next to a friendly naval base; until then it keeps its hit from battle to battle
# (GameState.pending["damaged"]).
Repair = Literal["end_of_combat", "end_of_turn", "never", "at_naval_base"]
SbrModel = Literal["complex_rolls_per_bomber", "aa_gun_rolls_per_bomber"]
SbrLoss = Literal["damage", "treasury"]
# Do fighters escort raids and intercept them: never (Revised), under the game option
# escorts_and_interceptors (1942), or as a standing rule (Europe)?
Escorts = Literal["never", "option", "always"]


@dataclass(frozen=True)
class CombatRules:
    """The battle rules of one rule system (see DIGEST §2 for how the systems differ)."""

    # --- submarines --------------------------------------------------------------------------
    sub_surprise_attacker: bool  # attacking subs fire before everything else
    sub_surprise_defender: bool  # defending subs fire before everything else
    sub_surprise_attack_value: int  # hit on this or less when an attacking sub strikes
    sub_surprise_defense_value: int  # hit on this or less when a defending sub strikes
    surprise_cancelled_by_destroyer: bool  # an opposing destroyer in the battle cancels it
    surprise_casualties_fire_back: bool  # victims of a surprise strike still roll that round
    surprise_repeats_every_round: bool
    surprise_uses_unit_values: bool  # subs strike at their own attack/defence, not the two values above
    # victims of a sub strike stay on the strip and fire back when their own side has a destroyer
    surprise_victims_fire_back_with_own_destroyer: bool
    submerge_timing: SubmergeTiming
    submerge_cancelled_by_destroyer: bool
    subs_can_hit_air: bool
    # Do units roll when the enemy has no unit they may hit (submarines facing only air units, air
    # units facing only submarines they cannot hit)?  True: they roll and the hits are lost (1942
    # p. 16; Revised FAQ: "Nothing ... ever stops a sub from rolling its die"); False: they do not
    # fire (Pacific, Aircraft Carrier Movement Example: "The sub cannot fire back because it may not
    # attack air units"; Europe: "Submarines may never attack or defend against air units").
    fire_without_targets: bool
    # Europe, German Submarines vs. Allied Ships: when a power attacks enemy submarines in a zone where
    # its allies' ships stand, those ships may take the submarines' hits (they do not fire)
    allied_ships_take_sub_hits: bool
    air_hits_subs: AirHitsSubs
    # --- antiaircraft ------------------------------------------------------------------------
    aa_shots_per_unit: int | None  # dice per AA unit (1942: 3; None: one gun, a die per aircraft) ...
    aa_one_shot_per_air_unit: bool  # ... but never more dice than attacking air units
    aa_hit: int  # hit on this or less
    aa_first_round_only: bool
    aa_casualty_chooser: AaChooser  # who picks the air unit a hit destroys
    aa_can_be_casualty: bool  # AA units can be taken as casualties of ordinary fire
    aa_destroyed_when_alone: bool  # AA with no combat units is removed without a battle
    # --- transports --------------------------------------------------------------------------
    defenceless_transports: bool  # transports left without protection are destroyed at once
    transports_chosen_last: bool
    # --- two-hit units -----------------------------------------------------------------------
    two_hit_repair: Repair
    # --- land --------------------------------------------------------------------------------
    artillery_supports: int  # infantry supported per artillery, attack only (0: no support)
    artillery_bonus: int  # added to a supported infantry's attack
    air_can_capture: bool
    # --- amphibious assaults -----------------------------------------------------------------
    bombard_cap_per_seaborne_unit: bool  # at most one bombarding ship per offloaded land unit
    bombard_first_round_only: bool
    # May a ship that offloaded land units into the assault also bombard it?  (Revised FAQ, Tokyo
    # Express: yes; Pacific, Amphibious Assaults: "Japanese destroyers unloading infantry may not
    # provide a support shot")
    unloading_ships_bombard: bool
    bombard_casualties_fire_back: bool
    # Whom bombardment hits strike: "any" defending unit (1942, Step 2: "the defender will move a
    # defending unit behind the casualty strip"; Europe, Pacific: "The defender chooses his
    # casualties"), or "land" units only, the step skipped when none defend (Revised, Step 2: "against
    # enemy land units in the territory being attacked. If there are no enemy land units present,
    # ignore this step").
    bombard_targets: Literal["any", "land"]
    # The order of the bombardment dice: weakest first like every other roll (1942, Revised, Europe,
    # 1940: no order is written), or strongest first (Pacific, Amphibious Assaults step 2: "The
    # attacker rolls one die for each battleship ... The attacker then rolls one die for each destroyer").
    bombard_strongest_first: bool
    # May the attacker call off an amphibious landing once combat has begun (its land units stay
    # aboard)?  "never" (1942, 1940: no rule allows it), "after_sea_battle" (Europe, Pacific: "After a
    # naval battle, the attacker is allowed to call off the Amphibious Assault"), or "in_combat"
    # (Revised: "During the conduct combat phase, that player may call off the landing").
    amphibious_call_off: Literal["never", "after_sea_battle", "in_combat"]
    seaborne_can_retreat: bool
    overland_can_retreat_from_amphibious: bool
    # --- strategic bombing raids -------------------------------------------------------------
    sbr_model: SbrModel
    sbr_aa_hit: int  # the complex's built-in AA hits a bomber on this or less
    sbr_damage_dice: int  # dice per surviving bomber
    sbr_damage_bonus: int  # added to each surviving bomber's damage
    sbr_damage_cap_per_ipc: int | None  # total damage ≤ this × the territory's IPC value (None: no cap)
    sbr_cap_per_bomber: bool  # ... the cap applies to each bomber's roll instead of the raid's total
    sbr_loss: SbrLoss  # damage markers on the complex, or IPCs paid from the owner's treasury
    escort_attack: int  # escorts (and bombers) in the optional air battle
    interceptor_defense: int
    air_battle_rounds: int
    escorts: Escorts
    # The raid's order: the air battle first, then AA fire at the bombers (1942); or (Europe) AA fire
    # first at every raider, escorts included, then one round of interceptors against escorts, the
    # attacker's losses from both taken together after it.
    sbr_aa_before_air_battle: bool
    # With sbr_aa_before_air_battle: are the aircraft the AA gun hits removed before the dogfight
    # (Pacific: "that number of units are immediately removed"), or with the dogfight's casualties
    # (Europe: "the attacking player removes his casualties" after both)?
    sbr_aa_casualties_at_once: bool
    # Do the bombers fire in the air battle with their escorts?  (1942, p. 14: "bombers and escorts
    # fire with an attack value of 1"; 1940: "strategic and tactical bombers attack at 0")
    bombers_fire_in_air_battle: bool
    # Do interceptors the escorts hit still fire in that round of the air battle?  No in 1942 (p. 14:
    # "For each 1 rolled, a defending interceptor is immediately removed as a casualty. The surviving
    # defending interceptors then fire"); yes in 1940, whose air battle is a round of combat ("Fighters
    # attack and defend at 1", E17) where "hit defending units can still fire back" (the AMS guide).
    interceptors_fire_back: bool
    # AMS, Bombing Raids: "strategic bombers may add +1 to their roll for each of the following: (i) if
    # the strategic bomber departed from an operational air base; and (ii) if the strategic bomber did
    # not encounter any enemy interceptors" - over sbr_damage_bonus, for raiders without a bonus of
    # their own; `sbr_air_base` names the facility (None: no such bonus)
    sbr_unintercepted_bonus: int = 0
    sbr_air_base_bonus: int = 0
    sbr_air_base: str | None = None

    def __post_init__(self) -> None:
        for name in (
            "sub_surprise_attack_value",
            "sub_surprise_defense_value",
            "aa_hit",
            "sbr_aa_hit",
            "escort_attack",
            "interceptor_defense",
        ):
            value = getattr(self, name)
            if not 0 <= value <= 6:
                raise ValueError(f"CombatRules.{name} must be a d6 value 0..6, got {value}")
        if (self.aa_shots_per_unit or 0) < 0 or self.artillery_supports < 0 or self.air_battle_rounds < 0:
            raise ValueError("CombatRules counts must not be negative")
        if self.aa_casualty_chooser == "targeted" and self.aa_shots_per_unit is not None:
            raise ValueError("targeted AA fire rolls one die per aircraft: aa_shots_per_unit must be None")
