"""Helpers for cog, which writes the real output of commands into the docs.

Regenerate: `cog -r -I docs README.md docs/*.md`; the test suite runs `cog --check`.
"""

import ast
import functools
import html
import inspect
import json
import os
import re
import shlex
import shutil
import tempfile

import cog
from click.testing import CliRunner

from lusoria.cli import main
from lusoria.plugins import NO_ENTRY_POINTS
from lusoria.validator.hnefatafl import USERS_CATALOGUE

os.environ[USERS_CATALOGUE] = os.devnull  # the docs show lusoria's catalogue, never the user's own
os.environ[NO_ENTRY_POINTS] = "1"  # and lusoria's formats and games, never the plug-ins installed beside it


def console(command: str, input: str | None = None) -> None:
    """Run a `lusoria …` command and write it with its output as a console block."""
    result = CliRunner().invoke(main, shlex.split(command)[1:], input=input, prog_name="lusoria")
    shown = f"{command} <<'EOF'\n{input}EOF" if input is not None else command
    cog.out(f"```console\n$ {shown}\n{result.output}```\n")


def file(path: str, language: str = "") -> None:
    """Write a file of the project into the docs."""
    with open(path, encoding="utf-8") as text:
        cog.out(f"```{language}\n{text.read()}```\n")


_scratch: list[str] = []


def archive_console(command: str) -> None:
    """Like `console`, run in a scratch directory that holds `samples` and, once
    `lusoria import` has run, `lusoria.db` (the default archive)."""
    if not _scratch:
        folder = tempfile.mkdtemp(prefix="lusoria-docs-")
        os.symlink(os.path.abspath("samples"), os.path.join(folder, "samples"))
        _scratch.append(folder)
    here = os.getcwd()
    os.chdir(_scratch[0])
    try:
        os.environ.pop("LUSORIA_DB", None)
        console(command)
    finally:
        os.chdir(here)


def published_index(folder: str) -> None:
    """The rows of the index.html that `lusoria html --output-dir` wrote into `folder` (of the scratch
    directory of `archive_console`), as a table under its title: its columns, the cells as the page shows
    them (a path's break opportunities left out), the link its target."""
    with open(os.path.join(_scratch[0], folder, "index.html"), encoding="utf-8") as page:
        text = page.read()
    columns = re.findall(r"<th>([^<]+)</th>", text)
    cog.outl(f"Titled *{html.unescape(re.search(r'<h1>(.*?)</h1>', text)[1])}*:\n")
    cog.outl(f"| {' | '.join(columns)} | link |\n|{' --- |' * (len(columns) + 1)}")
    for row in re.findall(r"<tr><td.*?</tr>", text):
        cells = [html.unescape(cell.replace("<wbr>", "")) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        link = re.search(r'href="([^"]*)"', row)[1]
        cog.outl("| " + " | ".join([*cells[: len(columns)], f"`{link}`"]) + " |")


def schema() -> None:
    """The CREATE statements of a new archive."""
    from lusoria.archive.schema import open_archive

    folder = tempfile.mkdtemp(prefix="lusoria-schema-")
    db = open_archive(os.path.join(folder, "schema.db"))
    statements = [
        row[0] + ";"
        for row in db.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'records_fts_%' "
            "AND name NOT LIKE 'positions_%' ORDER BY rowid"
        )
    ]  # the full-text tables' own
    cog.out("```sql\n" + "\n".join(statements) + "\n```\n")


def rule_list(first: str, last: str | None = None) -> None:
    """The bullets of the rules from ID `first` to `last` (or `first` alone), as their game's file of
    rules' texts writes them (lusoria/rulebook.py)."""
    from lusoria import rulebook

    rules = rulebook.written(rulebook.rule(first).game)["rules"]
    ids = [entry["id"] for entry in rules]
    chosen = rules[ids.index(rulebook.rule(first).id) : ids.index(rulebook.rule(last or first).id) + 1]
    cog.out("".join(_bullet(f"**{entry['id']}** {entry['text']}") for entry in chosen))


def applied(game: str) -> None:
    """The bullets of how lusoria applies a game's rules where the text leaves room."""
    from lusoria.rulebook import written

    cog.out("".join(_bullet(note) for note in written(game)["applied"]))


