"""Compiles the modules that carry lusoria/accelerator.py's MARK with mypyc, for speed; the rest
of the build is in pyproject.toml. Without a compiler, when mypyc fails, or with
LUSORIA_PURE_PYTHON=1, the package installs as pure Python (the same behaviour, slower)."""

import compileall
import importlib.machinery
import shutil
import sys
from pathlib import Path

from setuptools import setup

from build_backend import ROOT, accelerator, pure_build  # (the project's folder is on the path: backend-path)


def remove_earlier_builds(package: Path, kept: set[str]) -> None:
    """Remove the compiled modules an earlier build left beside the sources (pip install -e)
    that this build does not make again: a module no longer compiled must run as its source."""
    for folder in (package, *(entry for entry in package.iterdir() if entry.is_dir())):
        for built in folder.iterdir():
            suffix = next((s for s in importlib.machinery.EXTENSION_SUFFIXES if built.name.endswith(s)), None)
            if suffix and ".".join(built.relative_to(package.parent).parts)[: -len(suffix)] not in kept:
                built.resolve().unlink(missing_ok=True)  # a link left to a module removed since


def compiled_extensions() -> list:
    """mypyc's extensions (each optional: a compiler error leaves that module pure Python),
    or none when the sources are asked for (or pre-commit installs lusoria) or mypyc cannot
    compile them."""
    package = accelerator.installed_layout(ROOT, ROOT / "build" / "mypyc-layout")
    for stale in ROOT.glob("build/lib*"):  # an earlier build's compiled modules would go into the wheel
        shutil.rmtree(stale)
    why = pure_build()
    compiled = accelerator.marked(package)
    remove_earlier_builds(package, set() if why else {*compiled, accelerator.SHARED_LIBRARY + "__mypyc"})
    if why:
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
