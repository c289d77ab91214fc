"""The conformance corpora beside the project (../shared/conformance): a second opinion."""

import csv

import pytest

from lusoria.notation.sources import read_sources
from lusoria.validator.replay import check

from conftest import CONFORMANCE

NAMES = ["tablut", "tablut_linnaeus", "tablut_unarmed",
         "latrunculi_seneca", "latrunculi_piso", "latrunculi_petteia", "latrunculi_dux", "laquet"]

pytestmark = pytest.mark.skipif(not CONFORMANCE.is_dir(), reason=(
    f"no conformance corpora at {CONFORMANCE}: these *_valid.lgn, *_illegal.lgn and *.expected.tsv files, "
    "records judged by an independent implementation of the notation and rules contracts, live beside the "
    "project in the development workspace (../shared/conformance), not in the repository or the wheel"))


@pytest.mark.parametrize("name", NAMES)
def test_valid_corpus_validates_clean(name):
    reports = [check(source) for source in read_sources(str(CONFORMANCE / f"{name}_valid.lgn"))]
    assert len(reports) == 30
    assert [(r.source.index, r.diagnostics) for r in reports if r.diagnostics] == []


@pytest.mark.parametrize("name", NAMES)
def test_illegal_corpus_first_error_at_the_expected_ply(name):
    reports = [check(source) for source in read_sources(str(CONFORMANCE / f"{name}_illegal.lgn"))]
    with open(CONFORMANCE / f"{name}_illegal.expected.tsv") as table:
        expected = list(csv.DictReader(table, delimiter="\t"))
    found = []
    for row in expected:
        report = reports[int(row["record_index"])]
        first = next(d for d in report.diagnostics if d.severity == "error")
        found.append((row["record_index"], row["kind"], first.ply))
    assert found == [(row["record_index"], row["kind"], int(row["ply"])) for row in expected]