def _bullet(text: str) -> str:
    first, *rest = text.splitlines()
    return "".join([f"- {first}\n", *(f"  {line}\n" for line in rest)])


def option_table(game: str) -> None:
    """The table of a game's options (keys of the Rules tag)."""
    from lusoria.rulebook import options

    rows = [f"| `{option.key}` | {option.values} | {option.meaning} |" for option in options(game)]
    cog.out("| key | values | meaning |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")


def preset_table(game: str) -> None:
    """The table of a game's presets (values of the Variant tag), each with the options it sets."""
    from lusoria.validator.base import written_options
    from lusoria.validator.games import GAMES

    presets = GAMES[game].presets
    rows = [
        f"| `{name}`{' (default)' if number == 0 else ''} | "
        + (f"`{written_options(options)}`" if options else "the defaults above")
        + " |"
        for number, (name, options) in enumerate(presets.items())
    ]
    cog.out("| `Variant` | options |\n| --- | --- |\n" + "\n".join(rows) + "\n")


def example_table() -> None:
    """For each rule that has one, its example: a record that breaks it, and what lusoria says (or
    a legal record that shows it, `valid: …`)."""
    from lusoria.rulebook import example, rules

    rows = [f"| `{rule.id}` | `{shown.record}` | {shown.message} |" for rule in rules() if (shown := example(rule.id))]
    cog.out("| rule | record | lusoria says |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")


def _tags(entry) -> str:
    """The tags of a catalogue entry's records, as the docs write them."""
    return ", ".join(f'`{tag} "{value}"`' for tag, value in entry.tags().items())


def _refused(entry) -> str:
    return f" (refused: {entry.refused})" if entry.refused else ""


def _with_layouts(entry) -> str:
    """The tags of an entry's records, or of its other layouts' (`layout_of`), and why it is refused."""
    from lusoria.validator.hnefatafl import catalogue

    layouts = (entry, *(other for other in catalogue() if other.layout_of == entry.name))
    return " or ".join(_tags(layout) for layout in layouts) + _refused(entry)


def _board(entry) -> str:
    """The board an entry's rules play on: `9×9`."""
    from lusoria.validator.games import GAMES
    from lusoria.validator.tafl_rules import read_record

    size = read_record(entry.rules)["dim"] if entry.rules else GAMES[entry.game].board.size
    return f"{size}×{size}"


def tafl_types() -> None:
    """The aagenielsen.dk game types the catalogue of tafl game types names, each with the tags of
    its records (validator/tafl_variants.toml)."""
    from lusoria.validator.hnefatafl import catalogue

    rows = [f"| `{kind}` | {_with_layouts(entry)} |" for entry in catalogue() for kind in entry.aagenielsen]
    cog.out("| `AageGameTypeName` | lusoria |\n| --- | --- |\n" + "\n".join(rows) + "\n")


# the settings the tafl family varies, and the clause of an entry's notes that lists those its games leave open
FAMILY_SETTINGS = ("esc", "ka", "ks", "surf", "cen", "cenh", "cenhe", "cor", "corh", "spd")
_LEFT_OPEN = re.compile(
    r"Undetermined by the site's games here \(each other value reads every game the same\): (.*?)\.(?: |$)"
)


def open_settings() -> None:
    """docs/rules.md's figures of the settings the tafl family varies, of the aagenielsen.dk types the
    engine plays by their rules records, and of those their games leave open (each entry's notes)."""
    from lusoria.validator.hnefatafl import catalogue
    from lusoria.validator.tafl_rules import idle, read_record

    types = settings = left_open = encirclement = speed = 0
    for entry in catalogue():
        if entry.rules and entry.aagenielsen_ids:  # (a built-in game's types: its settings are its own)
            kinds, unused = len(entry.aagenielsen_ids), idle(read_record(entry.rules))
            clause = _LEFT_OPEN.search(entry.notes)
            keys = re.findall(r"(\w+):\S* \(", clause[1]) if clause else []
            types += kinds
            settings += kinds * sum(key not in unused for key in FAMILY_SETTINGS)
            left_open += kinds * len(keys)
            encirclement += kinds * ("surf" in keys)
            speed += kinds * ("spd" in keys)
    cog.out(
        f"  Of the {settings:,} such settings of the {types} types, {left_open} are open ({encirclement} of them\n"
        f"  encirclement, {speed} speed limits); a larger set of the same types may decide them.\n"
    )


