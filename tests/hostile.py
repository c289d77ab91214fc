"""Hostile inputs that the hostile tests (system/test_hostile.py) and the language server's
(test_lsp.py) both put through lusoria: valid records to mutate, and whole files."""

from lusoria.api import random_records

VALID = (
    list(random_records("tablut", 3, seed=3, max_plies=40))
    + list(random_records("laquet", 2, seed=3, max_plies=30))
    + list(random_records("latrunculi", 2, seed=3, tags={"Variant": "seneca"}, max_plies=40))
)
FILES = [
    b"\x00" * 100,
    b'[Game "tablut"]\n1. e3-c3\x00 d1-d3 *\n',
    b'\xef\xbb\xbf[Game "tablut"]\r\n1. e3-c3 d1-d3 *\r\n',
    b'[Game "tablut"]\r1. e3-c3 d1-d3 *\r',
    b'[Game "tablut"]\n[Event "\xe9t\xe9"]\n1. e3-c3 *\n',
    b'[Game "tablut"]\n1. e3-c3 {' + b"x" * 2_000_000 + b"} d1-d3 *\n",
    b'[Game "tablut"]\n' + b"1. e3-c3 d1-d3 2. c3-e3 d3-d1 " * 5_000 + b"*\n",  # 20,000 plies (80,000: 15 s)
    b'[Game "laquet"]\n1. ' + b"63: 1/7 " * 5_000 + b"*\n",
    b"[" * 10_000,
    b'[Game "tablut"]\n' + b"{" * 10_000,
]
