"""The mutants the docs and the runner name stand where they are cited: each row of a table whose first cell cites
`path:line` (docs/testing.md's survivors) quotes the code it mutates, and that line holds it. A row
left stale by code that moved or changed turns this red; fix the row, not the test.

A row's first cell: the citation, then the code mutated in backticks — the spans before `→` when
it says what the code became (`` `a < b` → `a <= b` in `f` ``), else the first span after the
citation (`` `rows and …` dropped in `_board` ``). `…` stands for any text between the parts. A
function or class the cell names with `in` (`` in `_board` ``, `` in `Entry.content` ``) encloses
the line."""

import ast
import re
from functools import cache

import pytest
from conftest import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CITATION = re.compile(r"^\|\s*`(?P<path>[\w/.-]+\.(?:py|lark)):(?P<line>[0-9]+)`(?P<rest>[^|]*)\|", re.M)
SPAN = re.compile(r"`([^`]+)`")
ENCLOSING = re.compile(r"\bin `([A-Za-z_][\w.]*)`")


def cited_rows() -> list[tuple[str, str, int, list[str], list[str]]]:
    """(where in the docs, path, line, the code quoted, the functions or classes named) of every
    row that cites a place."""
    rows = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for found in CITATION.finditer(text):
            before, arrow, _ = found["rest"].partition("→")
            quoted = SPAN.findall(before) if arrow else SPAN.findall(found["rest"])[:1]
            where = f"{document.relative_to(ROOT)}:{text.count(chr(10), 0, found.start()) + 1}"
            rows.append((where, found["path"], int(found["line"]), quoted, ENCLOSING.findall(found["rest"])))
    return rows


def holds(line: str, code: str) -> bool:
    """Whether `line` holds `code` (its parts, where `…` leaves text out, in order; a part that
    starts or ends with a word character is not a piece of a longer word: `or` is not in `for`)."""
    pattern = r".*?".join(
        (r"(?<!\w)" if part[0].isalnum() or part[0] == "_" else "")
        + r"\s*".join(map(re.escape, part.split()))
        + (r"(?!\w)" if part[-1].isalnum() or part[-1] == "_" else "")
        for part in (piece.strip() for piece in code.split("…"))
        if part
    )
    return re.search(pattern, line) is not None


@cache
def definitions(path: str) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of every function and class of a Python module."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                found.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse((ROOT / path).read_text(encoding="utf-8")), "")
    return found


def enclosing(path: str, number: int) -> list[str]:
    """The qualified names of the functions and classes around line `number`, innermost first."""
    around = [(first, name) for first, last, name in definitions(path) if first <= number <= last]
    return [name for _, name in sorted(around, reverse=True)]


ROWS = cited_rows()


def test_the_docs_cite_mutants():
    assert len(ROWS) >= 30
    assert all(row[3] for row in ROWS), [row[0] for row in ROWS if not row[3]]


def stale(where: str, path: str, number: int, quoted: list[str], names: list[str]) -> str | None:
    """What is wrong with one cited row, or None when its line holds the code it quotes, in the
    functions or classes it names."""
    lines = source_lines(path)
    if not 1 <= number <= len(lines):
        return f"{where}: {path} has {len(lines)} lines"
    line = lines[number - 1]
    missing = [code for code in quoted if not holds(line, code)]
    if missing:
        nearby = [n for n, text in enumerate(lines, 1) if all(holds(text, code) for code in quoted)]
        return f"{where}: {path}:{number} is {line.strip()!r}, without {missing} (found at lines {nearby})"
    if names and path.endswith(".py"):  # (a grammar has no functions)
        around = enclosing(path, number)
        if not all(any(f".{it}".endswith(f".{name}") for it in around) for name in names):
            return f"{where}: {path}:{number} is in {around or 'no function'}, not in {names}"
    return None


@cache
def source_lines(path: str) -> list[str]:
    return (ROOT / path).read_text(encoding="utf-8").splitlines()


def test_every_cited_line_holds_the_code_its_row_quotes():
    """One test for the 1,200 rows (a test each took 5 ms of pytest's for 5 µs of its own): it
    names every stale row."""
    assert [problem for row in ROWS if (problem := stale(*row))] == []


def test_a_stale_row_is_named_by_what_is_wrong_with_it():
    where, path = "docs/testing.md:1", "tests/system/test_mutant_citations.py"
    code = "ROWS" + " = cited_rows()"  # (split, so that this line does not hold it)
    number = source_lines(path).index(code) + 1
    assert stale(where, path, number, [code], []) is None
    assert stale(where, path, number + 1, [code], []) == (
        f"{where}: {path}:{number + 1} is '', without [{code!r}] (found at lines [{number}])"
    )
    assert stale(where, path, 10**6, [code], []) == f"{where}: {path} has {len(source_lines(path))} lines"
    assert (
        stale(where, path, number, [code], ["stale"]) == f"{where}: {path}:{number} is in no function, not in ['stale']"
    )
    inside = source_lines(path).index("    lines = source_lines(path)") + 1
    assert stale(where, path, inside, ["lines = source_lines(path)"], ["stale"]) is None
    assert stale(where, path, inside, ["lines = source_lines(path)"], ["holds"]) == (
        f"{where}: {path}:{inside} is in ['stale'], not in ['holds']"
    )


def test_a_line_holds_code_by_its_words():
    assert holds("    if a or b:", "or") and not holds("    for x in y:", "or")  # a word, not a piece of one
    assert holds("return rows and len(rows) == 9", "rows and …") and holds("MAX_TABLE = 1 << 26", "1 << 26")
    assert holds("if d > OFF - start or x:", "d > OFF - start") and not holds("if d >= OFF - start:", "d > OFF - start")
    assert not holds("    return 1  # < 256", "< 0x100")


def named_mutants() -> list[tuple[str, str, str]]:
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "mutation"))
    from named import NAMED

    return [(path, old, why) for path, old, _, why in NAMED]


@pytest.mark.parametrize("path, old, why", named_mutants(), ids=[why for _, _, why in named_mutants()])
def test_a_named_mutant_stands_once_in_its_file(path, old, why):
    """The mutation runner refuses to start when a hand-written mutant's text (tests/mutation/named.py)
    is not once in its file: code that changed moves the mutant with it, in the same commit."""
    assert (ROOT / path).read_text(encoding="utf-8").count(old) == 1, f"{why}: {old!r} is not once in {path}"
