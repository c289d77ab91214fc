import pytest

from lusoria.notation.dates import date_range


@pytest.mark.parametrize("text, expected", [
    ("2026.11.21", ("2026-11-21", "2026-11-21")),
    ("2026.??.??", ("2026-01-01", "2026-12-31")),
    ("2024.02.??", ("2024-02-01", "2024-02-29")),
    ("2026.??.15", ("2026-01-01", "2026-12-31")),
    ("????.??.??", (None, None)),
])
def test_pgn_dates_as_ranges(text, expected):
    assert date_range(text) == expected


@pytest.mark.parametrize("text", ["2026.13.01", "2026.02.30", "26.1.1", "2026-11-21", ""])
def test_not_dates(text):
    with pytest.raises(ValueError):
        date_range(text)
