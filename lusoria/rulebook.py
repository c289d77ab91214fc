"""The rules' texts, as diagnostics cite them (`T2`, `Q6`, `syntax`…): each game's from the TOML
file beside its module (`Game.rule_texts`), the record's from validator/record.toml (docs/design.md,
"The rules' texts"). docs/rules.md is generated from the same files (docs/cogs.py)."""

from __future__ import annotations

import re
import textwrap
import tomllib
from functools import cache
from typing import Any, NamedTuple

from lusoria.errors import UnknownName
from lusoria.validator.base import RECORD_RULES
from lusoria.validator.games import GAMES
from lusoria.words import plural, quoted

ANY_GAME = "any"  # the game of the rules that concern a whole record (syntax, tag, result, number, plug-in)


class Option(NamedTuple):
    key: str
    values: str  # as the page writes them: `a` \| `b`
    meaning: str


class Rule(NamedTuple):
    """One rule: its ID, its game, a one-line title, its text, the options that change it, the
    variant it is of ("": of every variant of its game), and the IDs of the other rules its text
    refers to ("as in C3"; not those of the notes of how lusoria applies it)."""

    id: str
    game: str
    title: str
    text: str
    options: tuple[Option, ...]
    variant: str = ""
    cites: tuple[str, ...] = ()


class Example(NamedTuple):
    """A record that breaks a rule, and what lusoria says of it; or, for a rule that no diagnostic
    cites (a start, a square's hostility, a mechanic a game lacks), a legal record that shows it at
    work, its message `valid: ` and what it shows."""

    record: str
    message: str


COMMON = frozenset(  # words that name no notion: `explain the` looks none up (it listed most rules)
    """a an the this that these those it its they them their he his she her there what which who
    of to in on at by for from with as into onto over under between after before up off
    and or nor but so than then if when while not no is are was were be been being has have had
    do does did may must can cannot will would shall should""".split()
)
_CITATION = re.compile(r"\b(?P<first>(?P<prefix>[A-Z]+)\d+)(?:[–-](?P=prefix)?(?P<last>\d+))?\b")  # C3, C8–C11


@cache
def written(game: str) -> dict[str, Any]:
    """The rules' texts of a game (ANY_GAME: of a whole record) as its TOML file holds them: `rules`,
    `applied` (notes), `options`; empty for a game without texts."""
    source = RECORD_RULES if game == ANY_GAME else GAMES[game].rule_texts()
    return {} if source is None else tomllib.loads(source.read_text(encoding="utf-8"))


def _games() -> list[str]:
    """The games whose rules `rules` lists, in the order of docs/rules.md: the first game, the
    record's rules (which the page shows with that game's records), the other games."""
    first, *others = GAMES.in_page_order
    return [first, ANY_GAME, *others]


def options(game: str) -> tuple[Option, ...]:
    """A game's options, their values in Markdown as the page's table writes them."""
    found = []
    for option in written(game).get("options", []):
        listed = " \\| ".join(f"`{value}`" for value in option["values"])  # `yes` \| `no`
        found.append(
            Option(option["key"], f"{listed} {option['also']}" if "also" in option else listed, option["meaning"])
        )
    return tuple(found)


def tag_options(game: str) -> tuple[Option, ...]:
    """The options of a game that a Rules tag may set (`Game.rules_tag_keys`), which `explain` gives."""
    keys = () if game == ANY_GAME else GAMES[game].rules_tag_keys()
    return tuple(option for option in options(game) if option.key in keys)


@cache
def _read() -> tuple[dict[str, Rule], dict[str, Example], dict[str, str]]:
    """Every rule, by upper-case ID, the examples, and each rule's own text (without the notes of
    how lusoria applies it), in Markdown on one line."""
    rules, examples, own_texts = {}, {}, {}
    for game in _games():
        texts = written(game)
        notes = [_joined(note) for note in texts.get("applied", [])]
        for entry in texts.get("rules", []):
            rule_id, text = entry["id"], _joined(entry["text"])
            own_texts[rule_id.upper()] = text
            title = _title(text, entry.get("variant"), _joined(entry["title"]) if "title" in entry else None)
            applied = [note for note in notes if f"**{rule_id}**" in note]
            if applied:
                text += "\n\nHow lusoria applies it:\n" + "\n".join(f"- {note}" for note in applied)
            cited = re.compile(rf"\b{re.escape(rule_id)}\b")
            changes = tuple(option for option in tag_options(game) if cited.search(option.meaning))
            rules[rule_id.upper()] = Rule(rule_id, game, title, text, changes, entry.get("variant", ""))
            if "example" in entry:
                examples[rule_id.upper()] = Example(entry["example"]["record"], entry["example"]["message"])
    for key, text in own_texts.items():
        rules[key] = rules[key]._replace(cites=tuple(_cited(text, rules, rules[key].id)))
    return rules, examples, own_texts


