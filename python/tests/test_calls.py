"""Every call of the package and every exception it raises."""

import os
import threading
import time
from pathlib import Path

import pytest

import postfacto

ROOT = Path(__file__).resolve().parents[2]
SHARED_PDN = ROOT.parent / "shared" / "pdn"


def test_solve_returns_a_checked_answer_in_pydraughts_strings():
    a = postfacto.solve(["11-15", "23-19", "8-11"], rules="english", first="black")
    assert a.rules == "english" and not a.inferred and a.first == "black"
    assert a.start_fen.startswith("B:W") and a.end_fen.startswith("W:W")
    assert a.moves == ["11-15", "23-19", "8-11"] == a.record
    assert len(a.start) == 8 and all(len(row) == 8 for row in a.start + a.end)
    assert "Answer(" in repr(a)


def test_solve_takes_a_movetext_and_fills_in_illegible_moves():
    a = postfacto.solve("1. 21-17 13x?x?x24 2. 19x28", first="white")
    assert a.record == ["21-17", "13x?x?x24", "19x28"]
    assert a.moves[1].startswith("13x") and "?" not in a.moves[1]


def test_solve_reads_facts_as_fen_or_rows():
    a = postfacto.solve(["22-18"], start="W:W22:B1")
    assert a.start_fen == "W:W22:B1" and a.end_fen == "B:W18:B1"
    rows = ["-?-?-?-?", "?-?-?-?-"] * 4
    b = postfacto.solve(["22-18"], first="white", end=rows)
    assert b.moves == ["22-18"]


def test_auto_infers_the_rule_set():
    a = postfacto.solve(["33-28", "19-23", "28x19", "14x23"], rules="auto")
    assert a.rules == "international" and a.inferred
    b = postfacto.solve(["c3-d4", "f6-e5", "d4:f6", "g7:e5"], rules="auto")
    assert b.rules == "russian"
    assert b.start_fen.split(":")[1].startswith("W") and "d4" not in b.end_fen


def test_short_captures_are_read_whole():
    a = postfacto.solve(["13x31"], rules="english", first="black", short_captures=True)
    assert a.moves[0].startswith("13x") and a.moves[0].endswith("x31")


def test_impossible_carries_its_reason():
    with pytest.raises(postfacto.Impossible) as caught:
        postfacto.solve(["11-15", "11-15"], first="black")
    assert caught.value.reason and "11" in caught.value.reason
    assert isinstance(caught.value, postfacto.PostfactoError)


@pytest.mark.parametrize(
    "call",
    [
        lambda: postfacto.solve(["11-15", "99-15"]),
        lambda: postfacto.solve([]),
        lambda: postfacto.solve(["11-15"], rules="frisian"),
        lambda: postfacto.solve(["11-15"], first="red"),
        lambda: postfacto.solve(["11-15"], start="W:W?:B1"),
        lambda: postfacto.solve(["11-15"], start=["........"]),
        lambda: postfacto.solve([11, 15]),
        lambda: postfacto.legal_moves("W:W31,32:B27", rules="frisian"),
        lambda: postfacto.legal_moves(["." * 8] * 8),
        lambda: postfacto.read_pdn(),
        lambda: postfacto.solve(["11-15"], limit=-1),
    ],
)
def test_bad_input_raises_bad_input_with_a_message(call):
    with pytest.raises(postfacto.BadInput) as caught:
        call()
    assert str(caught.value) and "\n" not in str(caught.value)


def test_bad_input_names_the_move_once():
    with pytest.raises(postfacto.BadInput, match=r"^move 2: '99-15': unknown square '99'") as caught:
        postfacto.solve(["11-15", "99-15"], first="black")
    assert str(caught.value).count("99-15") == 1


def test_a_light_square_is_named_as_one():
    with pytest.raises(postfacto.BadInput, match=r"^move 2: 'd5-e4': 'd5' is a light square"):
        postfacto.solve(["c3-d4", "d5-e4"], rules="russian")


def test_legal_moves_of_a_fen_and_of_rows():
    assert postfacto.legal_moves("W:W31,32:B27", rules="international") == ["31x22", "32x21"]
    assert postfacto.legal_moves("W:W31,32:B27", rules="standard") == ["31x22", "32x21"]
    rows = ["-.-.-.-."] * 0
    opening = postfacto.solve(["11-15"], first="black", start=None).start
    assert postfacto.legal_moves(opening, rules="english", turn="black")
    assert rows == []


def test_repair_finds_the_misread_square():
    r = postfacto.repair(["32-28", "18-23", "28-18"], rules="international", first="white")
    assert len(r.edits) == 1
    edit = r.edits[0]
    assert (edit.ply, edit.kind, edit.written) == (3, "square", "28-18")
    assert r.answer.moves[2] == edit.read
    assert edit == postfacto.Edit(3, "square", "28-18", edit.read)
    assert "Edit(ply=3" in repr(edit)


