"""Properties over random legal games (hypothesis, fixed seeds).

The games come from every game, variant and combination of rule options (and Latrunculi
boards of other sizes), played by a player that, with a drawn probability, prefers the
eventful plies: captures, removals of inciti, dux moves, bear-offs, leftover dice, passes.
Some properties check the validator against facts read off the board, not against the
move generator that made the game."""

import random
import re
from dataclasses import replace

import pytest
from conftest import edit_tokens, located_inside
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lusoria.api import format_record, played_record, random_record
from lusoria.notation import parse_record, write_record
from lusoria.validator.base import BLACK, SIDE_NAMES, Game
from lusoria.validator.games import GAMES
from lusoria.validator.laquet import Laquet
from lusoria.validator.latrunculi import Latrunculi
from lusoria.validator.replay import check

EVENTFUL = re.compile(r"x|~|^D|off|>|--")
BOARDS = [(8, 8), (8, 8), (6, 6), (10, 12), (16, 9)]  # seneca and piso only


def rules_for(name: str, variant: str, options: dict[str, str], board: tuple[int, int]) -> Game:
    if name == "latrunculi":
        return Latrunculi(options, variant, board if variant in ("seneca", "piso") else (8, 8))
    return GAMES[name](options, variant)


def drawn(cls: type[Game]) -> list[tuple[str, tuple[str, ...]]]:
    """The options a random rule set draws: all but how a tafl variant's records write its berserk
    moves (`berw`, the variant's own: lusoria plays its berserk moves only as records leave out
    their continuations)."""
    return [(key, values) for key, values in cls.options.items() if key != "berw"]


@st.composite
def rule_sets(draw) -> Game:
    """A game, a variant, a value for every option, a board."""
    name = draw(st.sampled_from(sorted(GAMES)))
    cls = GAMES[name]
    variant = draw(st.sampled_from(list(cls.presets)))
    options = {key: draw(st.sampled_from(values)) for key, values in drawn(cls) if len(values) > 1}
    return rules_for(name, variant, options, draw(st.sampled_from(BOARDS)))


def eventful_ply(rules: Game, position, rng: random.Random, eagerness: float) -> str | None:
    """A random legal ply; with probability `eagerness`, an eventful one when there is one."""
    if rng.random() >= eagerness or rules.outcome(position) is not None:
        return rules.random_ply(position, rng)
    if isinstance(rules, Laquet):
        plies = rules.plies_for_roll(position, tuple(sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)))
    else:
        plies = rules.legal_plies(position)
    eventful = [ply for ply in plies if EVENTFUL.search(ply)]
    return rng.choice(eventful or plies) if plies else None


def eventful_game(rules: Game, seed: int, plies: int, eagerness: float):
    """A random legal game of at most `plies` plies, as a record."""
    rng = random.Random(seed)
    player = type(rules)(
        rules.option, rules.variant, *([(rules.geo.width, rules.geo.height)] if isinstance(rules, Latrunculi) else [])
    )
    player.random_ply = lambda position, rng: eventful_ply(rules, position, rng, eagerness)
    return random_record(player, rng, plies)