def opentafl_variants() -> None:
    """OpenTafl's variants as the catalogue of tafl game types names them (its entries' `opentafl`),
    each with its board and the tags of its records (validator/tafl_variants.toml)."""
    from lusoria.validator.hnefatafl import catalogue

    rows = [
        f"| {' or '.join(f'`{name}`' for name in entry.opentafl)} | {_board(entry)} | {_tags(entry)}{_refused(entry)} |"
        for entry in catalogue()
        if entry.opentafl
    ]
    cog.out("| OpenTafl's name | board | lusoria |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")


def house_variants() -> None:
    """The catalogue's entries known to neither aagenielsen.dk nor OpenTafl (a club's house rules),
    each with its title, board and the tags of its records and of its other layouts
    (validator/tafl_variants.toml)."""
    from lusoria.validator.hnefatafl import catalogue

    rows = [
        f"| {entry.title} | {_board(entry)} | {_with_layouts(entry)} |"
        for entry in catalogue()
        if not (entry.aagenielsen or entry.opentafl or entry.layout_of)
    ]
    if not rows:
        cog.out("None today: every entry is an aagenielsen.dk type, another layout of one, or an OpenTafl variant.\n")
        return
    cog.out("| title | board | lusoria |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n")


def scratch_file(name: str, text: str, encoding: str = "utf-8") -> None:
    """Write a file into the scratch directory of `archive_console` in `encoding`, and into the docs
    (as `cat` shows it, or `iconv` one in another encoding than UTF-8)."""
    with open(os.path.join(_scratch[0], name), "w", encoding=encoding) as out:
        out.write(text)
    shown = f"cat {name}" if encoding == "utf-8" else f"iconv -f {encoding} {name}"
    cog.out(f"```\n$ {shown}\n{text}```\n")


def scratch_copy(path: str, name: str) -> None:
    """Copy a file of the project into the scratch directory of `archive_console`, as `name`."""
    shutil.copyfile(path, os.path.join(_scratch[0], name))


def duckdb_console(sql: str) -> None:
    """Run SQL through DuckDB in the scratch directory of `archive_console` (after `lusoria
    export`), and write it with what DuckDB prints."""
    import duckdb

    here = os.getcwd()
    os.chdir(_scratch[0])
    try:
        shown = str(duckdb.sql(sql))
    finally:
        os.chdir(here)
    cog.out(f'```python\n>>> import duckdb\n>>> print(duckdb.sql("""\n{sql}"""))\n{shown}```\n')


def reference(target: str, names: list[str] | None = None) -> None:
    """The API reference of `target` (`module` or `module:Class`): for a module, each name of its
    `__all__` (or `names`); for a class, its public methods. Each with its signature and docstring,
    read from the source where it is defined (the same whether the build is compiled or not)."""
    import importlib

    module_name, _, class_name = target.partition(":")
    owner = importlib.import_module(module_name)
    if class_name:
        owner = getattr(owner, class_name)
        node = _definition(owner.__module__, class_name)
        found = [item.name for item in node.body if isinstance(item, ast.FunctionDef) and not item.name.startswith("_")]
        entries = [(class_name, owner.__module__, class_name)]
        entries += [(f"{class_name}.{name}", owner.__module__, f"{class_name}.{name}") for name in found]
    else:
        entries = []
        for name in names or owner.__all__:
            value = getattr(owner, name)
            home = getattr(inspect.unwrap(value), "__module__", None)  # (the library's seam wraps its calls)
            if callable(value) and (home or "").startswith("lusoria"):  # not a typing construct (Problem)
                entries.append((name, home, getattr(value, "__qualname__", name)))
    for shown, home, qualified in entries:
        node = _definition(home, qualified)
        if node is None:
            continue
        cog.out(f"#### `{shown}{_signature(node)}`\n\n")
        doc = ast.get_docstring(node)
        cog.out((doc or "(no docstring)") + f"\n\n*Defined in `{home}`.*\n\n")


