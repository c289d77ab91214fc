"""`lusoria explain`: the rules' texts, options and examples, from each game's file of rules' texts
(validator/<game>.toml) and the record's (validator/record.toml)."""

import ast
import inspect
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from lusoria import rulebook
from lusoria.api import format_record, validate
from lusoria.cli import main
from lusoria.validator.games import GAMES
from lusoria.validator.replay import check
from lusoria.validator.tafl import TaflGame


@pytest.mark.parametrize("written", ["T3", "t3", " t3 "])
def test_a_rule_is_found_in_any_case(written):
    rule = rulebook.rule(written)
    assert (rule.id, rule.game) == ("T3", "tablut")
    assert rule.title == "Any piece may pass over the empty konakis, but only the king may stop on it."
    assert [option.key for option in rule.options] == ["throne-pass", "throne-stop"]
    assert (
        "How lusoria applies it:" in rule.text and "`throne-pass`/`throne-stop`" in rule.text
    )  # Markdown, as in the docs


def test_rules_are_read_in_the_order_of_the_docs_with_their_games():
    rules = rulebook.rules()
    ids = [rule.id for rule in rules]
    assert ids[:14] == [f"T{n}" for n in range(14)]  # T0: Tablut's start, which RULES.md leaves unnumbered
    assert ids[14:18] == ["syntax", "tag", "result", "number"]
    assert rulebook.rule("T12").game == "tablut"
    assert {rule.game for rule in rules} == {*GAMES, rulebook.ANY_GAME}  # every game's rules, and the record's
    assert rulebook.rule("S1").title == "variant seneca: 16 pieces each."
    assert rulebook.rule("tag").title == "A tag is missing, unknown or malformed."  # not "A missing Game tag"
    assert rulebook.rule("T9").title == "A side with no legal move on its turn loses."  # after "Decision: "
    assert rulebook.rule("G16").title.endswith(
        "capturing piece may have made, and plays each later ply on all of them."
    )
    assert rulebook.rule("G7").title.endswith("(the empty throne, under cenhe with K), never on the edge")
    assert rulebook._title("A king (alone; or armed) is taken (e.g. here); then, the rest.", "v") == (
        "variant v: A king (alone; or armed) is taken (e.g. here)"  # (G16's was cut inside its parentheses)
    )
    assert rulebook._title("A king is taken. More.", None, "**Taken**. Said so; whole.") == "Taken. Said so; whole."
    assert rulebook._title("a) a king is taken. b) More.", None) == "A) a king is taken."  # (an unbalanced parenthesis)
    assert rulebook._title("aagenielsen.dk writes 1.5 moves. More.", None) == "Aagenielsen.dk writes 1.5 moves."
    assert rulebook.rule("Q6").options == (  # (both-dice=may: the opponent need not play the dice left over, h82b)
        rulebook.Option(
            "both-dice",
            "`must` \\| `may`",
            "whether a player must play both dice when able (`must`), or may play fewer, and the opponent fewer of "
            "the dice left over (Q5, Q6)",
        ),
        rulebook.Option(
            "leftover",
            "`opponent` \\| `none`",
            "who plays the dice a player cannot: `opponent` the opponent, `none` nobody (they are lost) (Q6)",
        ),
    )


def test_a_rule_bullet_under_how_lusoria_applies_is_a_note_not_the_rule():
    q5 = rulebook.rule("Q5")
    assert q5.text.startswith("A player must play both dice if they can.")
    assert "- Q5 is checked against every complete way" in q5.text.replace("**", "")


def test_every_rule_a_diagnostic_cites_is_explained():
    cited = {d.rule for verdict in validate([str(ROOT / "samples")]) for d in verdict.diagnostics}
    assert cited and all(rulebook.rule(rule_id) for rule_id in cited)
    every = {rule.id for rule in rulebook.rules()}
    for name in GAMES:  # every ID each game's rules can raise: written in its module, or its tafl rule IDs ("": one
        # it never raises)
        game = GAMES[name]
        source = source_of(game)
        raised = {
            *re.findall(r'Illegal\("([A-Z]+\d+)"', source),
            game.end_rule,
            *(filter(None, game().settings.ids) if isinstance(game(), TaflGame) else ()),
        }
        assert len(raised) > 3 and raised <= every, (name, raised - every)


