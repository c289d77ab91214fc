"""lusoria: parse, validate and archive records of Tablut, Ludus latrunculorum and Laquet."""

__version__ = "0.1.0"
