"""Axis & Allies Pacific (2001)."""
