"""The one walk of the line tree (notation/visitor.py): order, places, skipping, depth."""

import re

from conftest import ROOT

from lusoria.notation import (  # (as docs/api.md imports them: newcomer-57b found them missing; SKIP, h81a)
    SKIP,
    Visitor,
    parse_record,
    walk,
)
from lusoria.notation.model import Line, Ply, Record
from lusoria.validator.replay import check

TEXT = '[Game "tablut"]\n{start} 1. e3-c3 $1 {a} (1. d1-d3 {b} (1. i6-h6) 2. i5-h5) d1-d3 (2... a6-b6) 2. c3-e3 *'


class Events(Visitor):
    def __init__(self, skip_lines=()):
        self.events, self.skip_lines = [], skip_lines

    def begin_line(self, line, number):
        self.events.append(("begin", number))
        return SKIP if number in self.skip_lines else None

    def visit_ply(self, ply, number, key):
        self.events.append((ply.text, number, key))

    def visit_nag(self, nag):
        self.events.append(("nag", nag))

    def visit_comment(self, comment):
        self.events.append(("comment", comment))

    def end_line(self, line, number):
        self.events.append(("end", number))

    def visit_result(self, result):
        self.events.append(("result", result))


def test_the_walk_goes_in_the_order_written_with_numbers_and_keys():
    events = Events()
    walk(parse_record(TEXT), events)
    assert events.events == [
        ("begin", 0),
        ("comment", "start"),
        ("e3-c3", 1, (0, 0)),
        ("nag", 1),
        ("comment", "a"),
        ("begin", 1),
        ("d1-d3", 1, (1, 0)),
        ("comment", "b"),
        ("begin", 2),
        ("i6-h6", 1, (2, 0)),
        ("end", 2),
        ("i5-h5", 2, (1, 1)),
        ("end", 1),
        ("d1-d3", 2, (0, 1)),
        ("begin", 3),
        ("a6-b6", 2, (3, 0)),
        ("end", 3),
        ("c3-e3", 3, (0, 2)),
        ("end", 0),
        ("result", "*"),
    ]


def test_a_skipped_line_is_not_walked_nor_ended_and_the_next_lines_keep_their_numbers():
    events = Events(skip_lines=[1])
    walk(parse_record(TEXT), events)
    assert ("begin", 1) in events.events and ("end", 1) not in events.events and ("begin", 2) not in events.events
    assert [e[::2] for e in events.events if len(e) == 3] == [
        ("e3-c3", (0, 0)),
        ("d1-d3", (0, 1)),
        ("a6-b6", (3, 0)),
        ("c3-e3", (0, 2)),
    ]


def test_a_skipped_line_counts_the_lines_nested_in_its_variations_too():
    text = '[Game "tablut"]\n1. e3-c3 (1. d1-d3 (1. i6-h6 (1. a4-b4))) d1-d3 (2... a6-b6) *'  # lines 1 > 2 > 3, then 4
    events = Events(skip_lines=[1])
    walk(parse_record(text), events)
    assert [e[::2] for e in events.events if len(e) == 3] == [("e3-c3", (0, 0)), ("d1-d3", (0, 1)), ("a6-b6", (4, 0))]


def test_deep_nesting_costs_no_recursion():
    depth = 50_000
    line = Line([Ply("e3-c3")])
    for _ in range(depth):
        line = Line([Ply("e3-c3", variations=[line])])
    events = Events()
    walk(Record({}, line, "*"), events)
    assert events.events[-2:] == [("end", 0), ("result", "*")]
    assert ("begin", depth) in events.events and ("e3-c3", 1, (depth, 0)) in events.events


def test_canonical_plies_are_kept_by_their_key_in_the_tree():
    report = check('[Game "tablut"]\n1. e3-c3 (1. e3-d3 (1. e3-f3) d1-d2) d1-d3 (1... d1-d2) *')
    assert report.valid and report.canonical == {
        (0, 0): "e3-c3",
        (0, 1): "d1-d3",
        (1, 0): "e3-d3",
        (1, 1): "d1-d2",
        (2, 0): "e3-f3",
        (3, 0): "d1-d2",
    }


def test_the_design_recipe_runs():
    design = (ROOT / "docs/design.md").read_text()
    recipe = re.search(r"## Recipe: walk a record.*?```python\n(.*?)```", design, re.S)[1]
    exec(compile(recipe, "design.md", "exec"), {})


def test_skip_is_shown_by_its_name():
    assert repr(SKIP) == "SKIP"  # in help(Visitor.begin_line) and in a test's failure