def test_repair_of_a_possible_record_has_no_edits():
    r = postfacto.repair(["11-15", "23-19"], first="black")
    assert r.edits == [] and r.answer.moves == ["11-15", "23-19"]


def test_repair_beyond_its_edits_is_impossible():
    with pytest.raises(postfacto.Impossible, match="no repair of at most 0 edits"):
        postfacto.repair(["11-15", "11-15"], first="black", max_edits=0)


def test_cnf_is_the_dimacs_text_of_the_binary():
    text = postfacto.cnf(["11-15"], rules="english", first="black")
    assert any(line.startswith("p cnf ") for line in text.splitlines())
    assert text == postfacto.cnf(["11-15"], rules="english", first="black")


def test_a_model_of_the_cnf_decodes_to_its_answer():
    moves = ["21-17", "13x22x31x24", "19x28"]
    answer = postfacto.solve(moves, first="white")
    text = postfacto.cnf(moves, first="white")
    variables = int(next(l for l in text.splitlines() if l.startswith("p cnf")).split()[2])
    # English: square n has variables 3n-2 (occupied), 3n-1 (white), 3n (king).
    rows = answer.start.splitlines() if isinstance(answer.start, str) else list(answer.start)
    pieces = [c for r, row in enumerate(rows) for i, c in enumerate(row) if (i + r) % 2 == 1]
    literals = []
    for n, piece in enumerate(pieces, start=1):
        occupied, white, king = piece != ".", piece in "wW", piece in "WB"
        literals += [(3 * n - 2) * (1 if occupied else -1), (3 * n - 1) * (1 if white else -1), 3 * n * (1 if king else -1)]
    model = "s SATISFIABLE\nv " + " ".join(map(str, literals[:variables])) + " 0\n"
    decoded = postfacto.decode(moves, model, first="white")
    assert decoded.start_fen == answer.start_fen and decoded.end_fen == answer.end_fen
    flipped = "v " + " ".join(str(-l) for l in literals[:variables]) + " 0\n"
    # No answer (as `postfacto decode` exits 1): Impossible, not BadInput.
    with pytest.raises(postfacto.Impossible, match="not a model of the formula"):
        postfacto.decode(moves, flipped, first="white")
    with pytest.raises(postfacto.Impossible, match="found no model"):
        postfacto.decode(moves, "s UNSATISFIABLE\n", first="white")


def test_reach_finds_a_shortest_game():
    after = postfacto.solve(["11-15", "23-19", "8-11"], start=None, first="black")
    # The position after 11-15 23-19 8-11 from the opening:
    opening_game = postfacto.reach(
        "W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15", rules="english"
    )
    assert opening_game.plies == 3 and len(opening_game.moves) == 3
    assert opening_game.end_fen.startswith("W:")
    assert opening_game.start_fen == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert after.moves


def test_reach_of_an_unreachable_position_is_impossible():
    with pytest.raises(postfacto.Impossible):
        postfacto.reach("W:W20-32:B1", rules="english")
    with pytest.raises(postfacto.BadInput, match="cannot occur in a game"):
        postfacto.reach("B:WK1:B32", rules="english")


def test_reach_refuses_a_start_turn_without_a_start():
    with pytest.raises(postfacto.BadInput, match="start_turn needs start"):
        postfacto.reach("W:W21-32:B1-10,12,15", rules="english", start_turn="black")


def position_after(plies, rules="english", opening="B:W21-32:B1-12"):
    """The position after a game of `plies` plies, played by the package
    itself: each ply one of the legal moves, its board by `solve`. The
    moves are taken in string order, the walk these tests were written on."""
    fen = opening
    for ply in range(plies):
        moves = sorted(postfacto.legal_moves(fen, rules=rules))
        move = moves[(7 * ply + 3) % len(moves)]
        fen = postfacto.solve([move], rules=rules, start=fen).end_fen
    return fen


def test_a_long_call_releases_the_gil():
    deep = position_after(30)
    outcome = {}

    def run():
        started = time.monotonic()
        try:
            postfacto.reach(deep, rules="english", limit=1.0)
            outcome["verdict"] = "found"
        except postfacto.Undecided:
            outcome["verdict"] = "undecided"
        outcome["seconds"] = time.monotonic() - started

    worker = threading.Thread(target=run)
    worker.start()
    ticks = 0
    while worker.is_alive():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert outcome["verdict"] in {"found", "undecided"}
    # This thread ran all along: the call did not hold the GIL.
    if outcome["seconds"] > 0.2:
        assert ticks > 50, outcome


def test_undecided_when_the_limit_passes():
    with pytest.raises(postfacto.Undecided, match="no game of fewer than"):
        postfacto.reach(position_after(40), rules="english", limit=0.05)


