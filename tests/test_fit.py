"""Which rule sets fit a record (lusoria rules)."""

import json

from click.testing import CliRunner

from lusoria.cli import main
from lusoria.notation import parse_record
from lusoria.validator.fit import fitting_rules

from conftest import CONFORMANCE, ROOT


def fit(text: str):
    return fitting_rules(parse_record(text))


def test_a_record_legal_under_its_own_rules():
    result = fit('[Game "tablut"]\n1. e3-c3 d1-d3 *')
    assert result.legal and str(result) == "legal under its declared rules (seed)"


def test_one_option_changed():
    # a jump over an enemy piece: legal once jump-over=any
    text = '[Game "latrunculi"]\n[Position "6pp/8/8/8/8/p7/P7/7P w"]\n1. a2^a4 *'
    assert str(fit(text)) == "legal if jump-over=any"


def test_another_variant():
    assert str(fit('[Game "latrunculi"]\n[Variant "petteia"]\n1. @d4 *')) == \
        "legal under variant piso; or under variant seneca"


def test_a_preset_that_bundles_options_is_named():
    text = '[Game "tablut"]\n1... d1-d4 2. e3-c3 e2-e3xe4 *'  # Black first, the throne hostile
    assert str(fit(text)) == "legal under variant linnaeus"


def test_no_rule_set_and_where_every_set_fails():
    result = fit('[Game "tablut"]\n1. e3-d2 *')
    assert not result.changes and result.everywhere and result.furthest == 1
    assert str(result) == "legal under no rule set (577 tried): first conflict at ply 1 under every set"


def test_the_linnaeus_corpus_fits_the_linnaeus_preset():
    if not CONFORMANCE.is_dir():
        return
    for text in (CONFORMANCE / "tablut_linnaeus_valid.lgn").read_text().split("\n\n[Game")[:5]:
        text = "\n".join(line for line in text.splitlines() if not line.startswith("[Rules"))
        assert str(fit(("[Game" if not text.startswith("[Game") else "") + text)) == "legal under variant linnaeus"


def test_the_command(tmp_path):
    result = CliRunner().invoke(main, ["rules", str(ROOT / "samples/errors/latrunculi-moves.lgn"), "--json"])
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert rows[9]["fit"]["changes"] == ["if jump-over=any"]
    assert rows[0]["fit"]["legal"] is False and rows[0]["fit"]["furthest"] == 2
