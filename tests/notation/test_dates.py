import pytest

from lusoria.notation.dates import date_range, date_readings


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026.11.21", ("2026-11-21", "2026-11-21")),
        ("2026.??.??", ("2026-01-01", "2026-12-31")),
        ("2024.02.??", ("2024-02-01", "2024-02-29")),
        ("2026.??.15", ("2026-01-01", "2026-12-31")),
        ("????.??.??", (None, None)),
        ("2026.04.??", ("2026-04-01", "2026-04-30")),
        # a day of the Julian calendar where it was kept (new-user 68: 1300.02.29 was "no real day"), up to 1923
        ("1300.02.29", ("1300-02-29", "1300-02-29")),
        ("1300.02.??", ("1300-02-01", "1300-02-29")),
        ("1923.02.??", ("1923-02-01", "1923-02-28")),
        ("1900.02.??", ("1900-02-01", "1900-02-29")),
        ("2100.02.??", ("2100-02-01", "2100-02-28")),
        ("1712.02.30", ("1712-02-30", "1712-02-30")),  # Sweden's 30 February
    ],
)
def test_pgn_dates_as_ranges(text, expected):
    assert date_range(text) == expected


@pytest.mark.parametrize(
    "text",
    ["2026.13.01", "2026.02.30", "26.1.1", "2026-11-21", "", "0000.01.01", "2026.04.31", "2026.??.32"]
    + ["1301.02.29", "2100.02.29", "1712.02.31", "1716.02.30", "0000.02.29"],  # no calendar's day
)
def test_not_dates(text):
    with pytest.raises(ValueError, match="is YYYY.MM.DD|names no real day"):
        date_range(text)


@pytest.mark.parametrize(
    "text, readings",
    [
        ("21/11/2026", ["2026.11.21"]),  # the day first, as most of Europe writes
        ("11/21/2026", ["2026.11.21"]),  # the month first, as the US does
        ("05/06/2026", ["2026.06.05", "2026.05.06"]),  # either: the day first comes first
        ("21.11.2026", ["2026.11.21"]),
        ("2026-11-21", ["2026.11.21"]),  # ISO 8601
        ("2026/1/5", ["2026.01.05"]),
        (" 21 / 11 / 2026 ", ["2026.11.21"]),
        ("30/02/2026", []),  # no real day either way
        ("2019.00.10", ["2019.??.10"]),  # 00: a part unknown, as some programs write it
        ("2019.06.00", ["2019.06.??"]),
        ("21/11/26", []),  # which century is not guessed
        ("Nov 21, 2026", []),
        ("2026.11.21", ["2026.11.21"]),
        ("1283", ["1283.??.??"]),  # a year alone: the rest unknown
        ("1283.5", ["1283.05.??"]),
        ("1283-13", []),
        ("128", []),
        ("c. 1283", ["1283.??.??"]),  # a date in doubt, as a historian writes it: the date
        ("ca.1283", ["1283.??.??"]),
        ("Circa 1283.5", ["1283.05.??"]),
        ("1283?", ["1283.??.??"]),
        ("21/11/2026 ?", ["2026.11.21"]),
        ("c. 128", []),
        ("c.", []),
        ("1283.05.12?", ["1283.05.12"]),
        ("1283.5 ?", ["1283.05.??"]),
        ("1283.05.1?", []),  # a digit in doubt (a day of the teens), not the date: no day to offer
        ("1283.1?", []),
        ("c. 1283.05.??", ["1283.05.??"]),  # a PGN date but for its doubt
        ("1283.05.12 ?", ["1283.05.12"]),
        ("c. 1283.13.??", []),
        ("AD 476", ["0476.??.??"]),  # a year said to be AD: in four digits
        ("476 AD", ["0476.??.??"]),
        ("476 ce", ["0476.??.??"]),
        ("44 BC", ["????.??.??"]),  # a year BC, a century: no year a Date can give
        ("-44", ["????.??.??"]),
        ("44 B.C.", ["????.??.??"]),
        ("c. 44 BC", ["????.??.??"]),
        ("44 BC?", ["????.??.??"]),  # in doubt, the ? after the era
        ("476 AD?", ["0476.??.??"]),
        ("13th c.?", ["????.??.??"]),
        ("13th c.", ["????.??.??"]),
        ("2nd century", ["????.??.??"]),
        ("5th c. BC", ["????.??.??"]),
        ("1st century AD", ["????.??.??"]),
        ("44", []),
        ("AD 0", ["????.??.??"]),  # no year 0: not 0000.??.??, no day at all
        ("0 BC", ["????.??.??"]),
        ("-0", ["????.??.??"]),
        ("AD 10", ["0010.??.??"]),
        ("AD 0?", []),  # AD 1 to 9, years a Date can give, as AD 1? (review-44h: was ????.??.??, as if AD 0)
        ("4? BC", ["????.??.??"]),
        ("AD 1?", []),  # a year of AD 10 to 19: a Date has no place for the doubt, and no reading guesses it
    ],
)
def test_dates_in_other_orders_are_read_as_the_real_days_they_may_mean(text, readings):
    assert date_readings(text) == readings


@pytest.mark.parametrize(
    "text, why",
    [
        (
            "44 BC",
            "; a Date's year is a year AD, 0001 to 9999, and a year BC has no place in it: write ????.??.?? "
            "and keep '44 BC' in a comment or a tag of your own",
        ),
        (
            "-44",
            "; a Date's year is a year AD, 0001 to 9999, and a year BC has no place in it: write ????.??.?? "
            "and keep '-44' in a comment or a tag of your own",
        ),
        ("13th c.", "; a century names no year: write ????.??.?? and keep '13th c.' in a comment or a tag of your own"),
        (
            " c. 44 BC ",  # in doubt, and with the blanks of a tag's value
            "; a Date's year is a year AD, 0001 to 9999, and a year BC has no place in it: write ????.??.?? "
            "and keep 'c. 44 BC' in a comment or a tag of your own",
        ),
        (
            "5th c. ?",
            "; a century names no year: write ????.??.?? and keep '5th c. ?' in a comment or a tag of your own",
        ),
        ("1283", ""),
        ("AD 10", ""),
        ("AD 1?", ""),  # AD 10 to 19: years a Date can give
        ("AD 0?", ""),  # AD 1 to 9 too: not said to be year 0 (review-44h)
        (
            "4? BC",  # a digit in doubt (historian-44)
            "; a Date's year is a year AD, 0001 to 9999, and a year BC has no place in it: write ????.??.?? "
            "and keep '4? BC' in a comment or a tag of your own",
        ),
    ]
    + [
        (
            bc,  # BC, or no year, whatever the digit in doubt (review-44h: said to be year 0 alone)
            "; a Date's year is a year AD, 0001 to 9999, and a year BC has no place in it: write ????.??.?? "
            f"and keep '{bc}' in a comment or a tag of your own",
        )
        for bc in ("0? BC", "-0?")
    ]
    + [
        (
            zero,  # there is no year 0: said as other BC and AD years are (found by historian-42)
            "; there is no year 0 (1 BC is followed by AD 1), and a Date's year is a year AD, 0001 to 9999: "
            f"write ????.??.?? and keep '{zero.strip()}' in a comment or a tag of your own",
        )
        for zero in ("AD 0", "0 AD", "-0", "0 BC", "c. 0000 BC", "-00")
    ],
)
def test_a_date_with_no_year_a_date_can_give_says_where_it_goes(text, why):
    with pytest.raises(ValueError) as refused:
        date_range(text)
    assert str(refused.value) == f"a Date is YYYY.MM.DD, with ?? for unknown parts; not '{text}'{why}"
