"""`python -m lusoria`: the lusoria command, as `pip install` makes it (lusoria/cli.py's main)."""

from lusoria.cli import main

if __name__ == "__main__":
    main(prog_name="lusoria")
