"""Where lusoria keeps a user's own settings (a user's catalogue of tafl variants, which the
validator reads beside lusoria's): the application's choice, made here, not by the library's
modules that read the files."""

from __future__ import annotations

from pathlib import Path


def settings_folder() -> Path:
    """lusoria's folder of the user's settings, as click chooses it (`click.get_app_dir`):
    `~/.config/lusoria` on Linux (under XDG_CONFIG_HOME when set), `~/Library/Application
    Support/lusoria` on macOS, `%APPDATA%\\lusoria` on Windows."""
    import click  # (the command line's library: loaded when the folder is asked: the hnefatafl catalogues)

    return Path(click.get_app_dir("lusoria"))
