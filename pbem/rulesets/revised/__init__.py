"""Axis & Allies Revised (2004): data files plus `rules.py` and `combat_rules.py`."""
