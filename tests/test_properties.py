"""Properties over random legal games (hypothesis, fixed seeds)."""

import random
import re

from hypothesis import assume, given
from hypothesis import strategies as st

from lusoria.api import format_record, random_record
from lusoria.notation import parse_record, write_record
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check

PRESETS = [(name, variant) for name, cls in GAMES.items() for variant in cls.presets]


@st.composite
def games(draw, max_plies: int = 80):
    """A random legal game: its rules and its record."""
    name, variant = draw(st.sampled_from(PRESETS))
    rules = GAMES[name](variant=variant)
    record = random_record(rules, random.Random(draw(st.integers(0, 2**32))), draw(st.integers(1, max_plies)))
    return rules, record


comments = st.text(st.characters(blacklist_characters="{}", blacklist_categories=("Cs", "Cc")), max_size=20)


@given(games())
def test_random_legal_games_validate_clean(game):
    rules, record = game
    report = check(write_record(record, rules.turn(rules.initial()) == 1))
    assert report.valid and report.diagnostics == []


@given(games(), st.data())
def test_fmt_round_trip(game, data):
    """fmt is idempotent, and a canonical record reads back equal to itself."""
    rules, record = game
    for ply in record.main.plies:
        ply.nags = data.draw(st.lists(st.integers(0, 255), max_size=2))
        ply.comments = [" ".join(c.split()) for c in data.draw(st.lists(comments, max_size=1))]
    black_first = rules.turn(rules.initial()) == 1
    text = write_record(record, black_first)
    formatted, report = format_record(text)
    assert report.valid
    assert formatted == text
    assert parse_record(formatted) == record
    assert format_record(formatted)[0] == formatted


@given(games(), st.data())
def test_fmt_writes_out_omitted_captures(game, data):
    rules, record = game
    written = write_record(record, rules.turn(rules.initial()) == 1)
    for ply in record.main.plies:
        if data.draw(st.booleans()):
            ply.text = ply.text.split("x")[0] + ("+" * ply.text.count("+"))
    shortened = write_record(record, rules.turn(rules.initial()) == 1)
    assert format_record(shortened)[0] == written


def movement(ply: str) -> str:
    """A ply without what follows the move itself (captures, removal, marks)."""
    return re.split(r"[x~#+]", ply)[0]


@given(games(max_plies=60), st.data())
def test_a_corrupted_ply_is_caught_at_that_ply_or_earlier(game, data):
    """Put in place of ply k a ply that is legal elsewhere in the game but not here."""
    rules, record = game
    plies = record.main.plies
    index = data.draw(st.integers(0, len(plies) - 1))
    positions = check(write_record(record, rules.turn(rules.initial()) == 1)).positions
    here = {movement(ply) for ply in rules.legal_plies(positions[index])}
    donors = [ply for position in positions if position != positions[index]
              for ply in rules.legal_plies(position) if movement(ply) not in here]
    assume(donors)
    plies[index].text = data.draw(st.sampled_from(donors))
    report = check(write_record(record, rules.turn(rules.initial()) == 1))
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert errors and errors[0].ply == index + 1


@given(games(max_plies=30), st.text(alphabet="abcdefghijK123456789-x/+ ?!", min_size=1, max_size=12),
       st.integers(0, 29))
def test_any_ply_text_gives_diagnostics_never_a_traceback(game, text, where):
    rules, record = game
    plies = record.main.plies
    plies[where % len(plies)].text = text
    report = check(write_record(record, rules.turn(rules.initial()) == 1))
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert all(d.ply is None or d.ply <= where % len(plies) + 1 for d in errors[:1])
    assert not errors or not report.valid