def _cited(text: str, known: dict[str, Rule], own_id: str) -> dict[str, None]:
    """The IDs of the rules other than `own_id` that `text` names, in order; of a range, the rules
    from its first to its last in the order of the rules."""
    ordered = list(known)
    cited: dict[str, None] = {}
    for found in _CITATION.finditer(text):
        first, last = found["first"], found["prefix"] + found["last"] if found["last"] else found["first"]
        if first in known and last in known:
            for rule_id in ordered[ordered.index(first) : ordered.index(last) + 1]:
                if rule_id != own_id:
                    cited[rule_id] = None
    return cited


def _joined(text: str) -> str:
    """A text of the files on one line (its line breaks are the page's)."""
    return " ".join(line.strip() for line in text.strip().splitlines())


def _title(text: str, variant: str | None, given: str | None = None) -> str:
    """A rule's title: the one its entry gives (where its first clause would mislead: T5's first enclosure
    alone, h72c), else its text's first clause, to a `.` or `;` outside parentheses (G16's was cut inside)."""
    if given:
        title = plain(given.replace("**", ""))  # (as written: review73)
    else:
        words = plain(text.replace("**", "").removeprefix("Decision: "))
        words = words[:1].upper() + words[1:]  # a decision's sentence, once "Decision: " is left out
        title = _first_clause(words).rstrip(";:")
    return f"variant {variant}: {title}" if variant else title


def _first_clause(words: str) -> str:
    """`words` to their first `.` or `;` that a space follows, outside parentheses."""
    depth = 0
    for at, character in enumerate(words):
        depth = max(0, depth + (character == "(") - (character == ")"))  # (`a) …`: no parenthesis open)
        if character in ".;" and not depth and words[at + 1 : at + 2] == " ":
            return words[: at + 1]
    return words


def rules() -> list[Rule]:
    """Every rule, in the order of docs/rules.md."""
    return list(_read()[0].values())


def rule(rule_id: str) -> Rule:
    """The rule with this ID, in any case (`t2`, `T2`, `Syntax`); KeyError names the known IDs."""
    found = _read()[0].get(rule_id.strip().upper())
    if found is None:
        raise UnknownName(f"unknown rule {quoted(rule_id)} (known: {', '.join(r.id for r in rules())})")
    return found


def example(rule_id: str) -> Example | None:
    """A record that breaks the rule and lusoria's diagnostic, or a legal one that shows it (`Example`),
    when the rule has one."""
    return _read()[1].get(rule(rule_id).id.upper())


def explain(rule_id: str) -> str:
    """The rule as `lusoria explain` prints it: text, options, an example."""
    found = rule(rule_id)
    game = "every game" if found.game == ANY_GAME else found.game
    parts = [f"{found.id} ({game})", ""]
    for paragraph in plain(found.text).split("\n"):
        bullet = paragraph.startswith("- ")
        parts.append(textwrap.fill(paragraph, 88, subsequent_indent="  " if bullet else ""))
    if found.cites:
        parts += ["", "Rules it refers to (lusoria explain ID says more):"]
        parts += [_cited_line(rule(rule_id), found.game) for rule_id in found.cites]
    if found.options:
        parts += ["", "Options (Rules tag; the default first):"]
        parts += [f"  {plain(o.key)}: {plain(o.values)} — {plain(o.meaning)}" for o in found.options]
    shown = example(found.id)
    if shown:
        parts += ["", "Example:", f"  {shown.record}", f"  {shown.message}"]
    return "\n".join(parts)


