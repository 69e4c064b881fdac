"""pbem: a play-by-email adjudicator for the Axis & Allies family of board games.

Only the version lives here so that `import pbem` stays fast; everything heavy is imported lazily.
"""

__version__ = "0.4.41"  # raise it whenever the same orders and dice could give other bytes (audit names it)
