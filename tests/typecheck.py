"""Type-check the package as it is installed: ``python tests/typecheck.py [mypy options]``.

The top-level folders are subpackages of ``lusoria`` only through ``pyproject.toml``'s
package-dir mapping, which mypy does not read; this lays the package out as installed
(symbolic links in a temporary folder, as setup.py does for mypyc) and runs mypy there with
the project's settings.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

from lusoria.accelerator import installed_layout

ROOT = Path(__file__).resolve().parent.parent


def typecheck(*options: str, targets: tuple[str, ...] = ("-p", "lusoria")) -> subprocess.CompletedProcess[str]:
    """Run mypy over the installed layout of ``lusoria`` (or over `targets`, files that import it,
    as a user's code); return the finished process."""
    with tempfile.TemporaryDirectory() as folder:
        installed_layout(ROOT, Path(folder))
        command = [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(Path(folder, ".mypy_cache")),
            *options,
            *targets,
        ]
        return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)


if __name__ == "__main__":
    finished = typecheck(*sys.argv[1:])
    print(finished.stdout, end="")
    print(finished.stderr, end="", file=sys.stderr)
    sys.exit(finished.returncode)
