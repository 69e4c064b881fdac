"""Axis & Allies 1940 Global with the AMS house rules (Ω3.1): the guide's differences from the box."""
