"""The AMS house rules play on the 1940 board: its names are the box's (global_1940/names.py)."""

from pbem.rulesets.global_1940.names import SPACE_NAMES

__all__ = ["SPACE_NAMES"]
