"""`lusoria convert`: records of any format read, written as lgn or OTN."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from lusoria.notation.reader import LGN_TOKENS, RecordText, long_token, token_message
from lusoria.notation.sources import PROBLEMS, Problem, Source
from lusoria.pipeline import reports
from lusoria.validator.replay import ERROR, Diagnostic, Report
from lusoria.validator.tafl import TaflGame

TARGETS = ("lgn", "otn")


@dataclass
class Converted:
    """One record written in the target format, or why it could not be."""

    source: RecordText
    text: str | None
    report: Report
    problem: str | None = None
    diagnostic: Diagnostic | None = None  # the error that stopped it, with its place


def convert(paths: Iterable[Source], to: str, encoding: str = "utf-8", format: str | None = None,
            tags: dict[str, str] | None = None) -> Iterator[Converted | Problem]:
    """Every record of `paths` in format `to` (lgn or otn). A record that does not parse or breaks
    a rule is not converted (a reader of another format must not make an illegal record): its
    first error is the `problem`, and its `diagnostic`."""
    from lusoria.api import canonical_text
    from lusoria.formats.otn import write_otn

    if to not in TARGETS:
        raise ValueError(f"cannot write '{to}' (known: {', '.join(TARGETS)})")
    for report in reports(paths, encoding, format, tags):
        if isinstance(report, PROBLEMS):
            yield report
            continue
        source = report.source
        if report.record is None or report.rules is None or not report.valid:
            first = next(d for d in report.diagnostics if d.severity == ERROR)
            yield Converted(source, None, report, f"error[{first.rule}]: {first.message}", first)
        elif to == "lgn":
            text = canonical_text(report)
            if (token := long_token(text, LGN_TOKENS)) is not None:  # escapes make a value longer
                yield Converted(source, None, report, f"written in lusoria's notation it would hold "
                                                      f"{token_message(token)}")
            else:
                yield Converted(source, text, report)
        elif not isinstance(report.rules, TaflGame):
            yield Converted(source, None, report, f"OTN holds tafl games, not {report.rules.name}")
        else:
            try:
                text = write_otn(report.record, report.rules, report.canonical)
            except ValueError as problem:
                yield Converted(source, None, report, str(problem))
            else:
                yield Converted(source, text, report)
