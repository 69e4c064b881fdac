"""Axis & Allies 1940 Global (2nd edition): the rule system's data and choices."""
