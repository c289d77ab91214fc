"""A document as the language server sees it (lusoria/document.py), in this process: where a
diagnostic points, the reports kept between edits, hovers, fixes, completions and tokens."""

from lusoria.document import Document, diagnostic_span
from lusoria.output import diagnostic_text
from lusoria.validator.replay import check

OPEN = '\n[Game "tablut"]\n1. e3-c3 e4-b4\n'  # a blank line, then a record without a result marker


def entry_of(text: str):
    document = Document()
    document.refresh(text)
    [entry] = document.entries
    return entry


def test_a_diagnostic_spans_the_columns_of_validates_caret():
    """A diagnostic of no text (a missing result marker) spans one column, as validate shows one caret."""
    entry = entry_of(OPEN)
    spans = [diagnostic_span(entry, d) for d in entry.report.diagnostics]
    assert spans == [(2, 14, 15), (2, 9, 14)]
    carets = [diagnostic_text(entry.report, d).splitlines()[2].count("^") for d in entry.report.diagnostics]
    assert carets == [end - start for _, start, end in spans]


def test_a_document_takes_the_reports_given_with_its_records():
    """Reports checked elsewhere (the server's worker thread) are kept, not checked again."""
    document = Document()
    sources = document.split(OPEN)
    given = check(sources[0].text)
    document.update(sources, {sources[0].text: given})
    assert document.entries[0].report is given
    assert document.missing(sources) == []
