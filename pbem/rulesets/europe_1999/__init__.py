"""Axis & Allies Europe (1999)."""
