"""Brandubh 7×7 as played on aagenielsen.dk ("Historical Hnefatafl 7x7 (Irish Brandubh 1)") and in
hnefatafl-rs (RULES.md B1–B12): data for the tafl engine (validator/tafl.py). Attackers (Black)
move first; the king escapes to a corner, is armed, and is captured between two attackers (or
one and a corner) away from the throne, on four sides on it and three beside it; no shieldwall,
exit fort or encirclement; repetition is not enforced."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from lusoria.validator.base import Presets
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import TaflBoard
from lusoria.validator.tafl_settings import RuleIds, Settings, corner_options, corner_rules

BOARD = TaflBoard(7, "d4", "throne", "3p3/3p3/3P3/ppPKPpp/3P3/3p3/3p3 b", corner_escape=True)
IDS = RuleIds(
    turn="B2",
    move="B3",
    restricted="B4",
    capture="B6",
    king="B7",
    escape="B8",
    captured="B7",
    announcement="B12",
    no_move="B11",
    camp="B4",
    camp_capture="B6",
    repetition="B10",
    shieldwall="B9",
    fort="B9",
    encirclement="B9",
    start="B1",
)  # no announcements, camps, shieldwall, forts nor encirclement (B9)


@mypyc_attr(native_class=False)
class Brandubh(TaflGame):
    name = "brandubh"
    title = "Brandubh"
    board = BOARD
    end_rule = "B12"
    options = corner_options({"king-capture": "2", "shieldwall": "none", "exit-forts": "no", "encirclement": "no"})
    presets = Presets({"standard": {}})

    def settings_for(self, option: dict[str, str]) -> Settings:
        return self.on_board(IDS, **corner_rules(option))
