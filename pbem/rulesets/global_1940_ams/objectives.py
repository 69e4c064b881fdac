"""The AMS guide's tables as data: its National Objective Bonuses (`pbem.engine.objectives`) and its
Victory Objectives (`pbem.engine.tokens`).

Each row cites the guide's table ("AMS NO, <nation>" and its "At War With" column; "AMS VO"); the
readings of its loose words are README.md's answers to DIGEST §5 AMS.8 and AMS.11.  Names of places:
Moscow = Russia, London = United Kingdom, Berlin = Germany, Rome = Southern Italy, Tokyo = Japan,
Calcutta = India, Sydney = New South Wales, Paris = France, Hong Kong = Kwangtung, Shanghai = Kiangsu
(the map's victory cities).
"""

from pbem.engine.objectives import NationalObjective as NO
from pbem.engine.objectives import attacked
from pbem.engine.tokens import VictoryObjective as VO
from pbem.engine.tokens import VictoryTokens
from pbem.rulesets.global_1940.politics import UNPROVOKED

AXIS = ("Germany", "Italy", "Japan")
EUROPEAN_AXIS = ("Germany", "Italy")
ALLIES = ("Soviet Union", "United States", "China", "United Kingdom", "ANZAC", "France")
_WARSHIPS = frozenset({"surface_warship", "submarine"})  # "Warships: Any sea unit other than transports"

# "The Atlantic Ocean ... includes the Baltic Sea (SZ113, 114, 115), but not the Mediterranean Sea"
# (The Map); the board's Atlantic zones, the South Atlantic included.
ATLANTIC = tuple(f"SZ {n}" for n in (*range(67, 71), *range(82, 92), *range(101, 128)))
MEDITERRANEAN = tuple(f"SZ {n}" for n in range(92, 100))
# "Pacific" is not defined (DIGEST §5 AMS.8): the Pacific board's sea zones, SZ 1-63.
PACIFIC = tuple(f"SZ {n}" for n in range(1, 64))
EVERY_SEA_ZONE = tuple(f"SZ {n}" for n in range(1, 129))
WESTERN_INDIAN_OCEAN = tuple(f"SZ {n}" for n in range(71, 82))  # "the western half of the Indian Ocean (sz71-sz81)"

# The Americas on both boards (Hawaii and the Aleutians are islands of the Pacific, not counted).
WESTERN_HEMISPHERE = (
    "Alaska", "Alberta Saskatchewan Manitoba", "Argentina", "Bolivia", "Brazil", "British Columbia", "British Guiana",
    "Central America", "Central United States", "Chile", "Colombia", "Eastern United States", "Ecuador", "French Guiana",
    "Greenland", "Mexico", "New Brunswick Nova Scotia", "Newfoundland Labrador", "Ontario", "Paraguay", "Peru", "Quebec",
    "Southeast Mexico", "Suriname", "Uruguay", "Venezuela", "West Indies", "Western United States",
)
# Africa's territories owned by a power at the start (the neutrals Rio de Oro, Portuguese Guinea, Sierra
# Leone, Liberia, Angola and Mozambique left out: "all non-neutral territories in Africa").
AFRICA = (
    "Alexandria", "Algeria", "Anglo Egyptian Sudan", "Belgian Congo", "British Somaliland", "Egypt", "Ethiopia",
    "French Central Africa", "French Equatorial Africa", "French Madagascar", "French West Africa", "Gold Coast",
    "Italian Somaliland", "Kenya", "Libya", "Morocco", "Nigeria", "Rhodesia", "South West Africa", "Tanganyika Territory",
    "Tobruk", "Tunisia", "Union of South Africa",
)
# "original German, Italian, or pro-Axis neutral territory in Europe"
AXIS_EUROPE = (
    "Albania", "Bulgaria", "Denmark", "Finland", "Germany", "Greater Southern Germany", "Holland Belgium", "Northern Italy",
    "Norway", "Poland", "Romania", "Sardinia", "Sicily", "Slovakia Hungary", "Southern Italy", "Western Germany",
)
CHINA = ("Anhwe", "Chahar", "Hopei", "Hunan", "Jehol", "Kansu", "Kiangsi", "Kiangsu", "Kwangsi", "Kweichow", "Manchuria",
         "Shantung", "Shensi", "Sikang", "Suiyuyan", "Szechwan", "Tsinghai", "Yunnan")
# the map's victory cities of each board (1940 Global's city groups)
EUROPE_CITIES = ("United Kingdom", "Russia", "Germany", "Poland", "France", "Southern Italy", "Novgorod", "Volgograd", "Ontario",
                 "Egypt", "Eastern United States")
