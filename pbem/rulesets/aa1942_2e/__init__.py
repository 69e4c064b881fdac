"""Data of Axis & Allies 1942 Second Edition: ruleset.yaml, units.yaml, map.yaml and setup.yaml."""
