"""The rule systems pbem ships: canonical ids, the data folder of each, and the names players use.

Only data lives here; `pbem.io.rulesets` resolves names (case-insensitively) and loads the folders.
"""

# canonical ruleset id -> folder under pbem/rulesets/ holding ruleset.yaml, units.yaml, map.yaml, setup.yaml
RULESETS: dict[str, str] = {
    "1942-2e": "aa1942_2e",
    "revised": "revised",
    "europe-1999": "europe_1999",
    "pacific-2001": "pacific_2001",
    "global-1940": "global_1940",
    "global-1940-ams": "global_1940_ams",
}

# alternative name -> canonical id (compared case-insensitively, spaces and underscores as hyphens)
ALIASES: dict[str, str] = {
    "1942": "1942-2e",
    "1942-2nd": "1942-2e",
    "1942-second-edition": "1942-2e",
    "aa1942-2e": "1942-2e",
    "aa1942": "1942-2e",
    "a42": "1942-2e",
    "aa-revised": "revised",
    "axis-and-allies-revised": "revised",
    "ww2v2": "revised",
    "rev": "revised",
    "aar": "revised",
    "europe": "europe-1999",
    "europe-1999": "europe-1999",
    "aae": "europe-1999",
    "axis-and-allies-europe": "europe-1999",
    "europe1999": "europe-1999",
    "eur": "europe-1999",
    "pacific": "pacific-2001",
    "pacific-2001": "pacific-2001",
    "pacific2001": "pacific-2001",
    "aap": "pacific-2001",
    "axis-and-allies-pacific": "pacific-2001",
    "pac": "pacific-2001",
    "global": "global-1940",
    "global-1940": "global-1940",
    "global1940": "global-1940",
    "1940": "global-1940",
    "1940-global": "global-1940",
    "g40": "global-1940",
    "axis-and-allies-1940-global": "global-1940",
    "ams": "global-1940-ams",
    "global-ams": "global-1940-ams",
    "g40-ams": "global-1940-ams",
    "1940-ams": "global-1940-ams",
    "global-1940-ams": "global-1940-ams",
}
