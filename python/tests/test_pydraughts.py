"""Cross-check against pydraughts, an independent implementation: on
positions of random games of every rule set both know, the legal moves are
the same, and every answer of ``solve`` replays move by move in pydraughts
to the end board postfacto printed."""

import random
import re

import pytest

import postfacto

draughts = pytest.importorskip("draughts", reason="pydraughts is not installed (pip install pydraughts)")

#: postfacto's name -> pydraughts' name, for every rule set both play.
SHARED = {
    "english": "english",
    "international": "standard",
    "russian": "russian",
    "brazilian": "brazilian",
    "italian": "italian",
}
#: The 8x8 rule sets whose squares PDN names algebraically.
ALGEBRAIC = {"russian", "brazilian"}
GAMES = 12
PLIES = 60


def square_name(rules, number):
    """A pydraughts square number as postfacto's move strings name it."""
    if rules not in ALGEBRAIC:
        return str(number)
    # pydraughts numbers these boards from a1 along each row: 1 a1, 2 c1,
    # 3 e1, 4 g1, 5 b2, ...
    row, k = divmod(number - 1, 4)
    column = 2 * k + (row % 2)
    return "abcdefgh"[column] + str(row + 1)


def theirs(rules, move):
    """A pydraughts move as the tuple of squares it lands on."""
    return tuple(square_name(rules, s) for s in move.steps_move)


def ours(move):
    """A postfacto move string as the tuple of squares it lands on."""
    return tuple(re.split("[-x:]", move))


def random_games(rules, seed):
    """Positions (FEN, side to move) and moves of random legal games."""
    rng = random.Random(seed)
    for _ in range(GAMES):
        board = draughts.Board(SHARED[rules])
        played = []
        for _ in range(PLIES):
            moves = board.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            played.append((board.fen, move))
            board.push(move)
        yield played


def pieces(fen):
    """The pieces a FEN places, whatever its order and spacing: {square: piece}."""
    side_fields = fen.strip().split(":")[1:]
    placed = {}
    for field in side_fields:
        if not field:
            continue
        color, squares = field[0], field[1:]
        for item in filter(None, squares.split(",")):
            king = item.startswith("K")
            placed[item.lstrip("K")] = color + ("K" if king else "")
    return placed


@pytest.mark.parametrize("rules", sorted(SHARED))
def test_legal_moves_agree(rules):
    checked = 0
    for game in random_games(rules, seed=len(rules)):
        for fen, _ in game:
            expected = sorted({theirs(rules, m) for m in draughts.Board(SHARED[rules], fen).legal_moves()})
            found = sorted({ours(m) for m in postfacto.legal_moves(fen, rules=rules)})
            assert found == expected, f"{rules} {fen}"
            checked += 1
    assert checked > 100


def replay_in_pydraughts(rules, answer):
    """Plays postfacto's answer in pydraughts; the board it ends on."""
    board = draughts.Board(SHARED[rules], answer.start_fen)
    for move in answer.moves:
        matching = [m for m in board.legal_moves() if theirs(rules, m) == ours(move)]
        assert matching, f"{rules}: {move} is not legal in pydraughts at {board.fen}"
        board.push(matching[0])
    return board.fen


@pytest.mark.parametrize("rules", sorted(SHARED))
def test_every_answer_replays_in_pydraughts(rules):
    rng = random.Random(7 + len(rules))
    solved = 0
    for game in random_games(rules, seed=100 + len(rules)):
        if len(game) < 8:
            continue
        begin = rng.randrange(0, len(game) - 6)
        fragment = game[begin : begin + rng.randint(2, 6)]
        fen, _ = fragment[0]
        first = "white" if fen.startswith("W") else "black"
        written = ["-x"[bool(m.captures)].join(theirs(rules, m)) if rules not in ALGEBRAIC
                   else "-:"[bool(m.captures)].join(theirs(rules, m)) for _, m in fragment]
        answer = postfacto.solve(written, rules=rules, first=first)
        assert answer.moves == written
        assert pieces(replay_in_pydraughts(rules, answer)) == pieces(answer.end_fen)
        solved += 1
    assert solved >= GAMES // 2
