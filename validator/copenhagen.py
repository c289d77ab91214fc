"""Copenhagen Hnefatafl 11×11 (RULES.md C1–C14): data for the tafl engine (validator/tafl.py) —
the board with its throne and corners, the options (those of the corner-escape games), and the
rules' IDs. Attackers (Black) move first; the king escapes to a corner, is armed, and is captured
on four sides (three and the throne); shieldwalls, exit forts and encirclement are in the rules;
repetition is not enforced (an option ends the game at the third occurrence). Fetlar Hnefatafl is its preset without shieldwalls and exit forts."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from lusoria.validator.base import Presets
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import TaflBoard
from lusoria.validator.tafl_settings import RuleIds, Settings, corner_options, corner_rules

BOARD = TaflBoard(
    11, "f6", "throne", "3ppppp3/5p5/11/p4P4p/p3PPP3p/pp1PPKPP1pp/p3PPP3p/p4P4p/11/5p5/3ppppp3 b", corner_escape=True
)
IDS = RuleIds(
    turn="C2",
    move="C3",
    restricted="C4",
    capture="C6",
    king="C8",
    escape="C9",
    captured="C8",
    announcement="C14",
    no_move="C13",
    camp="C4",
    camp_capture="C6",
    repetition="C12",
    shieldwall="C7",
    fort="C10",
    encirclement="C11",
    start="C1",
)  # no announcements nor camps in Copenhagen


@mypyc_attr(native_class=False)
class Copenhagen(TaflGame):
    name = "copenhagen"
    title = "Copenhagen"
    board = BOARD
    end_rule = "C14"
    options = corner_options({})
    presets = Presets({"standard": {}, "fetlar": {"shieldwall": "none", "exit-forts": "no"}})

    def settings_for(self, option: dict[str, str]) -> Settings:
        return self.on_board(IDS, **corner_rules(option))
