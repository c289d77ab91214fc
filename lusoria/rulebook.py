"""The rules' texts, as diagnostics cite them (`T2`, `Q6`, `syntax`…), read from the
package's copy of docs/rules.md (`lusoria/rules.md` is a link to it, so the docs are the
one source of truth and an installed wheel carries them)."""

from __future__ import annotations

import re
import textwrap
from functools import cache
from importlib.resources import files
from typing import NamedTuple

ANY_GAME = "any"  # the game of the rules that concern a whole record (syntax, tag, result, number)


class Option(NamedTuple):
    key: str
    values: str
    meaning: str


class Rule(NamedTuple):
    """One rule: its ID, its game, a one-line title, its text and the options that change it."""

    id: str
    game: str
    title: str
    text: str
    options: tuple[Option, ...]


class Example(NamedTuple):
    """A record that breaks a rule, and what lusoria says of it (docs/rules.md, Examples)."""

    record: str
    message: str


_GAME_HEADING = re.compile(r'^## .*\(`Game "(\w+)"`\)')
_VARIANT_HEADING = re.compile(r"^### Variant `(\w+)`")
_RULE = re.compile(r"^- \*\*([A-Z]+\d+|[a-z]+)\*\* (.*)")
_CELLS = re.compile(r"^\|(.*)\|\s*$")
_SENTENCE = re.compile(r"(.+?[.;])(?:\s|$)")


@cache
def _document() -> str:
    return (files("lusoria") / "rules.md").read_text("utf-8")


@cache
def _parse() -> tuple[dict[str, Rule], dict[str, Example]]:
    """Every rule of the document, by upper-case ID, and the examples."""
    texts: dict[str, list[str]] = {}
    games: dict[str, str] = {}
    variants: dict[str, str | None] = {}
    notes: dict[str, list[list[str]]] = {}  # game -> bullets of "how lusoria applies…"
    options: dict[str, list[Option]] = {}  # game -> options
    examples: dict[str, Example] = {}
    game, variant, header, heading, bullet, table, applying = None, None, "", "", None, False, False
    for line in _document().splitlines():
        in_table, table = table, line.startswith("|")
        if line.startswith("## "):
            matched = _GAME_HEADING.match(line)
            game = matched[1] if matched else ANY_GAME if "whole record" in line else line[3:].strip()
            variant, header, bullet, applying = None, "", None, False
            continue
        if (matched := _VARIANT_HEADING.match(line)):
            variant, bullet = matched[1], None
            continue
        if line.startswith("How lusoria applies"):
            applying = True
        if (matched := _RULE.match(line)) and game is not None and not applying:
            rule_id = matched[1].upper() if matched[1][0].isupper() else matched[1]
            texts[rule_id], games[rule_id], variants[rule_id] = [matched[2]], game, variant
            bullet = texts[rule_id]
        elif line.startswith("- ") and game is not None:
            bullet = [line[2:]]
            notes.setdefault(game, []).append(bullet)
        elif line.startswith("  ") and line.strip() and bullet is not None:
            bullet.append(line.strip())
        elif (matched := _CELLS.match(line)):
            cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", matched[1])]
            if not in_table:  # a table's first row is its heading
                header = ""
            elif set(cells[0]) == {"-"}:
                header = heading
            elif header == "key" and cells[0].startswith("`") and game is not None:
                options.setdefault(game, []).append(Option(cells[0].strip("`"), cells[1], cells[2]))
            elif header == "rule" and cells[0].startswith("`"):
                examples[cells[0].strip("`").upper()] = Example(cells[1].strip("`"), cells[2])
            heading = cells[0]
        else:
            bullet = None
    rules = {}
    for rule_id, lines in texts.items():
        game = games[rule_id]
        text = " ".join(lines)
        applied = [" ".join(note) for note in notes.get(game, []) if f"**{rule_id}**" in " ".join(note)]
        if applied:
            text += "\n\nHow lusoria applies it:\n" + "\n".join(f"- {note}" for note in applied)
        cited = re.compile(rf"\b{re.escape(rule_id)}\b")
        changes = tuple(option for option in options.get(game, []) if cited.search(option.meaning))
        rules[rule_id.upper()] = Rule(rule_id, game, _title(" ".join(lines), variants[rule_id]), text, changes)
    return rules, examples


def _title(first: str, variant: str | None) -> str:
    plain = _plain(first.replace("**", "").removeprefix("Decision: "))
    sentence = _SENTENCE.match(plain)
    title = (sentence[1] if sentence else plain).rstrip(";:")
    return f"variant {variant}: {title}" if variant else title


def rules() -> list[Rule]:
    """Every rule, in the order of docs/rules.md."""
    return list(_parse()[0].values())


def rule(rule_id: str) -> Rule:
    """The rule with this ID, in any case (`t2`, `T2`, `Syntax`); KeyError names the known IDs."""
    found = _parse()[0].get(rule_id.strip().upper())
    if found is None:
        raise KeyError(f"unknown rule '{rule_id}' (known: {', '.join(r.id for r in rules())})")
    return found


def example(rule_id: str) -> Example | None:
    """A record that breaks the rule and lusoria's diagnostic, when the docs have one."""
    return _parse()[1].get(rule(rule_id).id.upper())


def explain(rule_id: str) -> str:
    """The rule as `lusoria explain` prints it: text, options, an example."""
    found = rule(rule_id)
    game = "every game" if found.game == ANY_GAME else found.game
    parts = [f"{found.id} ({game})", ""]
    for paragraph in _plain(found.text).split("\n"):
        bullet = paragraph.startswith("- ")
        parts.append(textwrap.fill(paragraph, 88, subsequent_indent="  " if bullet else ""))
    if found.options:
        parts += ["", "Options (Rules tag; the default first):"]
        parts += [f"  {_plain(o.key)}: {_plain(o.values)} — {_plain(o.meaning)}" for o in found.options]
    shown = example(found.id)
    if shown:
        parts += ["", "Example:", f"  {shown.record}", f"  {shown.message}"]
    return "\n".join(parts)


def _plain(cell: str) -> str:
    """Text without its Markdown (backticks, bold, escaped bars)."""
    return cell.replace("`", "").replace("**", "").replace("\\|", "|")
