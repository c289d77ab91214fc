"""Every variant of every registered game, the catalogue's tafl types included (issue 40, item 4):
`lusoria random` writes a record that validates under it, which `lusoria rules` finds legal under
its own rules and the language server shows without a diagnostic; a catalogue type whose rules
lusoria does not play is refused by name."""

import pytest

from lusoria.api import random_records
from lusoria.document import Document
from lusoria.validator.base import OptionError
from lusoria.validator.fit import fitting_rules
from lusoria.validator.games import GAMES
from lusoria.validator.hnefatafl import refusals
from lusoria.validator.replay import check

VARIANTS = [(game, variant) for game in GAMES for variant in GAMES[game].presets]
PLIES = 30  # enough for captures on the small boards, cheap on the large ones


@pytest.mark.parametrize("game, variant", VARIANTS, ids=[f"{game}-{variant}" for game, variant in VARIANTS])
def test_random_writes_a_record_that_validates_under_its_variant(game, variant):
    [text] = random_records(game, 1, seed=5, tags={"Variant": variant}, max_plies=PLIES)
    report = check(text)
    assert report.valid, [diagnostic.message for diagnostic in report.diagnostics]
    assert (report.rules.name, report.rules.variant) == (game, variant)
    assert 0 < report.plies <= PLIES and report.plies == len(report.record.main.plies)
    assert report.record.result == (report.outcome.result if report.outcome else "*")
    fit = fitting_rules(report.record)
    assert fit.legal and fit.sets[0].get("Variant", variant) == variant and "Rules" not in fit.sets[0]
    document = Document()
    document.update(document.split(text))
    assert list(document.diagnostics()) == []


UNWRITTEN = [
    variant for variant, options in GAMES["hnefatafl"].presets.items() if options.get("berw") in ("n", "a", "u")
]


@pytest.mark.parametrize("variant", UNWRITTEN)
def test_random_games_of_a_type_whose_records_leave_out_berserk_continuations_leave_none_out(variant):
    """Its random plies list their captures: a bare ply that captures would read as one played
    after left-out continuations (G16)."""
    for text in random_records("hnefatafl", 3, seed=5, tags={"Variant": variant}, max_plies=60):
        assert [d.message for d in check(text).diagnostics if d.rule == "G16"] == []


@pytest.mark.parametrize("variant, why", sorted(refusals().items()))
def test_a_type_whose_rules_lusoria_does_not_play_is_refused_by_name(variant, why):
    with pytest.raises(OptionError) as refused:
        next(random_records("hnefatafl", 1, tags={"Variant": variant}))
    assert str(refused.value) == why  # the type's title, then the mechanic lusoria does not play
