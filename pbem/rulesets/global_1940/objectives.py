"""National objectives of 1940 Global out of the box, as data (`pbem.engine.objectives`).

The AMS guide's tables are its own "additional/tweaked" ones (DIGEST §3.3 item 7), so the box's
objectives are TripleA's (ww2global40_2nd_edition.xml, objectiveAttachment_* and the PU triggers
"done with Conditions further down"), each named by the XML's attachment below.  Their "At war
with" preconditions are the XML's `atWarPlayers`; "allied ownership" is the side's control
(holder "side"), "direct ownership" the country's own.
"""

from pbem.engine.objectives import NationalObjective as NO

_EUROPEAN_AXIS = ("Germany", "Italy")
_AXIS = ("Germany", "Italy", "Japan")
_XML = "TripleA ww2global40_2nd_edition.xml, "
_COMMUNISM = ("Bulgaria", "Finland", "Iraq", "Greater Southern Germany", "Slovakia Hungary", "Western Germany", "Romania",
              "Poland", "Germany", "Norway", "Denmark", "Holland Belgium", "Tobruk", "Albania", "Northern Italy", "Libya",
              "Sicily", "Italian Somaliland", "Southern Italy", "Ethiopia", "Sardinia")
_MEDITERRANEAN = tuple(f"SZ {n}" for n in range(92, 100))
_WARSHIPS = frozenset({"surface_warship", "submarine"})

