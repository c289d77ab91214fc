"""Words of output: counts ("1 record", "2 records"), and what the system says of an error."""


def plural(count: int, word: str, many: str | None = None) -> str:
    """`count` and `word`, in the plural (`many`, or `word` + s) unless `count` is 1."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def reason(error: OSError) -> str:
    """What the system says of `error`, in lower case ("no such file or directory")."""
    return (error.strerror or str(error)).lower()
