"""Compiles the modules that carry lusoria/accelerator.py's MARK with mypyc, for speed; the rest
of the build is in pyproject.toml. Without a compiler, when mypyc fails, or with
LUSORIA_PURE_PYTHON=1, the package installs as pure Python (the same behaviour, slower)."""

import compileall
import importlib.machinery
import importlib.util
import os
import shutil
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("accelerator", ROOT / "lusoria" / "accelerator.py")
assert spec is not None and spec.loader is not None
accelerator = importlib.util.module_from_spec(spec)
spec.loader.exec_module(accelerator)


def remove_earlier_builds(package: Path, kept: set[str]) -> None:
    """Remove the compiled modules an earlier build left beside the sources (pip install -e)
    that this build does not make again: a module no longer compiled must run as its source."""
    for folder in (package, *(entry for entry in package.iterdir() if entry.is_dir())):
        for built in folder.iterdir():
            suffix = next((s for s in importlib.machinery.EXTENSION_SUFFIXES if built.name.endswith(s)), None)
            if suffix and ".".join(built.relative_to(package.parent).parts)[: -len(suffix)] not in kept:
                built.resolve().unlink(missing_ok=True)  # a link left to a module removed since


def for_pre_commit() -> bool:
    """Whether pre-commit is installing lusoria for its hooks (`pre-commit run` sets PRE_COMMIT=1;
    every pre-commit command installs into a virtualenv `py_env-…` it makes in its clone of the
    project): pure Python checks a commit's records in a moment, where compiling takes minutes."""
    environment = Path(os.environ.get("VIRTUAL_ENV") or "/")
    return os.environ.get("PRE_COMMIT") == "1" or (
        environment.name.startswith("py_env-") and environment.parent.resolve() == ROOT
    )


def compiled_extensions() -> list:
    """mypyc's extensions (each optional: a compiler error leaves that module pure Python),
    or none when the sources are asked for (or pre-commit installs lusoria) or mypyc cannot
    compile them."""
    package = accelerator.installed_layout(ROOT, ROOT / "build" / "mypyc-layout")
    for stale in ROOT.glob("build/lib*"):  # an earlier build's compiled modules would go into the wheel
        shutil.rmtree(stale)
    pure = accelerator.pure_requested() or for_pre_commit()
    compiled = accelerator.marked(package)
    remove_earlier_builds(package, set() if pure else {*compiled, accelerator.SHARED_LIBRARY + "__mypyc"})
    if pure:
        why = f"{accelerator.PURE_SWITCH} is set" if accelerator.pure_requested() else "pre-commit installs its hooks"
        print(f"{why}: lusoria installs as pure Python", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify

        paths = [str(package.parent / (name.replace(".", "/") + ".py")) for name in compiled]
        extensions = mypycify(
            paths,
            opt_level="3",
            separate=[(paths, accelerator.SHARED_LIBRARY)],
            target_dir=str(ROOT / "build" / "mypyc"),
        )
    except (Exception, SystemExit) as error:  # mypyc reports type errors by exiting
        print(f"mypyc could not compile lusoria ({error}): it installs as pure Python", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True
    return extensions


def compile_bytecode() -> None:
    """Byte-compile the sources, which an editable install runs where they are, as pip does
    for an installed wheel: start-up then reads no source even where Python may not write
    bytecode (PYTHONDONTWRITEBYTECODE). A source edited since is compiled again, as always."""
    for folder in accelerator.package_folders(ROOT).values():
        compileall.compile_dir(folder, quiet=1)


compile_bytecode()
setup(ext_modules=compiled_extensions())
