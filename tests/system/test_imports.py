"""No import cycle in the library: every import of every module — at its top or inside a function,
but those for type checking only — makes the graph of the modules, and it has no cycle; each
module imports alone, in a fresh interpreter; and the archive's names imported on use are those
its type checker sees."""

import ast
import importlib.util
import subprocess
import sys
import tomllib

import pytest
from conftest import ROOT

PACKAGES = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
MODULES = {
    f"{package}.{path.stem}" if path.stem != "__init__" else package: path
    for package, folder in PACKAGES.items()
    for path in sorted((ROOT / folder).glob("*.py"))
}
OWN = sorted({package.split(".")[0] for package in PACKAGES})  # the top-level names the library is imported by


def imported(module: str) -> set[str]:
    """The library's modules that `module` imports, wherever in it, but under `if TYPE_CHECKING:`,
    with the packages they are in (their `__init__` runs first)."""
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    package = module if MODULES[module].stem == "__init__" else module.rpartition(".")[0]
    found: set[str] = set()
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
        pending.extend(ast.iter_child_nodes(node))
    named = set()
    for name in found:  # a module's import runs its packages' first (but this module's own: they ran)
        parts = name.split(".")
        named |= {".".join(parts[:length]) for length in range(1, len(parts) + 1)}
    own = {".".join(module.split(".")[:length]) for length in range(1, module.count(".") + 2)}
    return {name for name in named if name in MODULES and name not in own}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_modules_import_one_another_without_a_cycle():
    graph = {module: imported(module) for module in MODULES}
    assert cycles(graph) == []


def test_the_scan_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert {"lusoria.formats", "lusoria.formats.sources"} <= imported("lusoria.pipeline")  # the package runs first


def others_imported() -> list[str]:
    """The modules of Python and of other packages that the library's modules import at their top."""
    found = set()
    for path in MODULES.values():
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module)
    return sorted(name for name in found if name.split(".")[0] not in OWN)


ALONE = """
import importlib, os, sys, traceback
for other in sys.argv[1].split(","):
    importlib.import_module(other)
mine = sorted(name for name in sys.modules if name.split(".")[0] in sys.argv[2].split(","))
if mine:
    sys.exit(f"the other packages imported the library's own modules: {mine}")
for module in sys.argv[3:]:
    child = os.fork()
    if child == 0:
        try:
            importlib.import_module(module)
        except BaseException:
            traceback.print_exc()
            os._exit(1)
        os._exit(0)
    if os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]):
        print(module)
"""


@pytest.mark.slow
def test_each_module_imports_alone():
    """Each module in a fresh interpreter of its own: a fork of one that has imported nothing of
    the library, only the modules of Python and of other packages it imports (a new interpreter
    for each took four times the CPU, most of it starting up and importing those again)."""
    modules = [module for module in sorted(MODULES) if module != "lusoria.lsp" or importlib.util.find_spec("pygls")]
    others = [name for name in others_imported() if not name.startswith("pygls") or importlib.util.find_spec("pygls")]
    done = subprocess.run(
        [sys.executable, "-c", ALONE, ",".join(others), ",".join(OWN), *modules],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr[-5000:]


def test_the_archive_names_its_type_checker_sees_are_those_it_imports_on_use():
    """lusoria.archive imports each of its names when first used (`HOMES`), and imports them for the
    type checker under `if TYPE_CHECKING:`: the two lists name the same names in the same modules,
    and each is its module's."""
    import lusoria.archive as archive

    tree = ast.parse(MODULES["lusoria.archive"].read_text("utf-8"))
    [checking] = [
        node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
    ]
    typed: dict[str, tuple[str, ...]] = {}
    for node in checking.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            module = node.module.removeprefix("lusoria.archive.")
            typed[module] = typed.get(module, ()) + tuple(alias.name for alias in node.names)
            assert [alias.asname for alias in node.names] == [alias.name for alias in node.names]  # re-exported
    assert typed == archive.HOMES
    assert all(getattr(archive, name) is not None for name in archive.__all__)


@pytest.mark.parametrize("package", ["notation", "grammar", "validator", "formats", "archive"])
def test_the_library_imports_no_command_line_library(package):
    """click is the command line's: the library's folders never import it (the folder of the user's
    settings, where the validator reads a user's own catalogue, is chosen in lusoria/settings.py)."""
    clicks = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / package).glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if "click" in _top_names(node)
    ]
    assert clicks == []


def _top_names(node: ast.AST) -> set[str]:
    """The top-level packages an import statement imports (none for another statement)."""
    if isinstance(node, ast.Import):
        return {alias.name.split(".")[0] for alias in node.names}
    if isinstance(node, ast.ImportFrom) and not node.level and node.module:
        return {node.module.split(".")[0]}
    return set()