def test_read_pdn_from_text():
    text = '[Event "t"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n[GameType "20"]\n1. 32-28 28-23 *\n'
    games = postfacto.read_pdn(text=text)
    assert [g.status for g in games] == ["ok", "illegal"]
    assert games[0].moves == ["32-28", "19-23", "28x19", "14x23"]
    assert games[0].headers["Event"] == "t" and games[0].rules == "international"
    assert games[1].ply == 2 and games[1].reason
    assert "PdnGame(" in repr(games[0])


@pytest.mark.skipif(not SHARED_PDN.is_dir(), reason="../shared/pdn is not beside the checkout")
def test_read_pdn_reads_every_shared_archive():
    for path in sorted(SHARED_PDN.glob("*.pdn")):
        games = postfacto.read_pdn(path)
        assert games, path
        assert all(g.status in {"ok", "no moves"} for g in games), path
        assert postfacto.read_pdn(str(path))[0].number == 1


def test_rules_lists_every_rule_set():
    assert "english" in postfacto.RULES and len(postfacto.RULES) == 10
    for name in postfacto.RULES:
        opening_first = postfacto.solve(["?"], rules=name)
        assert opening_first.rules == name


def test_the_package_is_typed():
    package = Path(postfacto.__file__).parent
    assert (package / "py.typed").exists() and (package / "__init__.pyi").exists()
    assert os.path.getsize(package / "__init__.pyi") > 0


def test_read_pdn_reads_a_lone_question_mark_after_another_as_a_move():
    games = postfacto.read_pdn(text='[Event "t"]\n1. ? ? 2. ? 28-24 3. 9-13 22-18 *\n')
    assert games[0].moves == ["?", "?", "?", "28-24", "9-13", "22-18"]
    assert (games[0].status, games[0].rules) == ("ok", "english")


def test_legal_moves_are_sorted_by_square():
    opening = "B:W21-32:B1-12"
    assert postfacto.legal_moves(opening, rules="english") == [
        "9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16",
    ]


def test_a_missing_file_raises_file_not_found():
    with pytest.raises(FileNotFoundError) as caught:
        postfacto.read_pdn("/no/such/file.pdn")
    assert isinstance(caught.value, OSError)
    assert caught.value.filename == "/no/such/file.pdn"


def test_rules_lists_the_rule_sets_and_auto_is_named():
    assert {"english", "international", "russian", "brazilian", "italian"} <= set(postfacto.RULES)
    assert postfacto.AUTO == "auto" and postfacto.AUTO not in postfacto.RULES
    for name in postfacto.RULES:
        assert postfacto.read_pdn(text="1. ? *", rules=name)[0].rules == name
    assert postfacto.solve(["32-28", "19-23"], rules=postfacto.AUTO).inferred


def test_a_pdn_game_without_fen_starts_and_is_repaired_at_the_opening():
    text = '[GameType "21"]\n1. 11-15 23-19 2. 15x24 28x19 *\n'
    game = postfacto.read_pdn(text=text)[0]
    assert game.status == "illegal"
    assert game.start_fen == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    # As a fragment (start unknown) nothing needs mending; from the opening
    # one square does, as `verify --pdn --repair` says.
    assert postfacto.repair(game.moves, rules=game.rules).edits == []
    fixed = game.repair(limit=30)
    assert [(e.ply, e.kind, e.written, e.read) for e in fixed.edits] == [(2, "square", "23-19", "24-19")]
    assert fixed.answer.start_fen == game.start_fen


def test_a_pdn_game_with_fen_starts_there():
    text = '[GameType "21"]\n[FEN "W:W18:B14"]\n1. 18x9 *\n'
    game = postfacto.read_pdn(text=text)[0]
    assert (game.status, game.start_fen) == ("ok", "W:W18:B14")
    assert game.repair().edits == []
    diagram = postfacto.read_pdn(text='[GameType "21"]\n[FEN "W:W18:B14"]\n*\n')[0]
    with pytest.raises(postfacto.BadInput):
        diagram.repair()
    unread = postfacto.read_pdn(text='[GameType "21"]\n1. 11-15 {never closed\n')[0]
    assert unread.start_fen is None
    with pytest.raises(postfacto.BadInput):
        unread.repair()


@pytest.mark.parametrize(
    "call",
    [
        lambda: postfacto.legal_moves("W:W21-32:B1-12", turn="black"),
        lambda: postfacto.reach("W:W21-32:B1-10,12,15", turn="black", limit=5),
    ],
)
def test_a_side_named_against_the_fens_raises_bad_input(call):
    with pytest.raises(postfacto.BadInput, match="the FEN has white to move, but black is named to move"):
        call()


def test_the_tasks_format_given_as_pdn_raises_bad_input():
    with pytest.raises(postfacto.BadInput, match="this is the task's format"):
        list(postfacto.read_pdn(text="W 2\n22-18\n11-15\n"))
