"""PGN dates (`YYYY.MM.DD`, `??` for an unknown part) as ranges of ISO dates."""

from __future__ import annotations

import calendar
import re

from lusoria.errors import Refused
from lusoria.notation.numbers import checked_number

_DATE = re.compile(r"([0-9]{4}|\?{4})\.([0-9]{2}|\?\?)\.([0-9]{2}|\?\?)")
_NUMBERS = re.compile(r"[ \t]*([0-9]{1,4})[ \t]*[./-][ \t]*([0-9]{1,2})[ \t]*[./-][ \t]*([0-9]{1,4})[ \t]*")
_PART = re.compile(r"[ \t]*([0-9]{4})[ \t]*(?:[./-][ \t]*([0-9]{1,2})[ \t]*)?")  # a year, and perhaps its month
_BEFORE_CHRIST = re.compile(r"[ \t]*(?:-[ \t]*[0-9]{1,4}|[0-9]{1,4}[ \t]*(?:BC|BCE|B\.C\.|B\.C\.E\.))[ \t]*", re.I)
_CENTURY = re.compile(  # 13th c., 5th c. BC
    r"[ \t]*[0-9]{1,2}(?:st|nd|rd|th)[ \t]*(?:c\.?|cent\.?|century)(?:[ \t]*(?:BC|BCE|B\.C\.|AD|A\.D\.|CE))?[ \t]*",
    re.I,
)
_ANNO_DOMINI = re.compile(  # a year said to be AD: AD 476, 476 AD, 476 CE (a bare 476 may be a year cut short)
    r"[ \t]*(?:(?:AD|A\.D\.)[ \t]*([0-9]{1,4})|([0-9]{1,4})[ \t]*(?:AD|A\.D\.|CE|C\.E\.))[ \t]*", re.I
)
_DOUBTFUL_DIGIT = re.compile(r"(?<=[0-9])\?")  # a digit the source leaves in doubt: 4? BC, AD 1?
_KEPT = " in a comment or a tag of your own"  # where a date no Date can give is kept (`_no_year`)
_CIRCA = re.compile(  # a date in doubt: c. 1283, 1283?, 44 BC?, not a digit in doubt (1283.05.1?: a day of the teens)
    r"[ \t]*(?:circa|ca|c)\.?[ \t]*(.+)|(.+?)(?:[ \t]+|(?<=[0-9]{2})|(?<=[A-Za-z.]))\?", re.I
)


NO_REAL_DAY = "names no real day"  # what date_range says of a date of the form that is no day


def date_range(text: str) -> tuple[str | None, str | None]:
    """The earliest and latest ISO dates a PGN date allows: `2026.??.??` gives
    ('2026-01-01', '2026-12-31'); an unknown year gives (None, None).
    ValueError for text that is not a PGN date or names no real day."""
    m = _DATE.fullmatch(text)
    if not m:
        raise Refused(f"a Date is YYYY.MM.DD, with ?? for unknown parts; not '{text}'{_no_year(text)}")
    year, month, day = (None if "?" in part else checked_number(part, 0, 9999) for part in m.groups())
    if year is None:
        return None, None
    first, last = (month, month) if month else (1, 12)
    if not year or last > 12 or (day or 1) > _days_in(year, month or 1):
        raise Refused(f"the Date '{text}' {NO_REAL_DAY}")
    if day and not month:
        return f"{year:04}-01-01", f"{year:04}-12-31"
    return f"{year:04}-{first:02}-{day or 1:02}", f"{year:04}-{last:02}-{day or _days_in(year, last):02}"


JULIAN_UNTIL = 1923  # the last year a country (Greece) kept the Julian calendar


def _days_in(year: int, month: int) -> int:
    """The days of a month, as the Gregorian calendar has them or the Julian one where it was kept (Castile
    under Alfonso X, Sweden until 1753, Greece until 1923): 29 February in every fourth year up to
    JULIAN_UNTIL (1300, 1700), and 30 February in Sweden's 1712."""
    if month != 2:
        return calendar.monthrange(year, month)[1]
    return 30 if year == 1712 else 29 if calendar.isleap(year) or year <= JULIAN_UNTIL and year % 4 == 0 else 28