def _definition(module: str, qualified: str):
    """The AST node of a class or function `qualified` (`Class.method`) in `module`'s source."""
    node = _source_tree(module)
    for part in qualified.split("."):
        node = next(
            (item for item in node.body if isinstance(item, (ast.ClassDef, ast.FunctionDef)) and item.name == part),
            None,
        )
        if node is None:
            return None
    return node


@functools.cache  # (docs/api.md reads 270 definitions from a few modules: parsed once each, not 4 s)
def _source_tree(module: str) -> ast.Module:
    """The parsed source of `module` (its `.py`, also where the build is compiled)."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None, module
    source = spec.origin if spec.origin.endswith(".py") else spec.origin.split(".cpython")[0] + ".py"  # compiled
    with open(source, encoding="utf-8") as text:
        return ast.parse(text.read())


def _signature(node) -> str:
    """A definition's signature as written (a class: its fields or `__init__`, if any; a property:
    its type)."""
    if isinstance(node, ast.ClassDef):
        init = next((item for item in node.body if isinstance(item, ast.FunctionDef) and item.name == "__init__"), None)
        if init is not None:
            node = init
        else:
            fields = [ast.unparse(item.target) for item in node.body if isinstance(item, ast.AnnAssign)]
            return f"({', '.join(fields)})" if fields else ""
    if any(ast.unparse(decorator) in ("property", "cached_property") for decorator in node.decorator_list):
        return f": {ast.unparse(node.returns)}" if node.returns else ""  # an attribute, not a call
    arguments = ast.unparse(node.args).removeprefix("self, ").removeprefix("cls, ")
    arguments = "" if arguments in ("self", "cls") else arguments
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"({arguments}){returns}".replace("]]]", "]] ]")  # cog reads `]]]` as its own


# -- editors.md: the language server's setups, from the format registry ----------------------------

GAMES_FOLDER = "games"  # where the setups attach the server to files whose suffix other files share too
OTHERS = "games"  # the language the files of the formats told by their first characters are given


def _editor_languages() -> dict[str, list[tuple[str, bool]]]:
    """Each language of the setups and its files' endings, each with whether it is attached everywhere:
    a format that its files' suffixes tell alone (lgn, OpenTafl's) has a language of its own; the
    others' are OTHERS: a name ending of their own (a Tablut Challenge log's) everywhere, a suffix other
    files share (`.json`, `.txt`…: the file is told by its first characters) in GAMES_FOLDER only."""
    from lusoria.formats import FORMATS

    languages = {entry.name: [(s, True) for s in entry.suffixes] for entry in FORMATS.values() if entry.sniff is None}
    sniffed = [entry for entry in FORMATS.values() if entry.sniff is not None]
    named = [(ending, True) for entry in sniffed for ending in entry.named]
    shared = sorted({suffix for entry in sniffed for suffix in entry.suffixes})
    return {**languages, OTHERS: named + [(suffix, False) for suffix in shared]}


def editor_formats() -> None:
    """The table of the formats the language server reads, the files the setups attach it to, and what it gives."""
    from lusoria.formats import FORMATS

    cog.outl("| format | files the setups below attach the server to | the server gives |")
    cog.outl("| --- | --- | --- |")
    for entry in FORMATS.values():
        told = ", ".join(f"`*{suffix}`" for suffix in entry.suffixes)
        if entry.sniff is not None:
            told = f"{told} holding {re.sub(r' [(].*[)]$', '', entry.kind)}, in a folder `{GAMES_FOLDER}/`"
        files = "; ".join([*(f"`*{ending}`" for ending in entry.named), told])
        gives = "every feature above" if entry.name == "lgn" else "diagnostics, hover, outline, its plies coloured"
        cog.outl(f"| {entry.name} | {files} | {gives} |")


def editor_setup(editor: str) -> None:
    """The setup of an editor (`vscode`, `neovim`, `helix`, `emacs`) for every language of `_editor_languages`."""
    cog.out(globals()[f"_{editor}_setup"](_editor_languages()))


def _any_case(text: str) -> str:
    """A pattern of `text` in any case, letter by letter (`[tT][xX][tT]`), for editors that match names as written."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in text)