PACIFIC_CITIES = ("Western United States", "Hawaiian Islands", "Philippines", "New South Wales", "India", "Kwangtung", "Kiangsu",
                  "Japan")

_G = "AMS NO, Germany: "
_J = "AMS NO, Japan (P37): "
_I = "AMS NO, Italy (P38): "
_R = "AMS NO, USSR (P36): "
_U = "AMS NO, US (P37): "
_UKE = "AMS NO, UK Europe (P38): "
_UKP = "AMS NO, UK Pacific: "
_A = "AMS NO, ANZAC (P39): "

OBJECTIVES: tuple[NO, ...] = (
    # Germany
    NO("Germany", "not at war with the USSR", 5, _G + "n/a, Not at War with USSR", not_at_war_with=("Soviet Union",)),
    NO("Germany", "Novgorod, Volgograd and Russia, each", 5, _G + "USSR, Control Novgorod / Leningrad; Volgograd / Stalingrad; Russia / Moscow",
       at_war_with=("Soviet Union",), controls=("Novgorod", "Volgograd", "Russia"), per_territory=True),
    NO("Germany", "a land unit in Axis-controlled Egypt", 3, _G + "UK, 1 land unit in Axis-controlled Egypt",
       at_war_with=("United Kingdom",), controls=("Egypt",), holder="side", land_unit_in=("Egypt",)),
    NO("Germany", "London", 3, _G + "UK, Control London", at_war_with=("United Kingdom",), controls=("United Kingdom",)),
    NO("Germany", "Iraq, Persia and Northwest Persia, each", 2, _G + "UK, Germany controls Iraq / Persia / Northwest Persia",
       at_war_with=("United Kingdom",), controls=("Iraq", "Persia", "Northwest Persia"), per_territory=True),
    NO("Germany", "each territory in the Western Hemisphere", 2, _G + "n/a, Each German-controlled territory in Western Hemisphere",
       controls=WESTERN_HEMISPHERE, per_territory=True),
    # Japan
    NO("Japan", "peace with the US, French Indo-China spared, no unprovoked war on the UK and ANZAC", 10,
       _J + "n/a, Not at war with US, has not attacked French Indo-China, and has not made an unprovoked DOW against UK/ANZAC",
       not_at_war_with=("United States",), not_held=("French Indo China",), not_held_by="country",
       unless=(UNPROVOKED, attacked("French Indo China", "Japan"))),
    NO("Japan", "the Dutch East Indies", 5, _J + "UK, Axis control Sumatra, Java, Borneo, and Celebes",
       at_war_with=("United Kingdom",), controls=("Sumatra", "Java", "Borneo", "Celebes"), holder="side"),
    NO("Japan", "India", 5, _J + "UK, Control India", at_war_with=("United Kingdom",), controls=("India",)),
    NO("Japan", "New South Wales", 5, _J + "ANZAC, Control New South Wales", at_war_with=("ANZAC",), controls=("New South Wales",)),
    NO("Japan", "Hawaii", 5, _J + "US, Control Hawaii", at_war_with=("United States",), controls=("Hawaiian Islands",)),
    NO("Japan", "the Western United States", 5, _J + "US, Control Western US", at_war_with=("United States",), controls=("Western United States",)),
    NO("Japan", "New Guinea and the Solomons", 3, _J + "US, Axis controls Dutch New Guinea, New Guinea, New Britain and Solomon Islands",
       at_war_with=("United States",), controls=("Dutch New Guinea", "New Guinea", "New Britain", "Solomon Islands"), holder="side"),
    NO("Japan", "Midway, Wake Island and Guam", 3, _J + "US, Axis controls Midway, Wake Island, Guam",
       at_war_with=("United States",), controls=("Midway", "Wake Island", "Guam"), holder="side"),
    NO("Japan", "every Chinese territory", 6, _J + "n/a, Japan controls all Chinese territories", controls=CHINA),
    NO("Japan", "Alaska", 2, _J + "US, Japan controls Alaska", at_war_with=("United States",), controls=("Alaska",)),
    # Italy
    NO("Italy", "3 of Gibraltar, Southern France, Greece and Egypt", 5, _I + "n/a, Axis controls 3 of Gibraltar, Southern France, Greece, & Egypt",
       controls=("Gibraltar", "Southern France", "Greece", "Egypt"), holder="side", at_least=3),
    NO("Italy", "no Allied surface warships in the Mediterranean", 3, _I + "n/a, No Allied surface war ships in the Mediterranean",
       no_enemy_ships_in=MEDITERRANEAN, ships_of=ALLIES, ship_tags=frozenset({"surface_warship"})),
    NO("Italy", "North Africa", 5, _I + "n/a, Axis control Morocco, Algeria, Tunisia, Libya, Tobruk, and Alexandria",
       controls=("Morocco", "Algeria", "Tunisia", "Libya", "Tobruk", "Alexandria"), holder="side"),
    NO("Italy", "Iraq, Persia and Northwest Persia, each", 2, _I + "n/a, Italy controls Iraq / Persia / Northwest Persia",
       controls=("Iraq", "Persia", "Northwest Persia"), per_territory=True),
    NO("Italy", "Malta, Cyprus and Crete, with an Italian unit there", 2,
       _I + "n/a, Axis controls Malta, Cyprus, and Crete and Italy has 1 unit in any of these territories",
       controls=("Malta", "Cyprus", "Crete"), holder="side", land_unit_in=("Malta", "Cyprus", "Crete"), any_unit=True),
    NO("Italy", "each territory in the Western Hemisphere", 2, _I + "n/a, Each territory Italy controls in Western Hemisphere",
       controls=WESTERN_HEMISPHERE, per_territory=True),
    # USSR (Ω3.1: "Nerf Russia bonus")
    NO("Soviet Union", "no other Allied units in Soviet territory", 3, _R + "anyone, No non-USSR Allied units in original USSR territories",
       at_war_with=AXIS, no_allied_units_in_own_originals=True),
    NO("Soviet Union", "each Axis territory in Europe", 2, _R + "European Axis, Each original German, Italian, or pro-Axis neutral territory in Europe USSR controls",
       at_war_with=EUROPEAN_AXIS, controls=AXIS_EUROPE, per_territory=True),
    # Lend-Lease (DIGEST §5 AMS.11): each open lane 2 IPCs at war with the European Axis, 4 at war with both
    NO("Soviet Union", "the Arctic Lend-Lease lane open", 2, _R + "European Axis / Both, Lend-Lease lane (1) sz 125 and Archangel: 2 / 4",
       at_war_with=EUROPEAN_AXIS, not_at_war_with=("Japan",), controls=("Archangel",), holder="side",
       no_enemy_ships_in=("SZ 125",), ship_tags=_WARSHIPS),
    NO("Soviet Union", "the Arctic Lend-Lease lane open, at war with both", 4, _R + "European Axis / Both, Lend-Lease lane (1) sz 125 and Archangel: 2 / 4",
       at_war_with=EUROPEAN_AXIS, also_at_war_with=("Japan",), controls=("Archangel",), holder="side",
       no_enemy_ships_in=("SZ 125",), ship_tags=_WARSHIPS),
    NO("Soviet Union", "the Pacific Lend-Lease lane open", 2, _R + "European Axis / Both, Lend-Lease lane (2) sz 5 and Amur: 2 / 4",
       at_war_with=EUROPEAN_AXIS, not_at_war_with=("Japan",), controls=("Amur",), holder="side",
       no_enemy_ships_in=("SZ 5",), ship_tags=_WARSHIPS),
    NO("Soviet Union", "the Pacific Lend-Lease lane open, at war with both", 4, _R + "European Axis / Both, Lend-Lease lane (2) sz 5 and Amur: 2 / 4",
       at_war_with=EUROPEAN_AXIS, also_at_war_with=("Japan",), controls=("Amur",), holder="side",
       no_enemy_ships_in=("SZ 5",), ship_tags=_WARSHIPS),
    NO("Soviet Union", "Germany, the first time", 10, _R + "Germany, First time USSR controls Germany",
       at_war_with=("Germany",), controls=("Germany",), once=True),
    # United States: "At war with: Anyone"
    NO("United States", "the homeland", 10, _U + "Controls Eastern US, Central US and Western US",
       at_war_with=AXIS, controls=("Eastern United States", "Central United States", "Western United States")),
    NO("United States", "the outer territories", 5, _U + "Controls Alaska, Aleutian Islands, Hawaii, Johnston Island, and Line Island",
       at_war_with=AXIS, controls=("Alaska", "Aleutian Islands", "Hawaiian Islands", "Johnston Island", "Line Islands")),
    NO("United States", "Mexico and Central America", 2, _U + "Controls Mexico, South Eastern Mexico, Central America and West Indies",
       at_war_with=AXIS, controls=("Mexico", "Southeast Mexico", "Central America", "West Indies")),
    NO("United States", "the Philippines", 5, _U + "Controls Philippines", at_war_with=AXIS, controls=("Philippines",)),
    NO("United States", "Midway, Wake Island and Guam", 2, _U + "Allies control Midway, Wake Island, Guam",
       at_war_with=AXIS, controls=("Midway", "Wake Island", "Guam"), holder="side"),
    NO("United States", "the Japanese mandates", 3, _U + "Allies control Marshall Islands, Caroline Islands, Palau Island, Marianas",
       at_war_with=AXIS, controls=("Marshall Islands", "Caroline Islands", "Paulau Island", "Marianas"), holder="side"),
    NO("United States", "a foothold in France and the Low Countries", 5,
       _U + "Allies control at least 2 of: Normandy Bordeaux, Holland Belgium, Southern France, and US has at least one land unit in any of these",
       at_war_with=AXIS, controls=("Normandy Bordeaux", "Holland Belgium", "Southern France"), holder="side", at_least=2,
       land_unit_in=("Normandy Bordeaux", "Holland Belgium", "Southern France")),
    NO("United States", "French North Africa", 3, _U + "Allies control Morocco, Algeria, and Tunisia; US has 1 land unit in any of these",
       at_war_with=AXIS, controls=("Morocco", "Algeria", "Tunisia"), holder="side", land_unit_in=("Morocco", "Algeria", "Tunisia")),
    # UK Europe
    NO("UK Europe", "every original territory", 3, _UKE + "n/a, UK controls all of its original territories in its European economy",
       holds_all_originals=True),
    NO("UK Europe", "a foothold in Italy and Greece", 3,
       _UKE + "n/a, Allies control at least 2 of: Sicily, Sardinia, Greece, Southern Italy, and Allies have at least 1 land unit in any of these territories",
       controls=("Sicily", "Sardinia", "Greece", "Southern Italy"), holder="side", at_least=2,
       land_unit_in=("Sicily", "Sardinia", "Greece", "Southern Italy"), unit_holder="side"),
    NO("UK Europe", "no enemy submarines in the Atlantic", 3, _UKE + "n/a, No enemy submarines in the Atlantic, excluding szs 125-127",
       no_enemy_ships_in=tuple(z for z in ATLANTIC if z not in ("SZ 125", "SZ 126", "SZ 127")), ship_tags=frozenset({"submarine"})),
    NO("UK Europe", "Malta, Crete and Cyprus", 2, _UKE + "n/a, Malta, Crete, and Cyprus are Allied or Pro-Allied controlled",
       controls=("Malta", "Crete", "Cyprus"), holder="friends"),
    NO("UK Europe", "the Persian Gulf", 5, _UKE + "n/a, Allies control Eastern Persian, Northwest Persia, Persia, and Iraq",
       controls=("Eastern Persia", "Northwest Persia", "Persia", "Iraq"), holder="side"),
    # UK Pacific
    NO("UK Pacific", "Kwangtung and Malaya", 5, _UKP + "Japan, UK controls Kwangtung and Malaya",
       at_war_with=("Japan",), controls=("Kwangtung", "Malaya"), holder="power"),
    NO("UK Pacific", "the western Indian Ocean", 3,
       _UKP + "Japan, UK controls West India and either Egypt or South Africa, and there are no enemy submarines in the western half of the Indian Ocean (sz71-sz81)",
       at_war_with=("Japan",), controls=("West India",), controls_one_of=("Egypt", "Union of South Africa"), holder="power",
       no_enemy_ships_in=WESTERN_INDIAN_OCEAN, ship_tags=frozenset({"submarine"})),
    # China: "Burma Road is totally open: 3 / build artillery" (the artillery: the box's purchase limit)
    NO("China", "the Burma Road", 3, "AMS NO, China (P38): Burma Road is totally open; The Map, Burma Road: \"controlled by the Allies\"",
       controls=("Szechwan", "Yunnan", "Burma", "India"), holder="side"),
    # ANZAC
    NO("ANZAC", "every original territory, and Malaya Allied", 5, _A + "Japan, Allies control Malaya and ANZAC controls all original territories",
       at_war_with=("Japan",), holds_all_originals=True, controls=("Malaya",), holder="side"),
    NO("ANZAC", "Dutch New Guinea, New Britain and the Solomons", 3, _A + "Japan, Allies (not Dutch) control Dutch New Guinea, New Britain, and the Solomon Islands",
       at_war_with=("Japan",), controls=("Dutch New Guinea", "New Britain", "Solomon Islands"), holder="side"),
    NO("ANZAC", "the Gilberts, Fiji and Samoa", 3, _A + "Japan, Allies control Gilbert Islands, Fiji, and Samoa",
       at_war_with=("Japan",), controls=("Gilbert Islands", "Fiji", "Samoa"), holder="side"),
)

