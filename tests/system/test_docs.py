"""The docs show real output: cog regenerates it, and this test fails when it is stale."""

import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import api, rulebook
from lusoria.archive.schema import SCHEMA_VERSION, open_archive
from lusoria.cli import main
from lusoria.validator.games import GAMES
from lusoria.validator.hnefatafl import catalogue


def test_docs_output_is_current(in_root):
    documents = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
    result = subprocess.run(
        [sys.executable, "-m", "cogapp", "--check", "-I", "docs", *documents], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr + "\nrun: cog -r -I docs README.md docs/*.md"


def test_every_command_is_shown_in_the_docs():
    """Each command and subcommand of `lusoria` is named in the docs as it is typed (`lusoria NAME`,
    or a console's `$ lusoria NAME`): new-user-27's command, added by docs/design.md's recipe,
    passed every test with no page naming it."""
    pages = "".join(path.read_text() for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
    typed = set(re.findall(r"(?:`|\$ |console\(\")lusoria ([a-z]+(?: [a-z]+)?)", pages))
    commands = {
        f"{name} {sub}" if sub else name
        for name, command in main.commands.items()
        for sub in getattr(command, "commands", None) or [""]
    }
    assert commands - typed - {word.split()[0] for word in typed} == set()


def test_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[2] == "```sh" and lines[5] == "```"
    assert "lusoria validate samples/" in lines[3] and lines[4].endswith("pytest")


DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.M | re.S)  # code blocks and spans: no links there
_LINK = re.compile(r"!?\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)")  # [text](target "title"), ![alt](…)
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*$", re.M)


def _prose(path: Path) -> str:
    return _CODE.sub("", path.read_text(encoding="utf-8"))


@cache
def anchors(path: Path) -> set[str]:
    """The anchors of a document's headings, as GitHub makes them (lower case, punctuation
    dropped, spaces as hyphens; a repeated one numbered)."""
    found: set[str] = set()
    for heading in _HEADING.findall(_prose(path)):
        slug = unique = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        number = 0
        while unique in found:
            number += 1
            unique = f"{slug}-{number}"
        found.add(unique)
    return found


@cache
def tracked() -> set[Path] | None:
    """The files git tracks (what a fresh clone holds); None outside a git checkout."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True)
    return {ROOT / name for name in listed.stdout.split("\0") if name} if listed.returncode == 0 else None


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_resolves_in_the_checkout(document):
    """Links into the project are relative, so that they resolve in a clone, on any mirror and
    in an editor: each names a file git tracks (a fresh clone holds it) and, after `#`, one of
    its headings. A link out of the project is not followed (no network in the tests), but none
    points at a home of lusoria's own: it has none yet (pyproject.toml)."""
    targets = _LINK.findall(_prose(document))
    for target in targets:
        if re.match(r"[a-z]+:", target):
            assert "github.com/lusoria" not in target, f"{document.name}: {target}"
            continue
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        assert linked.is_file(), f"{document.name}: {target} names no file"
        assert tracked() is None or linked in tracked(), f"{document.name}: {target} is not in git"
        assert not anchor or anchor in anchors(linked), f"{document.name}: {target}: no such heading"


def test_the_readme_links_into_the_project():
    """The README's links and images (its table of contents, the diagrams) are all checked above."""
    targets = _LINK.findall(_prose(ROOT / "README.md"))
    assert len([t for t in targets if not re.match(r"[a-z]+:", t)]) >= 15
    assert {"docs/images/tablut.svg", "docs/notation.md", "BENCHMARKS.md"} <= set(targets)


def test_the_rules_page_shows_every_rule_and_every_games_options_and_notes():
    """docs/rules.md is generated from the rules' texts (cog keeps each block current, above): every
    rule is one bullet of it, and every game with options or notes has its table and its list."""
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for game in {rule.game for rule in rulebook.rules()}:
        if game in GAMES and not GAMES[game].__module__.startswith("lusoria."):
            continue  # a plug-in's game brings its own texts, not a section of lusoria's page
        texts = rulebook.written(game)
        for entry in texts["rules"]:
            assert page.count(f"\n- **{entry['id']}** {entry['text'].splitlines()[0]}\n") == 1, entry["id"]
        assert ("options" in texts) == (f'option_table("{game}")' in page), game
        assert ("applied" in texts) == (f'applied("{game}")' in page), game


def test_the_formats_page_names_every_variant_of_the_catalogue():
    """docs/formats.md lists the tafl game types lusoria reads, generated from the catalogue: every
    aagenielsen.dk type, every OpenTafl variant and every entry known to neither (a club's), so
    every entry and every variant of the generic game is named there with its tags."""
    page = (ROOT / "docs" / "formats.md").read_text()
    described = [game for game in GAMES.values() if getattr(game, "described", False)]
    assert described and all(f'`Variant "{name}"`' in page for game in described for name in game.presets)
    for entry in catalogue():
        assert ", ".join(f'`{tag} "{value}"`' for tag, value in entry.tags().items()) in page, entry.name
    assert '| `Fetlar` | 11×11 | `Game "hnefatafl"`, `Variant "opentafl-fetlar-11x11"` |' in page


@pytest.mark.parametrize("folder", ["notation", "validator", "formats", "archive", "lusoria"])
def test_the_designs_layout_names_every_module(folder):
    """docs/design.md's table of the layout names every module of each folder in its row, as a name
    in backticks (`escapes`, `base.Game`, `api.py`); a game's own modules and rules' texts are its
    `<game>` and `<game>_<part>`. A module added, or one renamed, without its row fails here."""
    row = re.search(rf"^\| `{folder}/` \|.*$", (ROOT / "docs" / "design.md").read_text(), re.M)
    assert row, f"no row of {folder}/"
    named = {re.split(r"[.(]", span)[0] for span in re.findall(r"`([^`]+)`", row[0])}
    games = {GAMES[name].__module__.rpartition(".")[2] for name in GAMES} if folder == "validator" else set()
    modules = {
        path.stem
        for path in [*(ROOT / folder).glob("*.py"), *(ROOT / folder).glob("*.toml")]
        if path.stem != "__init__" and path.stem.split("_")[0] not in games
    }
    assert sorted(modules - named) == []


def test_the_archive_page_names_the_schema_as_a_new_archive_has_it(tmp_path):
    """docs/archive.md's prose says the version a new archive is made at, and its table of the schema
    has a row for each table and view of one (the full-text indexes' own tables aside)."""
    page = (ROOT / "docs" / "archive.md").read_text(encoding="utf-8")
    assert f"(`PRAGMA user_version` is {SCHEMA_VERSION};" in page
    db = open_archive(str(tmp_path / "new.db"))
    named = db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").fetchall()
    rows = set(re.findall(r"^\| `(\w+)`", page, re.M))
    assert {name for (name,) in named if not re.match(r"(positions|records_fts)_", name)} <= rows


_COGGED = re.compile(r"<!-- \[\[\[cog.*?\[\[\[end\]\]\] -->", re.S)
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def written_blocks(page: str, language: str) -> list[str]:
    """The code blocks of `language` that a page's author wrote (cog writes the others)."""
    text = _COGGED.sub("", (ROOT / page).read_text(encoding="utf-8"))
    return [body for written, body in _BLOCK.findall(text) if written == language]


@pytest.fixture
def beside_the_samples(tmp_path, monkeypatch):
    """A scratch folder holding `samples`, with the default archive (lusoria.db) there."""
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LUSORIA_DB", raising=False)
    return tmp_path


@pytest.mark.parametrize("page", ["README.md", "docs/archive.md"])
def test_the_python_examples_run(page, beside_the_samples):
    """The examples docs/api.md does not hold (tests/system/test_api_docs.py runs its own)."""
    [example] = written_blocks(page, "python")
    exec(compile(example, page, "exec"), {})


def test_the_readmes_commands_are_ones_lusoria_takes(beside_the_samples):
    """The commands the README shows without their output run, in order, on the samples: none is
    a usage error (exit status 2), as an option renamed or removed would be. `serve` runs until
    Ctrl-C: its options are checked alone."""
    commands = [line for block in written_blocks("README.md", "console") for line in block.splitlines()]
    assert len(commands) >= 12
    for line in commands:
        words = shlex.split(line.removeprefix("$ "), comments=True)
        assert words[0] == "lusoria", line
        if words[1] == "serve":
            words.append("--help")
        result = CliRunner().invoke(main, words[1:])
        assert result.exit_code in (0, 1), f"{line}\n{result.output}"


def test_the_notations_example_records_are_valid():
    records = written_blocks("docs/notation.md", "")
    assert [record.splitlines()[0] for record in records] == ['[Game "laquet"]', '[Game "tablut"]']
    for record in records:
        report = api.check(record)
        assert report.valid and not report.diagnostics, report.diagnostics


def test_what_lusoria_says_cites_its_own_docs_not_the_contracts_files():
    """`lusoria explain saami-tablut` said `sources: RULES.md …` and a slip `NOTATION.md §3`: files beside the
    development checkout that no user has (newcomer-52). What lusoria prints cites docs/rules.md and docs/notation.md."""
    said = [api.explain(variant.name) for variant in catalogue()] + [api.explain(rule) for rule in ("T1", "tag")]
    slip = CliRunner().invoke(main, ["validate", "-"], input='[Game "tablut"]\n\n1. e3-c3 d1-d3 2. e4?-e3 *\n').output
    for text in [*said, slip]:
        assert "RULES.md" not in text and "NOTATION.md" not in text
    assert "docs/notation.md §3" in slip
    assert "sources: docs/rules.md (Tablut, the site's variant aage)" in api.explain("saami-tablut")
