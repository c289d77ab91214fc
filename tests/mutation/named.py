"""Hand-written mutants: the bugs issue 13 found the suite did not catch, each a
(path, text, replacement, what it breaks). The text must occur exactly once."""

NAMED = [
    # The tafl engine (Tablut, Copenhagen, Brandubh)
    (
        "validator/tafl_captures.py",
        '        and king != geo.throne\n        and king not in geo.next_to_throne\n        or strength == "t"',
        '        and king != geo.throne\n        or strength == "t"',
        "king-capture=2: the king next to the konakis captured between two attackers",
    ),
    (
        "validator/tafl_settings.py",
        'closed = bytes(region[s] != PLAIN or chosen["camps"][s] > 0',
        'closed = bytes(chosen["camps"][s] > 0',
        "no-move check: a soldier next to the empty konakis counted as mobile",
    ),
    (
        "validator/tafl_captures.py",
        "        if not has_move(board, 1 - turn, settings):\n",
        "        if False:\n",
        "no-move=passes: the draw when neither side can move not detected",
    ),
    (
        "validator/tafl_settings.py",
        "wall_corners=corners if strong_walls else bytes(geo.squares)",
        "wall_corners=corners",
        "a weak shieldwall closed by a corner",
    ),
    (
        "validator/tafl_captures.py",
        "            if board[square + front] not in captors:\n                break\n",
        "",
        "a shieldwall whose pieces have no enemy in front of them captured",
    ),
    (
        "validator/tafl_captures.py",
        "captured += [taken for taken in line if board[taken] != KING]",
        "captured += line",
        "the king captured in a shieldwall",
    ),
    (
        "validator/tafl_captures.py",
        "    return wall <= safe\n",
        "    return True\n",
        "an exit fort whose wall could still be captured wins",
    ),
    (
        "validator/tafl_captures.py",
        '    if geo.edge[king] and strength != "m":\n        return False\n',
        "",
        "Copenhagen's king captured on the edge by three attackers",
    ),
    # Latrunculi
    (
        "validator/latrunculi_play.py",
        "if board[corner] == victim and board[other] in captors\n",
        "if board[corner] in (victim, piece(1 - side, DUX)) and board[other] in captors\n",
        "a dux captured in a corner",
    ),
    (
        "validator/latrunculi_play.py",
        "loss = _too_few(settings, position, mover) or _too_few(settings, position, 1 - mover)",
        "loss = _too_few(settings, position, 1 - mover) or _too_few(settings, position, mover)",
        "the end of the game: the side to move checked before the side that just played",
    ),
    (
        "validator/latrunculi_play.py",
        "jumpable(board, side, a, settings.jump_any) and board[b] == EMPTY for a, b in pincers[square]",
        "jumpable(board, side, a, settings.jump_any) and board[a] >> 2 == side and board[b] == EMPTY "
        "for a, b in pincers[square]",
        "jump-over=any: jumps over enemy pieces ignored when looking for a legal move",
    ),
    (
        "validator/latrunculi_play.py",
        "        if jumped == EMPTY:\n            raise",
        "        if False:\n            raise",
        "a jump over an empty square accepted",
    ),
    # Laquet
    (
        "validator/laquet_checked.py",
        '        if turn.leftover:\n            raise Illegal(\n                "Q8"',
        '        if False:\n            raise Illegal(\n                "Q8"',
        "a > group accepted after the last checker is borne off",
    ),
    (
        "validator/laquet_moves.py",
        "ways.append((len(done) + 1 + (len(rest) if over else 0), done + [step]))",
        "ways.append((len(done) + 1, done + [step]))",
        "the move generator drops a one-die bear-off that ends the game",
    ),
    # Grammar
    (
        "grammar/common.lark",
        r"MOVE_NUMBER: /[0-9]+\.(?:\.\.)?/",
        r"MOVE_NUMBER: /[0-9]+\.(?:\.\.?)?/",
        "1.. accepted as a move number",
    ),
    ("grammar/tablut.lark", 'ANNOUNCEMENT: "++" | "+"', 'ANNOUNCEMENT: "+"+', "+++ accepted"),
    (
        "grammar/latrunculi.lark",
        "SQUARE: /[a-p](?:1[0-6]|[1-9])/",
        "SQUARE: /[a-p][1-9]/",
        "ranks 10-16 on large boards rejected",
    ),
    (
        "grammar/laquet.lark",
        r"(?:\/off)?+)(?:\([2-9]\))?(?![0-9A-Za-z\/-])(?:[ \t\r\n]++",
        r"(?:\/off)?+)(?:\([0-9]\))?(?![0-9A-Za-z\/-])(?:[ \t\r\n]++",
        "repeat counts (0) and (1) accepted",
    ),
    # Archive
    (
        "archive/importer.py",
        '        if conn.in_transaction:\n            conn.execute("ROLLBACK")\n',
        "        if conn.in_transaction:\n            pass\n",
        "a failure in the middle of a batch's inserts not rolled back",
    ),
    (
        "archive/importer.py",
        "            seen.add(checked.hash)\n",
        "",
        "the same record twice in one batch",
    ),
    (
        "archive/identity.py",
        'return " ".join(unicodedata.normalize("NFC", value).split())',
        "return value",
        "record identity: a re-import with other spacing in a tag value not skipped as a duplicate",
    ),
    (
        "archive/search.py",
        'column, column_params = f"(SELECT min(start)',
        'column, column_params = f"(SELECT max(start)',
        "position search reports the last matching ply, not the first",
    ),
    # The capture list (this fix)
    ("validator/base.py", "    if repeated:\n", "    if False:\n", "a square written twice in a capture list accepted"),
]