_AXIS_VO = "AMS VO, Axis Powers: "
_ALLIED_VO = "AMS VO, Allied Powers: "


def _vo(side: str, name: str, rule: str, tech_to: str, chart: str, **condition: object) -> VO:
    """A victory objective; its condition read for the side (a country of it: holder "side")."""
    country = "Germany" if side == "Axis" else "United States"
    return VO(side, name, rule, NO(country, name, 1, rule, holder="side", **condition), tech_to, chart)  # type: ignore[arg-type]


VICTORY_OBJECTIVES = (
    _vo("Axis", "Moscow", _AXIS_VO + "Control Moscow (Nation taking control, chart 1)", "taker", "1", controls=("Russia",)),
    _vo("Axis", "Calcutta and West India", _AXIS_VO + "Control Calcutta and West India (Nation taking control, chart 1)", "taker", "1",
        controls=("India", "West India")),
    _vo("Axis", "6 victory cities of the Pacific board", _AXIS_VO + "Axis control 6 victory cities on Pacific map (Nation controlling most, Either)",
        "most", "either", controls=PACIFIC_CITIES, at_least=6),
    _vo("Axis", "7 victory cities of the Europe board", _AXIS_VO + "Axis control 7 victory cities on Europe map (Nation controlling most, Either)",
        "most", "either", controls=EUROPE_CITIES, at_least=7),
    _vo("Axis", "London", _AXIS_VO + "Control London (Nation taking control, chart 2)", "taker", "2", controls=("United Kingdom",)),
    _vo("Axis", "Sydney", _AXIS_VO + "Control Sydney (Nation taking control, chart 2)", "taker", "2", controls=("New South Wales",)),
    _vo("Axis", "no Allied warships in the Atlantic or the Mediterranean",
        _AXIS_VO + "No Allied warships in Atlantic or Mediterranean (Germany, chart 2)", "Germany", "2",
        no_enemy_ships_in=ATLANTIC + MEDITERRANEAN, ships_of=ALLIES, ship_tags=_WARSHIPS),
    _vo("Axis", "no US surface warships in the Pacific", _AXIS_VO + "No US surface warships in Pacific (Japan, chart 2)", "Japan", "2",
        no_enemy_ships_in=PACIFIC, ships_of=("United States",), ship_tags=frozenset({"surface_warship"})),
    _vo("Allies", "Berlin", _ALLIED_VO + "Control Berlin (Nation taking control, chart 1)", "taker", "1", controls=("Germany",)),
    _vo("Allies", "Africa", _ALLIED_VO + "Control all non-neutral territories in Africa (UK, chart 1)", "United Kingdom", "1", controls=AFRICA),
    # "Liberate Paris": Paris Allied again after an Axis power took it
    _vo("Allies", "Paris liberated", _ALLIED_VO + "Liberate Paris (Nation liberating, chart 1)", "mover", "1",
        controls=("France",), only_after=("capital taken: France",)),
    _vo("Allies", "the Burma Road, Hong Kong and Shanghai", _ALLIED_VO + "Control the Burma road, Hong Kong, and Shanghai (UK, chart 1)",
        "United Kingdom", "1", controls=("Szechwan", "Yunnan", "Burma", "India", "Kwangtung", "Kiangsu")),
    _vo("Allies", "Rome", _ALLIED_VO + "Control Rome (Nation taking control, chart 2)", "taker", "2", controls=("Southern Italy",)),
    _vo("Allies", "Tokyo", _ALLIED_VO + "Control Tokyo (Nation taking control, chart 2)", "taker", "2", controls=("Japan",)),
    _vo("Allies", "no Japanese capital ships", _ALLIED_VO + "No Japanese Capital ships on the board (US, chart 2)", "United States", "2",
        no_enemy_ships_in=EVERY_SEA_ZONE, ships_of=("Japan",), ship_tags=frozenset({"two_hit"})),
    _vo("Allies", "the Japanese islands", _ALLIED_VO + "Control Iwo Jima, Okinawa, Marianas Islands, Palau, Caroline Islands, and Marshall Islands (US, chart 2)",
        "United States", "2", controls=("Iwo Jima", "Okinawa", "Marianas", "Paulau Island", "Caroline Islands", "Marshall Islands")),
)

TOKENS = VictoryTokens(objectives=VICTORY_OBJECTIVES, at_least=4, lead=2)
