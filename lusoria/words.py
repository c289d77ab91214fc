"""Counting words in output: "1 record", "2 records"."""


def plural(count: int, word: str, many: str | None = None) -> str:
    """`count` and `word`, in the plural (`many`, or `word` + s) unless `count` is 1."""
    return f"{count} {word if count == 1 else many or word + 's'}"