@st.composite
def games(draw, max_plies: int = 80):
    """A random legal game: its rules and its record. Short games and long ones (past
    the placement of seneca and piso), played plainly or eagerly."""
    rules = draw(rule_sets())
    plies = draw(st.one_of(st.integers(1, 12), st.integers(max_plies // 2, max_plies)))
    eagerness = draw(st.sampled_from([0.0, 0.6, 0.95]))
    return rules, eventful_game(rules, draw(st.integers(0, 2**32)), plies, eagerness)


def write(rules: Game, record, whites: bool = False) -> str:
    """The record numbered as its game's players number it (from its first mover: canonical), or
    with `whites` from White, as chess does (`1... d1-d3 2. e4-h4` where Black moves first)."""
    return write_record(record, whites and rules.turn(rules.initial()) == BLACK, continued=rules.continued)


comments = st.text(st.characters(blacklist_characters="{}", blacklist_categories=("Cs", "Cc")), max_size=20)


def test_the_games_are_eventful():
    """What the eager player's games hold (seeds 0-19, each game under each variant in turn)."""
    draws = random.Random(1)
    found = {"capture": 0, "incitus removed": 0, "dux move": 0, "bear-off": 0, "leftover": 0, "past placement": 0}
    for seed in range(20):
        for name in sorted(GAMES):
            cls = GAMES[name]
            variant = list(cls.presets)[seed % len(cls.presets)]
            options = {key: draws.choice(values) for key, values in drawn(cls)}
            rules = rules_for(name, variant, options, BOARDS[seed % len(BOARDS)])
            text = " ".join(p.text for p in eventful_game(rules, seed, 80, 0.95).main.plies)
            found["capture"] += "x" in text
            found["incitus removed"] += "~" in text
            found["dux move"] += bool(re.search(r"(^| )D", text))
            found["bear-off"] += "off" in text
            found["leftover"] += ">" in text
            found["past placement"] += variant in ("seneca", "piso") and text.count("@") == 32 and "-" in text
    assert found["capture"] >= 30, found  # of 40 Tablut and Latrunculi games
    assert min(found.values()) >= 2, found


@given(games(), st.booleans())
def test_random_legal_games_validate_clean(game, whites):
    """In either numbering of the moves (both are read)."""
    rules, record = game
    report = check(write(rules, record, whites))
    assert report.valid and report.diagnostics == []
    assert report.plies == len(record.main.plies) and len(report.positions) == report.plies + 1
    assert report.record.result == record.result


@given(games())
def test_a_game_played_in_code_is_written_as_the_record_of_its_plies(game):
    """`played_record`: each ply played from the start, the record in canonical form, under the
    tags that choose its rules (a variant, its options, its board), checked clean."""
    rules, record = game
    given = {name: value for name, value in record.tags.items() if name not in ("Game", "Variant", "Rules", "Board")}
    text = played_record(rules, [ply.text for ply in record.main.plies], {**given, "White": "Karin"})
    assert text == write(rules, replace(record, tags={**record.tags, "White": "Karin"}))
    report = check(text)
    assert report.valid and report.diagnostics == [] and report.rules.option == rules.option


@given(games(), st.data())
def test_fmt_round_trip(game, data):
    """fmt is idempotent, and a canonical record reads back equal to itself."""
    rules, record = game
    for ply in record.main.plies:
        ply.nags = data.draw(st.lists(st.integers(0, 255), max_size=2))
        ply.comments = [" ".join(c.split()) for c in data.draw(st.lists(comments, max_size=1))]
    text = write(rules, record)
    formatted, report = format_record(text)
    assert report.valid
    assert formatted == text
    assert parse_record(formatted) == record
    assert format_record(formatted)[0] == formatted


escape_texts = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12).map(lambda text: "%" + text)


def unnumbered(text: str) -> list[str]:
    """The tokens of a record's text, its move numbers left out."""
    return [token for token in text.split() if not re.fullmatch(r"[0-9]+\.(?:\.\.)?", token)]


@settings(max_examples=40)
@given(games(max_plies=30), st.data())
def test_fmt_keeps_every_escape_line_in_its_order(game, data):
    """`%` lines anywhere between the lines of a record (before it, among its tags, between any two
    of its plies, after it): fmt keeps each, in their order, writes the record as it writes
    it without them (but the lines broken, and a second ply numbered, after each), and formats its own output to itself."""
    rules, record = game
    canonical = write(rules, record)
    header = canonical.partition("\n\n")[0]
    lines = [*header.split("\n"), "", *(ply.text for ply in record.main.plies), record.result]  # a ply a line
    escapes = data.draw(st.lists(st.tuples(st.integers(0, len(lines)), escape_texts), max_size=5))
    for place, escape in sorted(escapes, key=lambda each: each[0], reverse=True):
        lines.insert(place, escape)
    text = "\n".join(lines) + "\n"
    formatted, report = format_record(text)
    assert report.valid
    kept = [line for line in formatted.split("\n") if line.startswith("%")]
    assert kept == [line for line in lines if line.startswith("%")]
    written = " ".join(line for line in formatted.split("\n") if not line.startswith("%"))
    assert unnumbered(written) == unnumbered(canonical) and parse_record(formatted) == parse_record(canonical)
    assert format_record(formatted)[0] == formatted


@given(games(), st.data())
def test_fmt_writes_out_omitted_captures(game, data):
    rules, record = game
    written = write(rules, record)
    for ply in record.main.plies:
        if data.draw(st.booleans()):
            ply.text = ply.text.split("x")[0] + ("+" * ply.text.count("+"))
    shortened = write(rules, record)
    assert format_record(shortened)[0] == written


def movement(ply: str) -> str:
    """A ply without what follows the move itself (captures, removal, marks)."""
    return re.split(r"[x~#+]", ply)[0]


@pytest.mark.slow
@given(games(max_plies=60), st.data())
def test_a_corrupted_ply_is_caught_at_that_ply_or_earlier(game, data):
    """Put in place of ply k a ply that is legal elsewhere in the game but not here."""
    rules, record = game
    plies = record.main.plies
    index = data.draw(st.integers(0, len(plies) - 1))
    positions = check(write(rules, record)).positions
    here = {movement(ply) for ply in rules.legal_plies(positions[index])}
    donors = [
        ply
        for position in positions
        if position != positions[index]
        for ply in rules.legal_plies(position)
        if movement(ply) not in here
    ]
    assume(donors)
    plies[index].text = data.draw(st.sampled_from(donors))
    errors = [d for d in check(write(rules, record)).diagnostics if d.severity == "error"]
    assert errors and errors[0].ply == index + 1


# -- one square changed: the verdict read off the board, not from the move generator ---------


def board_squares(rules: Game, position) -> tuple[list[str], list[str], object]:
    """(names of the empty squares, of the occupied ones, name -> neighbouring names)."""
    if isinstance(rules, Latrunculi):
        names, neighbours = rules.geo.names, rules.geo.steps
    else:
        names, neighbours = rules.geo.names, rules.geo.neighbours
    empty = [names[s] for s, code in enumerate(position.board) if not code]
    occupied = [names[s] for s, code in enumerate(position.board) if code]
    return empty, occupied, lambda name: [names[n] for n in neighbours[names.index(name)]]


def changed_grid_ply(rules: Game, position, ply: str, data) -> tuple[str, str, str]:
    """The ply with one square changed so that the board alone says it is illegal:
    (new ply, rule, words of the message)."""
    empty, occupied, neighbours = board_squares(rules, position)
    if ply.startswith("@"):  # a placement onto an occupied square
        assume(occupied)
        square = data.draw(st.sampled_from(occupied))
        return "@" + square, "S1", f"{square} is occupied"
    piece, origin = re.match(r"([KPD]?)([a-p][0-9]+)", ply).groups()
    kind = data.draw(st.sampled_from(["empty origin", "occupied target"]))
    if kind == "empty origin":
        square = data.draw(st.sampled_from(empty))
        rest = re.split(r"([-^=])", ply, maxsplit=1)
        if rest[1] == "=":  # a berserk move: the piece that captured must move again (G15)
            return piece + square + "=" + rest[2], rules.settings.ids.berserk, "moves again (berserk)"
        return (
            piece + square + rest[1] + rest[2],
            "L0" if isinstance(rules, Latrunculi) else rules.settings.ids.move,
            f"there is no piece on {square}",
        )
    blocked = [n for n in neighbours(origin) if n in occupied]
    assume(blocked)
    square = data.draw(st.sampled_from(blocked))
    rule = rules.move_rule if isinstance(rules, Latrunculi) else rules.settings.ids.move
    return f"{piece}{origin}-{square}", rule, f"{square} is occupied"


def changed_laquet_ply(rules: Laquet, position, ply: str, data) -> tuple[str, str, str]:
    """The first play moved, distance kept, to a point without a checker of the mover's: Q1 on
    the enemy's checkers, Q3 on an empty point."""
    match = re.match(r"([0-9]+: )([0-9]+)/([0-9]+)(?= |$)", ply)
    assume(match)
    start, end = int(match[2]), int(match[3])
    side = position.turn
    free = [p for p in range(1, 19 - (end - start)) if not position.checkers(side, p)]
    assume(free)
    point = data.draw(st.sampled_from(free))
    new = f"{match[1]}{point}/{point + end - start}" + ply[match.end() :]
    if position.checkers(1 - side, point):
        return new, "Q1", f"the checkers on point {point} are {SIDE_NAMES[1 - side]}'s"
    return new, "Q3", f"there is no {SIDE_NAMES[side]} checker on point {point}"


@given(games(max_plies=60), st.data())
def test_a_legal_ply_with_one_square_changed_is_refused_with_the_boards_reason(game, data):
    rules, record = game
    plies = record.main.plies
    report = check(write(rules, record))
    index = data.draw(st.integers(0, len(plies) - 1))
    position, ply = report.positions[index], plies[index].text
    assume(ply != "--" and not ply.endswith(": --"))
    change = changed_laquet_ply if isinstance(report.rules, Laquet) else changed_grid_ply
    plies[index].text, rule, words = change(report.rules, position, ply, data)
    errors = [d for d in check(write(rules, record)).diagnostics if d.severity == "error"]
    assert (errors[0].rule, errors[0].ply, errors[0].text) == (rule, index + 1, plies[index].text)
    assert words in errors[0].message


# -- fuzzing: no traceback, and what can be said of the diagnostics -----------------------------


@pytest.mark.slow
@given(
    games(max_plies=30),
    st.text(alphabet="abcdefghijK123456789-x/+ ?!@^~:>", min_size=1, max_size=12),
    st.integers(0, 29),
)
def test_any_ply_text_gives_located_diagnostics_at_or_before_it(game, text, where):
    """A fuzz test: any text in place of one ply is read without a traceback; an error, if
    any, comes no later than that ply, and every diagnostic points inside the record."""
    rules, record = game
    plies = record.main.plies
    plies[where % len(plies)].text = text
    written = write(rules, record)
    report = check(written)
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert all(d.ply is None or d.ply <= where % len(plies) + 1 for d in errors[:1])
    assert located_inside(written, report.diagnostics)
    if report.valid:  # the text was read as a legal ply: fmt writes it canonically, for good
        formatted = format_record(written)[0]
        assert format_record(formatted)[0] == formatted


MUTATIONS = st.sampled_from(["delete", "duplicate", "swap", "digit", "letter"])


@settings(max_examples=30)
@given(
    games(max_plies=40),
    st.lists(st.tuples(MUTATIONS, st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=3),
)
def test_fmt_is_a_fixed_point_of_mutated_records(game, mutations):
    """Records broken by a few token edits: fmt's output formats to itself, and says the
    same errors (rule and ply) as the input did."""
    rules, record = game
    header, _, movetext = write(rules, record).partition("\n\n")
    tokens = movetext.split()
    for kind, i, j in mutations:
        i, j = i % len(tokens), j % len(tokens)
        if edit_tokens(tokens, kind, i, j):
            continue
        if kind == "digit":
            tokens[i] = re.sub(r"[1-9]", lambda m: str(int(m[0]) % 9 + 1), tokens[i], count=1)
        else:
            tokens[i] = re.sub(r"[a-h]", lambda m: "abcdefgha"["abcdefgh".index(m[0]) + 1], tokens[i], count=1)
    text = header + "\n\n" + " ".join(tokens) + "\n"
    formatted, report = format_record(text)
    again, second = format_record(formatted)
    assert again == formatted
    assert located_inside(text, report.diagnostics) and located_inside(formatted, second.diagnostics)
    if report.record is not None:

        def errors(r):
            return [(d.rule, d.ply) for d in r.diagnostics if d.severity == "error"]

        assert errors(second) == errors(report)
