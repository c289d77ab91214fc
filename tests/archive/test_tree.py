"""The opening explorer folds the plies of any square board by its symmetries (`--symmetric`)."""

from collections import Counter

import pytest
from explorer import folded_by_hand

from lusoria.api import random_records
from lusoria.archive import Archive, Filters


@pytest.mark.parametrize("game", ["copenhagen", "brandubh", "tablut"])
def test_the_folded_tree_of_any_square_board_sums_the_plies_it_folds(game, tmp_path):
    archive = Archive(str(tmp_path / "a.db"))
    archive.import_paths(["\n".join(random_records(game, 60, seed=9, max_plies=6))])
    folded = archive.tree(record=1, ply=0, filters=Filters(symmetric=True))
    assert Counter((n.games, n.white, n.draws, n.black) for n in folded) == folded_by_hand(archive, 1)
    assert len(folded) < len(archive.tree(record=1, ply=0))  # random first plies: some are images of others


def test_filters_that_only_change_others_select_every_record():
    # `--symmetric` alone (or `--include-unknown`, `--for`) lets every record through: the tree
    # then reads no list of the records' ids
    from lusoria.archive.commands import _selected

    for alone in (Filters(symmetric=True), Filters(include_unknown=True), Filters(material_for=3), None):
        assert _selected(alone) is None
    assert _selected(Filters(symmetric=True, valid=True)) is not None