OBJECTIVES: tuple[NO, ...] = (
    # Germany
    NO("Germany", "trade with the Soviet Union", 5, _XML + "objectiveAttachment_Germans_1_Trade_with_Russia",
       not_at_war_with=("Soviet Union",)),
    NO("Germany", "Novgorod, Volgograd and Russia, each", 5, _XML + "objectiveAttachment_Germans_2_Control_Novgorod_Or_Volgograd_Or_Russia",
       controls=("Novgorod", "Volgograd", "Russia"), per_territory=True),
    NO("Germany", "the Caucasus", 5, _XML + "objectiveAttachment_Germans_3_Control_Caucasus",
       controls=("Caucasus",), holder="side"),
    NO("Germany", "a German land unit in Egypt", 5, _XML + "triggerAttachment_Germans_4_Presence_In_Egypt",
       land_unit_in=("Egypt",)),
    # conditionAttachment_Germans_5_Sweden_Not_Enemy: the Allies do not control Sweden, and the Axis
    # do or it is not pro-Allies (..._Sweden_Not_Pro_Allies: British-Neutral relation not friendly)
    NO("Germany", "Swedish iron ore: Denmark and Norway, and Sweden neither the Allies' nor pro-Allies", 5,
       _XML + "triggerAttachment_Germans_5_Swedish_Iron_Ore", controls=("Denmark", "Norway"), not_held=("Sweden",),
       not_controlled_as=(("Sweden", "Pro-Allies Neutral"),)),
    NO("Germany", "Iraq, Persia and Northwest Persia, each", 2, _XML + "objectiveAttachment_Germans_6_Control_Iraq_Or_Persia_Or_Northwest_Persia",
       controls=("Iraq", "Persia", "Northwest Persia"), per_territory=True),
    # Soviet Union
    NO("Soviet Union", "Lend-Lease: Archangel, sea zone 125 clear, no Allied units in Soviet territory", 5,
       _XML + "triggerAttachment_Russians_1_Lend_Lease", at_war_with=_EUROPEAN_AXIS, controls=("Archangel",),
       no_enemy_ships_in=("SZ 125",), ship_tags=_WARSHIPS, no_allied_units_in_own_originals=True),
    NO("Soviet Union", "spread of communism, each Axis territory", 3, _XML + "objectiveAttachment_Russians_2_Spread_Of_Communism",
       controls=_COMMUNISM, per_territory=True),
    NO("Soviet Union", "Berlin, the first time", 10, _XML + "objectiveAttachment_Russians_3_Berlin",
       controls=("Germany",), once=True),
    # Japan
    NO("Japan", "trade with the United States", 10, _XML + "objectiveAttachment_Japanese_1_Trade_With_America",
       not_at_war_with=("United States", "United Kingdom"), not_held=("French Indo China",), not_held_by="country"),
    NO("Japan", "strategic defense perimeter", 5, _XML + "objectiveAttachment_Japanese_2_Strategic_Defense_Perimeter",
       controls=("Guam", "Midway", "Wake Island", "Gilbert Islands", "Solomon Islands"), holder="side"),
    NO("Japan", "Honolulu, Sydney, Calcutta and the Western United States, each", 5,
       _XML + "objectiveAttachment_Japanese_3_Control_Honolulu_Or_Sydney_Or_Calcutta_Or_Western_United_States",
       controls=("Hawaiian Islands", "New South Wales", "India", "Western United States"), holder="side", per_territory=True),
    NO("Japan", "the Dutch East Indies", 5, _XML + "objectiveAttachment_Japanese_4_Control_Dutch_East_Indies",
       controls=("Java", "Sumatra", "Borneo", "Celebes"), holder="side"),
    # United Kingdom
    NO("UK Europe", "every original territory", 5, _XML + "objectiveAttachment_British_1_Original",
       at_war_with=("Germany",), holds_all_originals=True),
    NO("UK Pacific", "Kwangtung and Malaya", 5, _XML + "objectiveAttachment_UK_Pacific_2_Kwangtung_And_Malaya",
       at_war_with=("Japan",), controls=("Malaya", "Kwangtung")),
    # Italy
    NO("Italy", "no enemy surface warships in the Mediterranean", 5, _XML + "objectiveAttachment_Italians_1_Control_The_Mediterranean",
       no_enemy_ships_in=_MEDITERRANEAN, ship_tags=frozenset({"surface_warship"})),
    NO("Italy", "Roman empire: 3 of Greece, Egypt, Southern France and Gibraltar", 5, _XML + "objectiveAttachment_Italians_2_Roman_Empire",
       controls=("Greece", "Egypt", "Southern France", "Gibraltar"), holder="side", at_least=3),
    NO("Italy", "North Africa", 5, _XML + "objectiveAttachment_Italians_3_North_Africa",
       controls=("Alexandria", "Morocco", "Algeria", "Tunisia", "Tobruk", "Libya"), holder="side"),
    NO("Italy", "Iraq, Persia and Northwest Persia, each", 2, _XML + "objectiveAttachment_Italians_4_Control_Iraq_Or_Persia_Or_Northwest_Persia",
       controls=("Iraq", "Persia", "Northwest Persia"), per_territory=True),
    # United States: each "atWarPlayers Germans:Italians:Japanese count 1"
    NO("United States", "the homeland", 10, _XML + "objectiveAttachment_Americans_1_Homeland",
       at_war_with=_AXIS, controls=("Central United States", "Eastern United States", "Western United States")),
    NO("United States", "the outer territories", 5, _XML + "objectiveAttachment_Americans_2_Outer_Territories",
       at_war_with=_AXIS, controls=("Alaska", "Aleutian Islands", "Hawaiian Islands", "Johnston Island", "Line Islands")),
    NO("United States", "defense obligations", 5, _XML + "objectiveAttachment_Americans_3_Defense_Obligations",
       at_war_with=_AXIS, controls=("Mexico", "Southeast Mexico", "Central America", "West Indies")),
    NO("United States", "the Philippines", 5, _XML + "objectiveAttachment_Americans_4_Philippines",
       at_war_with=_AXIS, controls=("Philippines",)),
    NO("United States", "an American land unit in France", 5, _XML + "triggerAttachment_Americans_5_Presence_In_France",
       at_war_with=_AXIS, land_unit_in=("France",)),
    # China
    NO("China", "the Burma Road", 6, _XML + "objectiveAttachment_Chinese_1_Burma_Road (conditionAttachmentJapaneseDoNotControlBurmaRoad)",
       not_held=("India", "Burma", "Yunnan", "Szechwan")),
    # ANZAC
    NO("ANZAC", "every original territory, and Malaya Allied", 5, _XML + "triggerAttachment_ANZAC_1_Control_Original_And_Malaya",
       at_war_with=("Japan",), holds_all_originals=True, controls=("Malaya",), holder="side"),
    NO("ANZAC", "strategic islands", 5, _XML + "objectiveAttachment_ANZAC_2_Control_Strategic_Islands",
       at_war_with=("Japan",), controls=("Solomon Islands", "Dutch New Guinea", "New Guinea", "New Britain"), holder="side"),
)
