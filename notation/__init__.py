"""The record model, the reader (split and parse) and the canonical writer."""

from lusoria.notation.model import Line, Ply, Record
from lusoria.notation.reader import RecordText, is_ply, parse_record, read_records, split_records
from lusoria.notation.syntax import SyntaxProblem
from lusoria.notation.visitor import SKIP, Visitor, walk
from lusoria.notation.writer import write_record

__all__ = [
    "Line",
    "Ply",
    "Record",
    "RecordText",
    "SKIP",
    "SyntaxProblem",
    "Visitor",
    "is_ply",
    "parse_record",
    "read_records",
    "split_records",
    "walk",
    "write_record",
]
