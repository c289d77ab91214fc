"""Tablut (RULES.md T1–T13, T0 its start, and the Tablut options, Ashton Tablut's camps and
repetition among them): data for the tafl engine (validator/tafl.py) — the 9×9 board with its konakis, the
options and presets, and the rules' IDs."""
# lusoria: compiled with mypyc

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from lusoria.validator.base import Presets
from lusoria.validator.tafl import TaflGame
from lusoria.validator.tafl_board import ATTACKER, DEFENDER, KING, TaflBoard, geometry
from lusoria.validator.tafl_settings import RuleIds, Settings, shared_rules

SIZE: Final = 9
SWEDE: Final = DEFENDER
MUSCOVITE: Final = ATTACKER
INITIAL = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3ppp3 w"
BOARD = TaflBoard(SIZE, "e5", "konakis", INITIAL, corner_escape=False)
GEOMETRY: Final = geometry(SIZE, 4 * SIZE + 4)
# camps=ashton (T11, T12): the squares of the west, east, south and north camps
ASHTON_CAMP_SQUARES: Final = tuple(
    GEOMETRY.index[name] for name in "a4 a5 a6 b5 i4 i5 i6 h5 d1 e1 f1 e2 d9 e9 f9 e8".split()
)
# by square: its camp (1 west, 2 east, 3 south, 4 north), 0 for none
ASHTON_CAMPS: Final = bytes(
    ASHTON_CAMP_SQUARES.index(square) // 4 + 1 if square in ASHTON_CAMP_SQUARES else 0 for square in range(SIZE * SIZE)
)
IDS = RuleIds(
    turn="T1",
    move="T2",
    restricted="T3",
    capture="T4",
    king="T5",
    escape="T6",
    captured="T7",
    announcement="T8",
    no_move="T9",
    camp="T11",
    camp_capture="T12",
    repetition="T13",
    shieldwall="T4",
    fort="T6",
    encirclement="T7",
    start="T0",
    end="T10",
)  # Tablut has no shieldwall, forts nor encirclement


@mypyc_attr(native_class=False)
class Tablut(TaflGame):
    name = "tablut"
    title = "Tablut"
    board = BOARD
    end_rule = "T10"
    sides = ("Swedes", "Muscovites")  # the defenders, the king's side, and the attackers
    announces = True  # Raichi (`+`) and Tuichi (`++`, T8)
    position_name = "TablutPosition"  # its positions' type before the tafl engine: archives hold their keys
    options = {
        "first": ("white", "black"),
        "throne-pass": ("all", "king", "none"),
        "throne-stop": ("king", "none"),
        "throne-hostile": ("no", "empty", "always"),
        "king-capture": ("4", "2"),
        "king-armed": ("yes", "no"),
        "tuichi-ends": ("yes", "no"),
        "no-move": ("loses", "passes"),
        "camps": ("none", "ashton"),
        "camp-hostile": ("always", "empty"),
        "repetition": ("none", "draw"),
    }
    searched_as_presets = ("camps", "camp-hostile", "repetition")  # `lusoria rules` tries them as presets and alone
    presets = Presets(
        {
            "seed": {},
            "linnaeus": {
                "first": "black",
                "throne-pass": "none",
                "throne-stop": "none",
                "throne-hostile": "always",
                "king-capture": "2",
                "tuichi-ends": "no",
            },
            "unarmed": {"throne-pass": "king", "king-armed": "no", "throne-hostile": "empty"},
            "aage": {"first": "black", "king-capture": "2", "tuichi-ends": "no", "throne-hostile": "empty"},
            "ashton": {
                "king-capture": "2",
                "throne-pass": "none",
                "throne-stop": "none",
                "throne-hostile": "always",
                "tuichi-ends": "no",
                "camps": "ashton",
                "repetition": "draw",
            },
        }
    )

    def options_in_play(self) -> tuple[str, ...]:
        """camp-hostile is that of the camps: none without them."""
        camps = self.option["camps"] != "none"
        return tuple(key for key in self.options if key != "camp-hostile" or camps)

    def settings_for(self, option: dict[str, str]) -> Settings:
        camp_squares = ASHTON_CAMP_SQUARES if option["camps"] == "ashton" else ()
        return self.on_board(
            IDS,
            **shared_rules(option),
            passers={"all": (SWEDE, KING, MUSCOVITE), "king": (KING,), "none": ()}[option["throne-pass"]],
            king_stops=option["throne-stop"] == "king",
            tuichi_ends=option["tuichi-ends"] == "yes",
            passes=option["no-move"] == "passes",
            camp_squares=camp_squares,
            camps=ASHTON_CAMPS if camp_squares else bytes(SIZE * SIZE),
            camp_hostile_when_held=option["camp-hostile"] == "always",
            repetition=option["repetition"] == "draw",
        )
