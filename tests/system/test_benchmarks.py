"""benchmarks/run.py without python-chess, its anchor: one line that says what to install, exit
status 2, no traceback (the runs that need no anchor go on without it)."""

import subprocess
import sys

from conftest import ROOT

WITHOUT_CHESS = (  # python-chess made unimportable, installed or not
    "import runpy, sys; sys.modules['chess'] = None; sys.argv[0] = {path!r}; "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)


def test_the_benchmarks_without_python_chess_say_what_to_install():
    script = WITHOUT_CHESS.format(path=str(ROOT / "benchmarks" / "run.py"))
    result = subprocess.run([sys.executable, "-c", script, "--quick"], capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "run.py: python-chess is not installed: pip install -e '.[bench]' (or pip install chess); "
        "--archive-only and --tree-sizes run without it\n"
    )
