"""The move tree folded by hand, the way `--symmetric` should fold it: shared by the explorer's
tests on random games (tests/archive/test_tree.py) and on real ones (tests/formats/test_real_files.py)."""

from collections import Counter

from lusoria.archive import Archive
from lusoria.archive.positions import position_key
from lusoria.validator.replay import check


def folded_by_hand(archive: Archive, record: int) -> Counter:
    """The plies played from the start of `record`, each as (games, White's wins, draws, Black's
    wins), summed over the plies whose positions are one up to a symmetry: from the tree that
    does not fold, each position's images made here."""
    report = check(archive.sql(f"SELECT text FROM record_texts WHERE id = {record}")[0]["text"])
    rules, start = report.rules, report.positions[0]
    classes: dict[int, list[int]] = {}
    for node in archive.tree(from_id=record, ply=0):
        after = rules.play(start, node.ply).position
        one = min(position_key(rules, image) for image, _ in rules.symmetric(after))
        counts = classes.setdefault(one, [0, 0, 0, 0])
        for index, count in enumerate((node.games, node.white, node.draws, node.black)):
            counts[index] += count
    return Counter(tuple(counts) for counts in classes.values())
