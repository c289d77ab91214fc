"""How a record's game ended, in the few words the archive keeps for every record
(`records.ending`, `lusoria query --ending`, `lusoria stats`): the outcome the rules gave when
the replay reached the end (each game names its own endings, `Game.endings`: `king captured`,
`borne off`; an outcome that names none: its rule ID), else what the Termination tag says, read
for common words (`resigned`, `timeout`), else what the result leaves (`unfinished` for `*`,
`unknown` for a result that no ply and no tag explains)."""

from __future__ import annotations

from lusoria.validator.replay import Report

RESIGNED, TIMEOUT, AGREED, ABANDONED, ADJUDICATED = "resigned", "timeout", "agreed", "abandoned", "adjudicated"
REPETITION, NO_MOVE = "repetition", "no move"
OTHER, UNFINISHED, UNKNOWN = "other", "unfinished", "unknown"
# Words of a Termination tag (in any case) and the ending they name, the first found
TERMINATION_WORDS = (
    ("resign", RESIGNED),
    ("time", TIMEOUT),
    ("agree", AGREED),
    ("abandon", ABANDONED),
    ("adjudicat", ADJUDICATED),
    ("repetition", REPETITION),
    ("stalemate", NO_MOVE),
    ("no move", NO_MOVE),
    ("no legal move", NO_MOVE),
)
GENERAL = (RESIGNED, TIMEOUT, AGREED, ABANDONED, ADJUDICATED, REPETITION, NO_MOVE, OTHER, UNFINISHED, UNKNOWN)


def ending(report: Report) -> str:
    """How the game of a checked record ended (see the module)."""
    if report.outcome is not None:
        return report.outcome.ending or report.outcome.rule
    termination = " ".join(report.tags.get("Termination", "").lower().split())
    if termination:
        if report.rules is not None and termination in report.rules.endings:
            return termination
        return termination_ending(termination) or OTHER
    return UNFINISHED if report.result in (None, "*") else UNKNOWN


def termination_ending(text: str) -> str | None:
    """The ending the words of a Termination tag name (`text`, in lower case: `time forfeit`, timeout), if any."""
    return next((named for word, named in TERMINATION_WORDS if word in text), None)


def known_endings() -> tuple[str, ...]:
    """Every ending a record may have: the games' (every game of the registry) and the others."""
    from lusoria.validator.games import GAMES

    return tuple(dict.fromkeys([ending for name in GAMES for ending in GAMES[name].endings] + list(GENERAL)))