def _vscode_setup(languages: dict[str, list[tuple[str, bool]]]) -> str:
    associations = {  # (VS Code matches them in any case)
        f"*{ending}" if everywhere else f"**/{GAMES_FOLDER}/**/*{ending}": language
        for language, endings in languages.items()
        for ending, everywhere in endings
    }
    settings = {
        "files.associations": associations,
        "glspc.server.command": "lusoria",
        "glspc.server.commandArguments": ["lsp"],
        "glspc.server.languageId": list(languages),
        "editor.semanticHighlighting.enabled": True,
    }
    return f"```json\n{json.dumps(settings, indent=2)}\n```\n"


def _neovim_setup(languages: dict[str, list[tuple[str, bool]]]) -> str:
    extensions = ", ".join(
        f'{ending[1:]} = "{language}"'
        for language, endings in languages.items()
        if language != OTHERS
        for ending, _ in endings
    )
    patterns = "".join(
        f'    ["{".*" if everywhere else f".*/{GAMES_FOLDER}/.*"}{_any_case(ending).replace(".", "%.")}"] = "{OTHERS}",\n'
        for ending, everywhere in languages[OTHERS]
    )
    filetypes = ", ".join(f'"{language}"' for language in languages)
    return (
        "```lua\n"
        f"vim.filetype.add({{\n  extension = {{ {extensions} }},\n  pattern = {{\n{patterns}  }},\n}})\n"
        f'vim.lsp.config("lusoria", {{\n  cmd = {{ "lusoria", "lsp" }},\n  filetypes = {{ {filetypes} }},\n'
        '  root_markers = { ".git" },\n})\nvim.lsp.enable("lusoria")\n```\n'
    )


def _helix_type(language: str, ending: str, everywhere: bool) -> str:
    """A file type of Helix's `file-types`: a suffix of the language's own, else a glob."""
    if language != OTHERS:
        return f'"{ending[1:]}"'
    return f'{{ glob = "{"*" if everywhere else f"**/{GAMES_FOLDER}/**/*"}{_any_case(ending)}" }}'


def _helix_setup(languages: dict[str, list[tuple[str, bool]]]) -> str:
    sections = ['[language-server.lusoria]\ncommand = "lusoria"\nargs = ["lsp"]\n']
    for language, endings in languages.items():
        types = ", ".join(_helix_type(language, *ending) for ending in endings)
        comments = (
            '\ncomment-tokens = [";"]\nblock-comment-tokens = { start = "{", end = "}" }' if language == "lgn" else ""
        )
        sections.append(
            f'[[language]]\nname = "{language}"\nscope = "source.{language}"\nfile-types = [{types}]{comments}\n'
            'language-servers = ["lusoria"]\n'
        )
    return "```toml\n" + "\n".join(sections) + "```\n"


def _emacs_regexp(ending: str, everywhere: bool) -> str:
    """The regexp of auto-mode-alist for a file ending, as an elisp string writes it (`\\\\.lgn\\\\'`)."""
    return ("" if everywhere else f"/{GAMES_FOLDER}/.*") + ending.replace(".", r"\\.") + r"\\'"


def _emacs_setup(languages: dict[str, list[tuple[str, bool]]]) -> str:
    lines = [
        f'(define-derived-mode {language}-mode text-mode "{language}" "Game records lusoria reads.")'
        for language in languages
    ]
    lines += [  # (Emacs matches them in any case, auto-mode-case-fold)
        f"(add-to-list 'auto-mode-alist '(\"{_emacs_regexp(ending, everywhere)}\" . {language}-mode))"
        for language, endings in languages.items()
        for ending, everywhere in endings
    ]
    modes = " ".join(f"{language}-mode" for language in languages)
    lines += [
        "(with-eval-after-load 'eglot",
        f'  (add-to-list \'eglot-server-programs \'(({modes}) "lusoria" "lsp")))',
        *(f"(add-hook '{language}-mode-hook #'eglot-ensure)" for language in languages),
    ]
    return "```elisp\n" + "\n".join(lines) + "\n```\n"