def test_an_example_is_a_record_that_breaks_the_rule():
    example = rulebook.example("t2")
    assert example == rulebook.Example(
        '[Game "tablut"] 1. c3-c1 *', "error[T2]: there is no piece on c3; the rest of this line is not checked"
    )


def test_an_unknown_rule_names_the_known_ones():
    with pytest.raises(
        KeyError, match=r"unknown rule 'Z9' \(known: T0, T1, T2, .*, syntax, tag, .*, Q9, C1, .*, B12, G1, .*, G13[,)]"
    ):
        rulebook.rule("Z9")


@pytest.mark.parametrize("variant", ["seed", "aage", "ashton"])
def test_tablut_s_start_is_t0_as_copenhagen_s_is_c1(variant):
    """RULES.md numbers no rule of Tablut's start; lusoria calls it T0 (docs/rules.md, the Decision
    under Tablut): `explain T0` prints it, and a Position's count cites it in every variant."""
    said = CliRunner().invoke(main, ["explain", "T0"]).output.splitlines()
    assert said[:3] == [
        "T0 (tablut)",
        "",
        "At the start (the standard layout) the Swedes (White) have the king K on e5 and 8",
    ]
    board = "3ppp3/4p4/4P4/p3P3p/ppPPKPPpp/p3P3p/4P4/4p4/3pPp3 b"  # a ninth Swede
    (error,) = check(f'[Game "tablut"]\n[Variant "{variant}"]\n[Position "{board}"]\n\n*').diagnostics
    assert error.message == "malformed Position: White (Swedes) has 9 soldiers on the board; White starts with 8 (T0)"


def test_explain_prints_text_options_and_example():
    result = CliRunner().invoke(main, ["explain", "t3"])
    assert result.exit_code == 0
    assert result.output.splitlines()[:3] == [
        "T3 (tablut)",
        "",
        "Any piece may pass over the empty konakis, but only the king may stop on it.",
    ]
    assert "Options (Rules tag; the default first):\n  throne-pass: all | king | none — who may pass" in result.output
    assert (
        'Example:\n  [Game "tablut"] 1. e6-h6 a6-a7 2. Ke5-e6 a7-a6 3. e4-e5 *\n'
        "  error[T3]: only the king may stop on the konakis (e5)"
    ) in result.output
    assert "**" not in result.output and "`" not in result.output


def test_explain_without_a_rule_lists_them_all_and_an_unknown_one_is_a_usage_error():
    listed = CliRunner().invoke(main, ["explain"]).output.splitlines()
    assert len(listed) == len(rulebook.rules())
    assert listed[0].split(None, 2) == [
        "T0",
        "tablut",
        "At the start (the standard layout) the Swedes (White) have the king K on e5 and 8 soldiers on e3 e4 e6 "
        "e7 c5 d5 f5 g5",
    ]
    wrong = CliRunner().invoke(main, ["explain", "Z9"])
    assert wrong.exit_code == 2 and "no rule, game or variant is named 'Z9'" in wrong.output
    usage = CliRunner().invoke(main, ["explain", "--help"]).output.splitlines()[0]
    assert usage.endswith(" explain [OPTIONS] [NAME]")  # (h72c: NAME, as if it were needed)


def test_validate_says_which_rules_it_cited_and_how_to_read_them(in_root):
    result = CliRunner().invoke(main, ["validate", "samples/errors/tablut-warnings.lgn"])
    assert result.output.splitlines()[-1] == "rules cited: T8, number (lusoria explain T8 says what a rule means)"
    clean = CliRunner().invoke(main, ["validate", "samples/tablut"])
    assert "rules cited" not in clean.output


def source_of(game: type) -> str:
    """The source of a game's module and of its parts (validator/<game>_*.py: `latrunculi_play.py`),
    read beside its compiled module in a compiled build."""
    compiled_or_not = Path(inspect.getfile(game))
    module = compiled_or_not.with_name(compiled_or_not.name.split(".")[0] + ".py")
    return "\n".join(path.read_text() for path in [module, *sorted(module.parent.glob(f"{module.stem}_*.py"))])


