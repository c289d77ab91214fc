"""The conformance corpora beside the project (../shared/conformance): a second opinion."""

import csv

import pytest
from conftest import CONFORMANCE, require_conformance

from lusoria.api import validate
from lusoria.formats.sources import read_sources
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check

NAMES = [
    "tablut",
    "tablut_linnaeus",
    "tablut_unarmed",
    "latrunculi_seneca",
    "latrunculi_piso",
    "latrunculi_petteia",
    "latrunculi_dux",
    "laquet",
]


@pytest.fixture(autouse=True)
def corpora():
    require_conformance()


@pytest.mark.parametrize("name", NAMES)
def test_valid_corpus_validates_clean(name):
    reports = [check(source) for source in read_sources(str(CONFORMANCE / f"{name}_valid.lgn"))]
    assert len(reports) == 30
    assert [(r.source.index, r.diagnostics) for r in reports if r.diagnostics] == []


# The rule each kind of mistake breaks (RULES.md); a Latrunculi move's shape is its variant's rule.
TABLUT_RULES = {
    "through": "T2",
    "onto": "T2",
    "shape": "T2",
    "empty_from": "T2",
    "opponent_piece": "T1",
    "throne": "T3",
    "false_capture": "T4",
}
LATRUNCULI_RULES = {
    "opponent_piece": "L0",
    "empty_from": "L0",
    "false_capture": "L1",
    "placement_occupied": "S1",
    "jump_over_enemy": "S2",
    "wrong_removal": "S4",
}
MOVE_RULES = {"seneca": "S2", "piso": "S2", "petteia": "E2", "dux": "X2"}
LAQUET_RULES = {
    "wrong_distance": "Q3",
    "onto_enemy": "Q3",
    "intermediate_blocked": "Q3",
    "extra_die": "Q2",
    "unused_die": "Q5",
    "missing_leftover": "Q6",
    "bear_off_early": "Q7",
}


def expected_rule(name: str, kind: str) -> str:
    game, _, variant = name.partition("_")
    if game == "tablut":
        return TABLUT_RULES[kind]
    if game == "laquet":
        return LAQUET_RULES[kind]
    return MOVE_RULES[variant] if kind in ("through", "onto", "shape") else LATRUNCULI_RULES[kind]


@pytest.mark.parametrize("name", NAMES)
def test_illegal_corpus_first_error_at_the_expected_ply_with_the_kinds_rule(name):
    reports = [check(source) for source in read_sources(str(CONFORMANCE / f"{name}_illegal.lgn"))]
    with open(CONFORMANCE / f"{name}_illegal.expected.tsv") as table:
        expected = list(csv.DictReader(table, delimiter="\t"))
    assert len(reports) == len(expected) == 30
    found = []
    for row in expected:
        report = reports[int(row["record_index"])]
        first = next(d for d in report.diagnostics if d.severity == "error")
        found.append((row["record_index"], row["kind"], first.rule, first.ply))
    assert found == [
        (row["record_index"], row["kind"], expected_rule(name, row["kind"]), int(row["ply"])) for row in expected
    ]


# -- the tafl family: the Rust engines' CSV lines, read by lusoria's csv reader ---------------------------

TAFL = ["copenhagen", "brandubh"]


def tafl_verdicts(name: str) -> list:
    return list(validate([str(CONFORMANCE / name)]))


@pytest.mark.parametrize("game", TAFL)
def test_tafl_valid_corpus_validates_clean_to_the_end(game):
    verdicts = tafl_verdicts(f"{game}_valid.csv")
    assert len(verdicts) == 300 and {v.game for v in verdicts} == {game}
    assert [(v.source.line, v.diagnostics) for v in verdicts if v.diagnostics] == []


@pytest.mark.parametrize("game", TAFL)
def test_tafl_illegal_corpus_first_error_at_the_expected_ply_with_its_rule(game):
    verdicts = tafl_verdicts(f"{game}_illegal.csv")
    with open(CONFORMANCE / f"{game}_illegal.expected.tsv") as table:
        expected = list(csv.DictReader(table, delimiter="\t"))
    ids = GAMES[game]().settings.ids
    capture_rules = {ids.capture, ids.king, ids.shieldwall}  # a capture list the rules do not make
    found, wanted = [], []
    for row in expected:
        verdict = verdicts[int(row["line"]) - 1]
        first = next(d for d in verdict.diagnostics if d.severity == "error")
        found.append(
            (row["line"], first.ply, first.rule if row["rule"] != "capture-list" else first.rule in capture_rules)
        )
        wanted.append(
            (row["line"], int(row["first_error_ply"]), row["rule"] if row["rule"] != "capture-list" else True)
        )
    assert len(verdicts) == len(expected) == 300 and found == wanted
