"""Round trips between lusoria's notation and OTN are stable: lgn → otn → lgn → otn writes the
same tags and moves after the first pass, for any tags (lusoria's and OpenTafl's own), adds no
tag the record did not hold and no king's letter it did not write. The rules record is left out
of the comparison (how each game's options are written there is the OTN writer's own matter:
tests/formats/test_otn.py), and so are the comments (the notes a reader adds the first time)."""

from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from lusoria.api import random_records
from lusoria.formats import read_text
from lusoria.formats.otn import write_report
from lusoria.notation.reader import parse_record
from lusoria.notation.writer import write_record
from lusoria.validator.replay import canonical_text, check

OPENTAFL = (ROOT / "tests" / "fixtures" / "formats" / "otn" / "brandubh.otg").read_text()
RULES = next(line for line in OPENTAFL.splitlines() if line.startswith("[rules:"))
READ_OTHERWISE = {"Game", "Result", "Variant", "Rules", "Position", "Termination", "Board"}  # rules, result, `---`
VALUES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12)


def otn_of(lgn: str) -> str:
    return write_report(check(lgn))


def lgn_of(otn: str) -> str:
    [source] = read_text(otn, "otn", "game.otg")
    report = check(source)
    assert report.rules is not None, report.diagnostics
    return canonical_text(report)


def tags_and_moves(otn: str) -> list[str]:
    """An OTN game's tag and move lines: not its rules record, nor its comments (lusoria's several
    comments before the first ply are one `[start-comment:…]`, read back as one)."""
    header, _, moves = otn.partition("\n\n")
    return [line for line in header.split("\n") if not line.startswith(("[rules:", "[start-comment:"))] + [
        line for line in moves.split("\n") if not line.startswith("[")
    ]


def lgn_tags_and_moves(lgn: str) -> tuple[dict[str, str], list[str]]:
    record = parse_record(lgn)
    return record.tags, [ply.text for ply in record.main.plies]


def assert_stable(otn: str) -> str:
    """`otn` read and written again twice: the second pass writes the tags and moves of the first."""
    lgn = lgn_of(otn)
    again = otn_of(lgn)
    assert lgn_tags_and_moves(lgn_of(again)) == lgn_tags_and_moves(lgn)
    assert tags_and_moves(otn_of(lgn_of(again))) == tags_and_moves(again)
    return again


@settings(max_examples=25)  # each example reads and writes five times
@given(
    st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True), VALUES, max_size=6), st.integers(0, 3)
)
def test_lusorias_tags_come_back_as_they_were(tags, seed):
    [text] = random_records("brandubh", seed=seed, max_plies=8)
    record = parse_record(text)
    record.tags.update({name: value for name, value in tags.items() if name not in READ_OTHERWISE})
    lgn = write_record(record)
    otn = otn_of(lgn)
    assert lgn_of(otn) == lgn  # a record that OTN holds whole comes back as it was
    assert tags_and_moves(assert_stable(otn)) == tags_and_moves(otn)


@settings(max_examples=25)
@given(
    st.dictionaries(
        st.from_regex(r"[a-z]{2,7}(?:-[a-z]{2,6}){0,2}", fullmatch=True),  # words, as OpenTafl's
        st.from_regex(r"[^\]\r\n\x00]{0,12}", fullmatch=True).map(str.strip),
        max_size=6,
    )
)
def test_opentafls_own_tags_keep_their_names(tags):
    kept = {
        key: value
        for key, value in tags.items()
        if key not in ("rules", "result", "start-comment", "position", "variant", "termination")
        and not key.startswith("lusoria-")
    }
    otn = "".join(f"[{key}:{value}]\n" for key, value in kept.items()) + RULES + "\n\n1. d7-b7 c4-c7xb7\n"
    written = assert_stable(otn)
    for key, value in kept.items():
        assert f"[{key}:{value}]" in written.split("\n") or "[lusoria-tags:" in written


def test_no_tag_is_added_and_no_kings_letter():
    lgn = '[Game "tablut"]\n[White "A"]\n\n1. e4-h4 a4-a1 2. e5-e4 *\n'
    otn = otn_of(lgn)
    assert otn.splitlines()[:2] == ["[defenders:A]", "[result:?]"]  # no [event:?], [date:????.??.??], [round:?]
    assert otn.splitlines()[-1] == "2. e5-e4"  # the king's move as written, its letter not added
    assert otn_of(lgn_of(otn)).splitlines()[0] == "[defenders:A]"


def test_opentafls_compiler_keeps_its_case():
    otn = f"[compiler:OpenTafl v0.4.8]\n[time-control:300 s]\n{RULES}\n\n1. d7-b7 c4-c7xb7\n"
    lgn = lgn_of(otn)
    assert '[Compiler "OpenTafl v0.4.8"]' in lgn and '[TimeControl "300 s"]' in lgn
    assert otn_of(lgn).splitlines()[:2] == ["[compiler:OpenTafl v0.4.8]", "[time-control:300 s]"]