def date_readings(text: str) -> list[str]:
    """The PGN dates that a date written in another common order may mean, the likeliest first:
    year first (`2026-11-21`), or last, the day before the month (`21/11/2026`, as most of
    Europe writes) and then the month before the day (`11/21/2026`, as the US does); only
    real days, so `21/11/2026` has one reading and `05/06/2026` two. A year alone, or a year and
    month, is read with the parts left out unknown (`1283`: `1283.??.??`; `_part_reading`); a date in doubt (`c. 1283`,
    `1283?`, `c. 1283.05.??`) as the date (a PGN date has no place for the doubt: a comment has)."""
    if circa := _CIRCA.fullmatch(text):
        rest = circa[1] or circa[2]
        return [rest] if _names_a_day(rest) else date_readings(rest)
    numbers = _NUMBERS.fullmatch(text)
    if numbers is None:
        return _part_reading(text)
    first, middle, last = numbers.groups()
    if len(first) == 4:
        orders = [(first, middle, last)]
    elif len(last) == 4:
        orders = [(last, middle, first), (last, first, middle)]
    else:
        return []
    readings: list[str] = []
    for year, month, day in orders:
        reading = f"{year}.{_part_read(month)}.{_part_read(day)}"
        if _names_a_day(reading) and reading not in readings:
            readings.append(reading)
    return readings


def _part_read(written: str) -> str:
    """A month or day as a PGN date writes it: two digits, `??` for 0 (`2019.00.10`: an unknown month, as some
    programs write one)."""
    number = checked_number(written, 0, 9999)
    return "??" if number == 0 else f"{number:02}"


def _no_year(text: str) -> str:
    """Why a date a historian writes has no year a Date can give (a year BC, `44 BC` or `-44`; a
    century, `13th c.`; in doubt too, `c. 44 BC`, or by a digit, `4? BC`), and where it goes instead; else nothing."""
    said = _why_no_year((circa[1] or circa[2]) if (circa := _CIRCA.fullmatch(text)) else text)
    return f"; {said}: write ????.??.?? and keep '{text.strip()}'{_KEPT}" if said else ""


def _why_no_year(text: str) -> str:
    """Why `text` (a date not in doubt) has no year a Date can give, whatever digit one in doubt stands
    for (`4? BC`, `0? BC`; not `AD 0?`, AD 1 to 9); else nothing."""
    digits = _DOUBTFUL_DIGIT.sub("0", text)
    if _year_zero(text):
        return "there is no year 0 (1 BC is followed by AD 1), and a Date's year is a year AD, 0001 to 9999"
    if _BEFORE_CHRIST.fullmatch(digits):
        return "a Date's year is a year AD, 0001 to 9999, and a year BC has no place in it"
    if _CENTURY.fullmatch(digits):
        return "a century names no year"
    return ""


def kept_aside(message: str) -> str | None:
    """The date a Date's error says to keep in a comment (`44 BC`, which no Date can give), as
    written; None for any other message."""
    kept = re.search(rf"keep '(.*)'{_KEPT}\Z", message)
    return kept[1] if kept else None


def _part_reading(text: str) -> list[str]:
    """A year alone, or a year and month, as a PGN date with the rest unknown (a year said to be AD in
    four digits: `AD 476`, `476 AD`: `0476.??.??`); a year BC, a century or a year 0 (`AD 0`), with no year
    (`????.??.??`); none for other text."""
    if _why_no_year(text):
        return ["????.??.??"]
    if year := _ANNO_DOMINI.fullmatch(text):
        reading = f"{year[1] or year[2]:0>4}.??.??"
    elif part := _PART.fullmatch(text):
        reading = f"{part[1]}.{checked_number(part[2], 0, 99):02}.??" if part[2] else f"{part[1]}.??.??"
    else:
        return []
    return [reading] if _names_a_day(reading) else []


def _year_zero(text: str) -> bool:
    """Whether `text` is a year said to be BC or AD whose digits are all 0 (`AD 0`, `0 BC`, `-0`): no year is."""
    return bool(_BEFORE_CHRIST.fullmatch(text) or _ANNO_DOMINI.fullmatch(text)) and not re.search("[1-9]", text)


def _names_a_day(reading: str) -> bool:
    """Whether a PGN date names real days."""
    try:
        date_range(reading)
    except ValueError:
        return False
    return True
