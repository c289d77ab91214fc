"""A toy tafl game on a 7×7 board, from the tafl engine alone: data (its board, the IDs of its
rules, the settings of its one rule set, its rules' texts in toytafl.toml), and the grammar of 7×7
plies lusoria has."""

from importlib.resources import files

from lusoria.validator.base import BLACK
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import ATTACKER, DEFENDER, KING, TaflBoard
from lusoria.validator.tafl_settings import RuleIds, Settings

BOARD = TaflBoard(7, "d4", "throne", "2ppp2/3p3/p1PPP1p/ppPKPpp/p1PPP1p/3p3/2ppp2 b", corner_escape=True)
IDS = RuleIds(
    turn="Y1",
    move="Y2",
    restricted="Y3",
    capture="Y4",
    king="Y5",
    escape="Y6",
    captured="Y5",
    announcement="Y9",
    no_move="Y8",
    camp="Y3",
    camp_capture="Y4",
    repetition="Y7",
    shieldwall="Y4",
    fort="Y6",
    encirclement="Y5",
)


class ToyTafl(TaflGame):
    name = "toytafl"
    title = "Toy tafl"
    grammar = str(files("lusoria.grammar") / "brandubh.lark")  # squares a1–g7
    board = BOARD
    end_rule = "Y9"
    options = dict[str, tuple[str, ...]]()
    presets = {"standard": dict[str, str]()}

    def settings_for(self, option: dict[str, str]) -> Settings:
        return self.on_board(
            IDS,
            passers=(KING,),
            king_stops=True,
            hostile="always",
            king_like_soldier=True,
            captors=((DEFENDER, KING), (ATTACKER,)),
            first=BLACK,
        )