def cited_in(path, calls: dict[str, int]) -> set[str]:
    """The strings a module passes to the calls named in `calls` (name -> the argument's place)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and (name := getattr(node.func, "attr", getattr(node.func, "id", None))) in calls:
            argument = node.args[calls[name]] if len(node.args) > calls[name] else None
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.add(argument.value)
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_rule_id_a_games_module_names_has_a_text_in_its_file(name):
    """A game's module names its rules' IDs as strings (Illegal, Outcome, RuleIds, end_rule…): each
    has a text among the game's own rules."""
    game = GAMES[name]
    named = {
        node.value
        for node in ast.walk(ast.parse(source_of(game)))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"[A-Z]+\d+", node.value)
    }
    own = [entry["id"] for entry in rulebook.written(name)["rules"]]
    assert {game.end_rule, *(filter(None, game().settings.ids) if isinstance(game(), TaflGame) else ())} <= named
    assert len(named) > 7 and named <= set(own), sorted(named - set(own))
    assert len(own) == len(set(own)) and all(rulebook.rule(rule_id).game == name for rule_id in own)


def test_the_rules_of_a_whole_record_are_those_the_reader_and_the_replay_cite():
    """The reader raises SyntaxProblem (rule `syntax` by default, or `tag`); the replay reports `tag`,
    `number`, `result` and `plug-in` (a plug-in's game that failed) itself: exactly the record's rules."""
    raised = {"syntax"} | set().union(
        *(cited_in(path, {"SyntaxProblem": 4}) for path in (ROOT / "notation").glob("*.py"))
    )
    reported = cited_in(ROOT / "validator" / "replay.py", {"error": 0, "warning": 0})
    assert raised | reported == {entry["id"] for entry in rulebook.written(rulebook.ANY_GAME)["rules"]}
    assert "tag" in raised and reported == {"tag", "number", "result", "plug-in"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_games_options_are_the_ones_its_file_explains(name):
    """The same keys and values, in the same order (the default first), as the class accepts; `also`
    says in words what else an option takes when it takes more than its values (`pieces=20`)."""
    game, written = GAMES[name], rulebook.written(name).get("options", [])
    assert [(option["key"], tuple(option["values"])) for option in written] == list(game.options.items())
    assert [option["key"] for option in written if "also" in option] == [
        key for key in game.options if not game.choices(key)
    ]
    assert all(
        rulebook.rule(cited).game == name
        for option in written
        for cited in re.findall(r"\b[A-Z]+\d+\b", option["meaning"])
    )


@pytest.mark.parametrize("rule_id", [rule.id for rule in rulebook.rules() if rulebook.example(rule.id)])
def test_an_example_is_what_lusoria_says_of_its_record(rule_id):
    """An example breaks its rule, lusoria's diagnostic its message; or it is a legal record that
    shows a rule no diagnostic cites at work (`valid: …`), which lusoria reads clean."""
    shown = rulebook.example(rule_id)
    said = [f"{d.severity}[{d.rule}]: {d.message}" for d in check(shown.record).verdict().diagnostics]
    assert (said == []) if shown.message.startswith("valid: ") else (shown.message in said), said
    assert f"[{rule_id}]" in shown.message or re.search(rf"\b{rule_id}\b", shown.message)


@pytest.mark.parametrize("rule_id", [rule.id for rule in rulebook.rules() if rulebook.example(rule.id)])
def test_an_example_breaks_its_rule_at_its_last_ply(rule_id):
    """The ply an example's error cites is the last it writes: no ply after it is left unchecked, and
    none before it breaks the rule (an error of the whole record, `result` or `tag`, cites none)."""
    report = check(rulebook.example(rule_id).record)
    cited = [d.ply for d in report.diagnostics if d.severity == "error" and d.ply is not None]
    last = len(report.record.main.plies) if report.record else None  # (one that does not parse cites none)
    assert cited in ([], [last]), cited


def move_numbers(record: str) -> list[str]:
    """The move numbers of a record's movetext, as written (`1.`, `1...`)."""
    return re.findall(r"\b\d+\.(?:\.\.)?", record.rpartition("]")[2])


@pytest.mark.parametrize("rule_id", [rule.id for rule in rulebook.rules() if rulebook.example(rule.id)])
def test_an_example_numbers_its_moves_as_lusoria_fmt_does(rule_id):
    """Where the attackers move first, a move is their ply and the reply (`1. h1-h3 g5-g4`, as tafl
    players and OTN number them): an example that starts with the defenders' ply writes `1...`, and
    none is numbered as chess is (`1... h1-h3 2. g5-g4`), which lusoria reads but does not write."""
    shown = rulebook.example(rule_id)
    if "[number]" in shown.message:
        pytest.skip("the example of a wrong move number")
    assert move_numbers(shown.record) == move_numbers(format_record(shown.record + "\n")[0])


@pytest.mark.parametrize("game", ["tablut", "latrunculi", "laquet", "copenhagen", "brandubh", "hnefatafl"])
def test_every_rule_of_every_game_has_an_example(game):
    """`lusoria explain` shows an example record for every rule of every game (Tablut's camps and
    repetition, Latrunculi's corner capture and its variants' rules, Laquet's Q1 included): a record
    that breaks it, or one that shows it at work."""
    own = [rule.id for rule in rulebook.rules() if rule.game == game]
    assert len(own) > 8 and [rule_id for rule_id in own if rulebook.example(rule_id) is None] == []


def test_the_one_rule_of_a_record_without_an_example_is_plug_in_which_no_record_alone_breaks():
    """(Every game's rules have one: test_every_rule_of_every_game_has_an_example.)"""
    record_rules = [rule.id for rule in rulebook.rules() if rule.game == rulebook.ANY_GAME]
    assert len(record_rules) == 5 and [rule_id for rule_id in record_rules if not rulebook.example(rule_id)] == [
        "plug-in"
    ]


def test_every_rule_the_error_samples_break_has_an_example():
    cited = {d.rule for verdict in validate([str(ROOT / "samples" / "errors")]) for d in verdict.diagnostics}
    assert len(cited) > 25 and all(rulebook.example(rule_id) for rule_id in cited), sorted(
        rule_id for rule_id in cited if not rulebook.example(rule_id)
    )


def test_a_note_is_attached_only_to_the_rules_it_cites_in_bold():
    # issue 41: T1 is inside **T12**, and the note of **Q5** names Q8 in plain text; neither is theirs
    for rule in rulebook.rules():
        if rule.game == rulebook.ANY_GAME:
            continue
        notes = [rulebook._joined(note) for note in rulebook.written(rule.game).get("applied", [])]
        applied = rule.text.partition("\n\nHow lusoria applies it:\n")[2]
        assert applied.splitlines() == [f"- {note}" for note in notes if f"**{rule.id}**" in note], rule.id
    t1, t12, q5, q8 = (rulebook.rule(rule_id).text for rule_id in ("T1", "T12", "Q5", "Q8"))
    t12_note = next(line for line in t12.splitlines() if line.startswith("- ") and "**T12**" in line)
    assert t12_note not in t1 and "**T1**" not in t12_note
    q5_note = next(line for line in q5.splitlines() if line.startswith("- **Q5** is checked"))
    assert "(Q8)" in q5_note and q5_note not in q8


def test_a_rule_knows_the_rules_its_text_refers_to_not_those_of_its_notes():
    assert rulebook.rule("B3").cites == ("C3",)  # another game's rule: "as in C3"
    assert rulebook.rule("C14").cites == ("C8", "C9", "C10", "C11", "C13")  # "(C8–C11, C13)": a range is each
    assert rulebook.rule("G13").cites == ("G7", "G8", "G9", "G10", "G11", "G12", "G16")
    assert rulebook.rule("T1").cites == ()  # only its notes name T2 and T3 (which errors break which rule)
    assert rulebook.rule("tag").cites == ()


@pytest.mark.parametrize("rule_id", ["B3", "C14"])
def test_explain_prints_the_rules_a_rule_refers_to_after_its_text(rule_id, snapshot):
    """Each with its title (and its game, where it is another's): B3 says only "as in C3"."""
    assert rulebook.explain(rule_id) == snapshot


@pytest.mark.parametrize("letters, ids", [("S", "S1 S2 S3 S4 S5"), ("l", "L0 L1 L2 L3 L4 L5"), ("x", "X1 X2 X3 X4")])
def test_explain_the_letters_of_rule_ids_lists_the_rules_they_begin(letters, ids):
    """newcomer-58a: `lusoria explain S` listed the 29 rules whose texts use the word "s", `explain L` one rule
    (G12), where a reader of Seneca's rules meant S1 to S5; the letters that begin rule IDs list those rules."""
    result = CliRunner().invoke(main, ["explain", letters])
    lines = result.output.splitlines()
    assert (
        result.exit_code == 0
        and lines[0] == f"'{letters}' names no rule; it begins the IDs of {len(ids.split())} rules:"
    )
    assert [line.split()[0] for line in lines[1:-1] if not line.startswith("    ")] == ids.split()
    assert rulebook.family("SS") is None and rulebook.family("S1") is None


def test_explain_a_word_of_the_rules_lists_the_rules_whose_texts_use_it():
    """`lusoria explain konakis` was "no rule, game or variant is named 'konakis'": a word of the
    rules' texts gives the rules that use it (not those whose notes alone do: T2's), each with its
    game and title."""
    result = CliRunner().invoke(main, ["explain", "Konakis"])
    assert result.exit_code == 0 and result.output.splitlines() == [
        "'Konakis' names no rule, game or variant; the texts of 4 rules use it:",
        "  T3 (tablut): Any piece may pass over the empty konakis, but only the king may stop on",
        "    it.",
        "  T4 (tablut): A soldier is captured when the opponent's move leaves it between the",
        "    moved piece and another piece of the mover, on the same rank or file.",
        "  T5 (tablut): The king is captured when a Black move encloses him: Black soldiers on",
        "    his four sides, or on the three other than the konakis beside him.",  # (its entry's title: h72c)
        "  T6 (tablut): White wins as soon as the king stands on any edge square.",
        "(lusoria explain ID says more)",
    ]
    assert "konakis" in rulebook.rule("T2").text  # in a note of how lusoria applies it only


@pytest.mark.parametrize(
    "words, rules",
    [
        ("camp", ["T11", "T12"]),
        ("CAMPS", ["T11", "T12"]),  # any case (their "camps=ashton")
        ("incitus", ["L4", "S2", "S3", "S4", "S5", "P1"]),  # and its Latin plural: inciti
        ("inciti", ["L4", "S4", "S5", "P1"]),
        ("us", []),  # (no stem: not a Latin noun's ending)
        ("enclosure", ["T5"]),  # a plural in s: T5's "these enclosures" alone
        ("touch", ["C10", "G9"]),  # in es: their "touches" alone
        ("exit  fort", ["C10", "B9", "G9"]),  # words in a row, however spaced
        ("shieldwall", ["C7", "B9", "G6"]),
        ("ordinarius", []),
        ("*", []),
        ("the", []),  # too common a word: most rules use it
        ("Of  THE", []),
        ("the konakis", ["T5"]),  # a notion's word among them: looked for
    ],
)
def test_a_word_is_looked_up_in_the_rules_own_texts(words, rules):
    assert [rule.id for rule in rulebook.mentioning(words)] == rules


@pytest.mark.parametrize(
    "words, said",
    [("the", "'the', and it is too common a word"), ("Of the", "'Of the', and its words are too common")],
)
def test_words_too_common_to_look_for_are_said_so_and_no_rule_is_listed(words, said):
    """`lusoria explain the` listed the 72 rules whose texts use "the": none of them was what was
    looked for. Words that name no notion (rulebook.COMMON) are not looked for, and it is said why."""
    result = CliRunner().invoke(main, ["explain", words])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines()[-1] == (
        f"Error: Invalid value for NAME: no rule, game or variant is named {said} to look for in the "
        "rules' texts (lusoria explain konakis lists the rules whose texts use a word)"
    )


def test_a_blank_name_is_no_name_not_a_word_too_common():
    result = CliRunner().invoke(main, ["explain", " "])
    assert result.exit_code == 2 and result.stderr.splitlines()[-1] == (
        "Error: Invalid value for NAME: no rule, game or variant is named '' "
        "(lusoria explain lists the rules, lusoria explain GAME a game's variants)"
    )


def test_a_word_one_rule_uses_is_said_of_its_one_text():
    """Not "the texts of 1 rule use it"."""
    assert rulebook.mentions("enclosure").splitlines()[0] == (
        "'enclosure' names no rule, game or variant; the text of 1 rule uses it:"
    )


def test_a_word_no_rule_uses_is_still_no_name_and_a_name_still_wins():
    unknown = CliRunner().invoke(main, ["explain", "ordinarius"])
    assert unknown.exit_code == 2 and "no rule, game or variant is named 'ordinarius'" in unknown.output
    assert CliRunner().invoke(main, ["explain", "dux"]).output.startswith("dux: Ludus latrunculorum (dux)")


@pytest.mark.parametrize("name", ["dux", "latrunculi/dux"])
def test_a_variant_whose_name_the_rules_texts_use_says_those_rules_after_it(name):
    """`explain dux` gave the variant alone, not the rules of its game that speak of the dux (its piece)."""
    said = CliRunner().invoke(main, ["explain", name]).output
    assert said.endswith(
        "\n\nthe texts of these rules use the word dux: X1, X2, X3, X4 (lusoria explain ID says more)\n"
    )


def test_explain_an_option_of_the_rules_tag_says_it_in_each_game_that_has_it():
    """New user 21: `explain leftover` (a Rules key the rules pages list) said "names no rule, game
    or variant" (Q6's text uses the word), `explain both-dice` was a usage error."""
    runner = CliRunner()
    for key, rule_id in (("leftover", "Q6"), ("Both-Dice", "Q5, Q6")):
        shown = runner.invoke(main, ["explain", key])
        assert shown.exit_code == 0, shown.output
        lines = shown.output.splitlines()
        assert lines[0] == f"{key.lower()}: an option of the Rules tag (the default value first)"
        assert lines[1].startswith("  laquet: ") and f"    rules it changes: {rule_id}" in lines
    first = runner.invoke(main, ["explain", "first"]).output  # an option of several games: each said
    assert re.findall(r"^  (\S+): ", first, re.MULTILINE) == ["tablut", "copenhagen", "brandubh"]
    assert "    rules it changes: T1\n" in first and "    rules it changes: B2\n" in first


def test_an_option_that_changes_no_rule_says_its_other_values_and_lists_no_rules():
    """h82a: Latrunculi's `pieces` is cited by no rule's text, and its values end `or another number`
    (the file's `also`): `explain pieces` says both, with no empty `rules it changes:` line; a key given
    with blanks around it is the same key (the language server and a library's caller give it so)."""
    shown = CliRunner().invoke(main, ["explain", "pieces"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0] == "pieces: an option of the Rules tag (the default value first)"
    assert lines[1].startswith("  latrunculi: 16 or another number — pieces per side")
    assert not any("rules it changes" in line for line in lines)
    assert rulebook.option_text(" Pieces ") == shown.output.rstrip("\n")


def test_a_note_of_how_lusoria_applies_a_rule_wraps_under_its_bullet():
    """h82a: a note longer than a line (G7's first) wraps with its later lines indented under the
    bullet's text, so that each note stands apart from the next."""
    lines = rulebook.explain("G7").splitlines()
    options = lines.index("Options (Rules tag; the default first):")
    notes = lines[lines.index("How lusoria applies it:") + 1 : options - 1]
    assert notes[0].startswith("- A diagnostic names the rule") and len(notes) > 2
    assert [line[:2] for line in notes].count("- ") == 2  # two notes, each on its lines
    assert all(line.startswith(("- ", "  ")) and not line.startswith("   ") for line in notes)
