"""The battle rules of Axis & Allies 1942 Second Edition, each field with its rulebook source.

Page numbers are the rulebook's (General Combat pp. 16-18; Unit Profiles pp. 24-30); "DIGEST"
points to the structured reading in the shared rules folder where the text needed a reading.
"""

from pbem.engine.combat.rules import CombatRules

COMBAT_RULES = CombatRules(
    # General Combat step 2 (p. 16): "Attacking submarines that roll a '2' or less score a hit".
    sub_surprise_attacker=True,
    # Step 2: "Then each defending submarine conducting a Surprise Strike rolls one die".
    sub_surprise_defender=True,
    sub_surprise_attack_value=2,  # step 2: "a '2' or less"
    sub_surprise_defense_value=1,  # step 2: "Defending submarines that roll a '1' score a hit"
    # Step 2: "if your opponent has a destroyer in the battle, your ... submarines cannot submerge
    # or make a Surprise Strike"; Destroyer profile: cancels Surprise Strike and Submersible.
    surprise_cancelled_by_destroyer=True,
    # Step 2: surprise casualties "are removed from the game" at the end of step 2 (DIGEST A42.3).
    surprise_casualties_fire_back=False,
    # Step 2: "this step is repeated during each round of combat".
    surprise_repeats_every_round=True,
    # Step 2: attacking subs "roll a '2' or less", defending subs "a '1'", whatever the profile says.
    surprise_uses_unit_values=False,
    # Step 2: an opposing destroyer cancels the strike altogether, so no victim ever fires back.
    surprise_victims_fire_back_with_own_destroyer=False,
    # Step 2 / Submarine profile "Submersible": "anytime it would otherwise make a Surprise Strike".
    submerge_timing="instead_of_surprise_strike",
    submerge_cancelled_by_destroyer=True,  # step 2, as above
    # Submarine profile "Cannot Hit Air Units" (p. 29); step 2 "submarines cannot hit air units".
    subs_can_hit_air=False,
    # p. 16, Step 2: the subs roll their strike; "submarines cannot hit air units" takes the hits
    fire_without_targets=True,
    # Only the attacking power's own units are its casualties (no rule like Europe's).
    allied_ships_take_sub_hits=False,
    # Submarine profile "Cannot Be Hit by Air Units ... unless there is a destroyer friendly to
    # the air units"; evaluated at the start of each round (DIGEST A42.6).
    air_hits_subs="with_friendly_destroyer",
    # AAA profile "Air Defense" (p. 25): "the total number of air defense dice rolled is three
    # times the number of AAA units, or the number of attacking air units, whichever is the lesser".
    aa_shots_per_unit=3,
    aa_one_shot_per_air_unit=True,
    aa_hit=1,  # AAA profile: "For each '1' rolled"
    aa_first_round_only=True,  # AAA profile: "AAA units fire only once, before the first round"
    aa_casualty_chooser="aircraft_owner",  # AAA profile: "the attacker chooses one air unit"
    aa_can_be_casualty=True,  # AAA profile "No Combat Value: It can, however, be taken as a casualty"
    # AAA profile: "If a territory containing AAA units and no combat units is attacked, the AAA
    # units are automatically destroyed"; General Combat introduction (p. 16).
    aa_destroyed_when_alone=True,
    # Sidebar "Defenseless Transports" next to step 5 (p. 17); timing per DIGEST A42.4.
    defenceless_transports=True,
    # Step 4 (p. 17): "hits can only be assigned to transports if there are no other eligible units".
    transports_chosen_last=True,
    # Battleship profile "Two Hits to Destroy": "If a battleship survives a combat having taken
    # one hit, ... it is repaired" at the end of the combat.
    two_hit_repair="end_of_combat",
    # Artillery profile "Support Infantry": each artillery gives one infantry +1, attack only.
    artillery_supports=1,
    artillery_bonus=1,
    air_can_capture=False,  # Step 7 Conclude Combat (p. 18): "Air units cannot capture a territory"
    # Amphibious Assaults step 2 (p. 15): "limited to one ship per land unit being offloaded".
    bombard_cap_per_seaborne_unit=True,
    bombard_first_round_only=True,  # "a one-time bombardment"
    unloading_ships_bombard=True,  # no warship carries land units in this game
    # Step 2: bombardment casualties "will be able to defend during the land combat step".
    bombard_casualties_fire_back=True,
    # Step 2: "For each hit, the defender will move a defending unit behind the casualty strip."
    bombard_targets="any",
    # Step 2: "Roll one die for each battleship and cruiser": no order, weakest first as every roll.
    bombard_strongest_first=False,
    # Amphibious Assault: the rulebook has no calling off; seaborne units that reach the shore land.
    amphibious_call_off="never",
    seaborne_can_retreat=False,  # step 3: "Attacking seaborne units cannot retreat"
    overland_can_retreat_from_amphibious=True,  # step 3: "Attacking overland land units and aircraft can retreat"
    # Strategic Bombing Raids (p. 14): "Each industrial complex rolls one die against each bomber".
    sbr_model="complex_rolls_per_bomber",
    sbr_aa_hit=1,  # "For each '1' rolled, a bomber is immediately removed"
    sbr_damage_dice=1,  # "Any surviving bombers each roll one die"
    sbr_damage_bonus=0,
    sbr_damage_cap_per_ipc=2,  # "cannot receive more total damage than twice the IPC value"
    sbr_cap_per_bomber=False,  # the cap is on the complex's total damage
    sbr_loss="damage",  # damage markers on the complex, repaired at 1 IPC each (p. 14)
    # Optional Rule, escorts and interceptors (p. 14): bombers and escorts "fire with an attack
    # value of 1"; interceptors "fire with a defense value of 2"; "ends after one round".
    escort_attack=1,
    interceptor_defense=2,
    air_battle_rounds=1,
    # Strategic Bombing Raids, optional rule "Escorts and Interceptors": a game option.
    escorts="option",
    sbr_aa_before_air_battle=False,
    sbr_aa_casualties_at_once=False,  # no dogfight after the AA fire in this game
    bombers_fire_in_air_battle=True,  # p. 14: "bombers and escorts fire with an attack value of 1"
    # p. 14: "For each 1 rolled, a defending interceptor is immediately removed as a casualty. 2. The
    # surviving defending interceptors then fire".
    interceptors_fire_back=False,
)