def option_text(key: str) -> str | None:
    """What `lusoria explain KEY` prints of an option of the Rules tag (`leftover`, any case): of
    each game that has an option of that name, its values, meaning and the rules it changes; None
    when no game has one."""
    wanted = key.strip().lower()
    found = [(game, option) for game in _games() for option in tag_options(game) if option.key.lower() == wanted]
    if not found:
        return None
    lines = [f"{found[0][1].key}: an option of the Rules tag (the default value first)"]
    for game, option in found:
        lines.append(
            textwrap.fill(
                f"{game}: {plain(option.values)} — {plain(option.meaning)}",
                88,
                initial_indent="  ",
                subsequent_indent="    ",
            )
        )
        changed = [rule.id for rule in rules() if rule.game == game and option in rule.options]
        if changed:
            lines.append(f"    rules it changes: {', '.join(changed)}")
    return "\n".join([*lines, "(lusoria explain GAME lists a game's options, lusoria explain ID a rule)"])


def mentioning(words: str) -> list[Rule]:
    """The rules whose own texts (not the notes of how lusoria applies them) use `words` (any case,
    one word or several in a row; a plural in s or es too: camp, camps; a Latin one in -i of a word
    in -us: incitus, inciti), in the order of docs/rules.md; none for words all too common to name
    a notion (`too_common`: the, of the)."""
    if too_common(words):
        return []
    written = r"\s+".join(re.escape(word) for word in words.split())
    latin = re.search(r"\w\wus$", written, re.IGNORECASE)  # (a stem before -us: not `us` itself)
    used = re.compile(rf"\b{written[:-2] + '(?:us|i)' if latin else written}(?:e?s)?\b", re.IGNORECASE)
    rules, _, own_texts = _read()
    return [rules[key] for key, text in own_texts.items() if written and used.search(plain(text))]


def too_common(words: str) -> bool:
    """Whether every word of `words` is a word that names no notion (COMMON: the, of, is, may)."""
    return all(word.lower() in COMMON for word in words.split())


def mentions(words: str) -> str | None:
    """What `lusoria explain WORD` prints of a word that names no rule but that rules' texts use: each
    of those rules, its ID, game and title; None when none does. KeyError for words too common to
    look for (`too_common`), which most rules use: saying so, not listing them."""
    said = " ".join(words.split())
    if said and too_common(said):
        common = "it is too common a word" if len(said.split()) == 1 else "its words are too common"
        raise UnknownName(
            f"no rule, game or variant is named {quoted(said)}, and {common} to look for in the rules' texts "
            "(lusoria explain konakis lists the rules whose texts use a word)"
        )
    found = mentioning(words)
    if not found:
        return None
    used = "the text of 1 rule uses it" if len(found) == 1 else f"the texts of {len(found)} rules use it"
    lines = [f"{quoted(said)} names no rule, game or variant; {used}:"]
    lines += [_cited_line(rule, "") for rule in found]
    return "\n".join([*lines, "(lusoria explain ID says more)"])


def family(letters: str) -> str | None:
    """What `lusoria explain S` prints of letters that begin rule IDs (S1, S2…): each of those rules, its game and
    title (newcomer-58a: `explain S` listed the rules whose texts use the word); None when no ID begins so."""
    found = [rule for rule in rules() if re.fullmatch(rf"{re.escape(letters)}[0-9]+", rule.id, re.IGNORECASE)]
    if not found:
        return None
    lines = [f"{quoted(letters)} names no rule; it begins the IDs of {plural(len(found), 'rule')}:"]
    lines += [_cited_line(rule, "") for rule in found]
    return "\n".join([*lines, "(lusoria explain ID says more)"])


def _cited_line(cited: Rule, game: str) -> str:
    """A rule another rule refers to: its ID (and game, where it is another's) and its title."""
    of_game = "" if cited.game == game else f" ({cited.game})"
    return textwrap.fill(f"{cited.id}{of_game}: {cited.title}", 88, initial_indent="  ", subsequent_indent="    ")


def plain(cell: str) -> str:
    """Text without its Markdown (backticks, bold, escaped bars)."""
    return cell.replace("`", "").replace("**", "").replace("\\|", "|")
