"""Names players write for the 1940 board's spaces that TripleA's map data does not know.

TripleA names the territory of each victory city but not the city, and spells three territories
otherwise than the board and the AMS guide ("Control Iwo Jima, Okinawa, Marianas Islands, Palau
...", "Control Moscow", "Liberate Paris").  The rulebook's names win (README.md, Readings: Names),
so orders may use either; the data keeps TripleA's spelling.  Code, not data: adding a name here
leaves the ruleset's data hash, and so every game in progress, as it was.
"""

from __future__ import annotations

#: territory (TripleA's name) -> the other names players use for it
SPACE_NAMES: dict[str, tuple[str, ...]] = {
    # the board's nineteen victory cities, each in its territory (TripleA's victoryCity marks)
    "Eastern United States": ("Washington", "Eastern US"),
    "Western United States": ("San Francisco", "Western US"),
    "Ontario": ("Ottawa",),
    "Hawaiian Islands": ("Honolulu",),
    "New South Wales": ("Sydney",),
    "India": ("Calcutta",),
    "Egypt": ("Cairo",),
    "United Kingdom": ("London",),
    "France": ("Paris",),
    "Germany": ("Berlin",),
    "Poland": ("Warsaw",),
    "Southern Italy": ("Rome",),
    "Novgorod": ("Leningrad",),
    "Volgograd": ("Stalingrad",),
    "Russia": ("Moscow",),
    "Japan": ("Tokyo",),
    "Kiangsu": ("Shanghai",),
    "Kwangtung": ("Hong Kong",),
    "Philippines": ("Manila",),
    "Central United States": ("Central US",),
    # TripleA's spellings that the board and the AMS guide do not use
    "Paulau Island": ("Palau Island", "Palau"),
    "Suiyuyan": ("Suiyuan",),
    "Marianas": ("Marianas Islands", "Mariana Islands"),
}
