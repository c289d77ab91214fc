"""The replay driver, diagnostics and one rules module per game."""
