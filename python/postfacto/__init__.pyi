"""Type stubs of postfacto (see the module's docstring)."""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

__version__: str

#: The rule sets postfacto plays, by the names its calls take.
RULES: List[str]
#: ``"auto"``: infer the rule set, from the moves (``solve``, ``cnf``, ...) or
#: from a board (``legal_moves``, ``reach``).
AUTO: str

#: A board: a FEN string (``W:W31,32:B1-20``), or its rows as the binary
#: prints them (one string of lines, or a list of row strings; ``?`` for a
#: square not known, on a start or end board).
BoardLike = Union[str, Sequence[str]]
#: Moves: a list of move strings, or one movetext (``1. 32-28 18-23``);
#: ``?`` where a square or a move is illegible.
MovesLike = Union[str, Sequence[str]]

class PostfactoError(Exception):
    """Every error postfacto raises."""

class BadInput(PostfactoError):
    """The input cannot be read (the binary exits 2 for it)."""

class Impossible(PostfactoError):
    """No answer exists (the binary exits 1)."""

    #: Why, in one line: the smallest set of rules in conflict.
    reason: str

class Undecided(PostfactoError):
    """A time limit passed before a verdict (the binary exits 3)."""

class InternalError(PostfactoError):
    """The solver failed or an answer did not replay: a bug (exit 4)."""

class Answer:
    """A reconstruction, checked by postfacto's replayer."""

    #: The rule set used.
    rules: str
    #: Whether it was inferred (``rules="auto"``).
    inferred: bool
    #: The side that made the first move: ``"white"`` or ``"black"``.
    first: str
    #: The start board as FEN (as pydraughts writes it), first side to move.
    start_fen: str
    #: The end board as FEN, the next side to move.
    end_fen: str
    #: The start board's rows as the binary prints them.
    start: List[str]
    #: The end board's rows.
    end: List[str]
    #: The moves as played, every landing of a capture written.
    moves: List[str]
    #: The moves as written (``?`` where illegible).
    record: List[str]

class Edit:
    """One edit of a repair."""

    #: The 1-based ply it concerns (0 for the side that moved first).
    ply: int
    #: ``"square"``, ``"move"``, ``"missing"``, ``"extra"``, ``"first"`` or ``"swap"`` (two moves of one side written in each other's place; ``ply`` is the earlier).
    kind: str
    #: What was written there (empty for a missing move).
    written: str
    #: What it is read as (empty for an extra move).
    read: str
    def __init__(self, ply: int, kind: str, written: str, read: str) -> None: ...

class Repair:
    """The fewest edits that make a record legal, and its answer."""

    #: The edits in ply order; empty when the record is legal as written.
    edits: List[Edit]
    #: The answer of the repaired record.
    answer: Answer

class Game:
    """A legal game from the start to a position: a shortest one unless
    ``minimal`` is false (``reach(any=True)``)."""

    #: The rule set.
    rules: str
    #: The moves from the start, every landing written.
    moves: List[str]
    #: Its length in plies.
    plies: int
    #: Whether no legal game of fewer plies reaches the position (proved).
    minimal: bool
    #: No legal game of fewer plies reaches it (proved).
    lower_bound: int
    #: The board it starts from (the opening, or ``start``), as FEN.
    start_fen: str
    #: The board it ends on, as FEN.
    end_fen: str
    #: That board's rows.
    end: List[str]

class PdnGame:
    """One game of a PDN archive, checked as ``postfacto verify --pdn`` does."""

    #: Its 1-based position in the file.
    number: int
    #: The 1-based line where it starts.
    line: int
    #: The rule set it was checked under (None when none could be chosen).
    rules: Optional[str]
    #: Whether that rule set was inferred from its notation and moves.
    inferred: bool
    #: ``"ok"``, ``"illegal"``, ``"no moves"``, ``"unreadable"`` or ``"unsupported"``.
    status: str
    #: The ply an illegal game breaks a rule at (0: its FEN position).
    ply: Optional[int]
    #: Why, for a game that is not ok.
    reason: Optional[str]
    #: What was read leniently, one note each.
    notes: List[str]
    #: The moves as read.
    moves: List[str]
    #: Where it starts, as a FEN: its ``[FEN]``, or its rule set's opening
    #: (None when it could not be read).
    start_fen: Optional[str]
    #: Its tags.
    headers: Dict[str, str]

    def repair(self, max_edits: int = 3, limit: Optional[float] = None) -> Repair:
        """The fewest edits that make its moves legal from ``start_fen`` (a
        game without ``[FEN]`` from the opening, not as a fragment), as
        ``postfacto verify --pdn --repair`` repairs it: the game's text read
        as ``verify`` reads it (captures written short are moves, not
        mistakes), under its ``rules``; a legal game needs no edit. Raises
        :class:`BadInput` for a game that could not be read,
        :class:`Impossible`, :class:`Undecided`."""

def solve(
    moves: MovesLike,
    rules: str = "english",
    first: Optional[str] = None,
    start: Optional[BoardLike] = None,
    end: Optional[BoardLike] = None,
    short_captures: bool = False,
    limit: Optional[float] = None,
) -> Answer:
    """A start position from which ``moves`` are legal, and where they lead.

    ``first`` is ``"white"`` or ``"black"`` (by default the side a start
    FEN names, else the side that opens a game under ``rules``).
    ``start``/``end`` are facts about those boards. ``limit`` is in
    seconds. Raises :class:`Impossible` (with ``.reason``),
    :class:`BadInput`, :class:`Undecided`.
    """

def repair(
    moves: MovesLike,
    rules: str = "english",
    first: Optional[str] = None,
    start: Optional[BoardLike] = None,
    end: Optional[BoardLike] = None,
    max_edits: int = 3,
    limit: Optional[float] = None,
    short_captures: bool = False,
) -> Repair:
    """The fewest edits (at most ``max_edits``) that make ``moves`` legal.
    ``short_captures`` reads captures written short (first and last
    squares), as :func:`solve` does.

    Raises :class:`Impossible` when none within ``max_edits`` exists,
    :class:`Undecided` (with the bound proved) when ``limit`` passes.
    """

def solve_json(
    moves: MovesLike,
    rules: str = "english",
    first: Optional[str] = None,
    start: Optional[BoardLike] = None,
    end: Optional[BoardLike] = None,
    short_captures: bool = False,
    limit: Optional[float] = None,
    explain: bool = False,
    count: bool = False,
    all: bool = False,
    unique: bool = False,
    minimize: bool = False,
    max_per_side: Optional[int] = None,
    repair: bool = False,
    max_edits: int = 3,
    count_limit: int = 100000,
) -> str:
    """The JSON text ``postfacto solve --format json`` prints for ``moves``
    with these options; only input that cannot be read raises."""

def report(moves: MovesLike, **options: Any) -> Dict[str, Any]:
    """:func:`solve_json` read into a ``dict``: the binary's report, key for
    key (``status``, ``answers``, ``count``, ``forced``, ``repairs``, ...)."""

def cnf(
    moves: MovesLike,
    rules: str = "english",
    first: Optional[str] = None,
    start: Optional[BoardLike] = None,
    end: Optional[BoardLike] = None,
    short_captures: bool = False,
) -> str:
    """The formula ``solve`` hands its SAT solver, as DIMACS text."""

def decode(
    moves: MovesLike,
    model: str,
    rules: str = "english",
    first: Optional[str] = None,
    start: Optional[BoardLike] = None,
    end: Optional[BoardLike] = None,
    short_captures: bool = False,
) -> Answer:
    """A solver's model of ``cnf``'s formula (``s``/``v`` lines or literals) as its answer."""

def legal_moves(position: BoardLike, rules: str = "auto", turn: Optional[str] = None) -> List[str]:
    """The legal moves on ``position`` (a FEN names the side; rows need ``turn``),
    sorted by square (``9-13`` before ``10-14``)."""

def reach(
    position: BoardLike,
    rules: str = "auto",
    turn: Optional[str] = None,
    limit: Optional[float] = None,
    *,
    any: bool = False,
    max_plies: Optional[int] = None,
    start: Optional[BoardLike] = None,
    start_turn: Optional[str] = None,
) -> Game:
    """A shortest legal game from the opening (or ``start``) to ``position``;
    with ``any``, a legal game found fast, not necessarily the shortest
    (``Game.minimal`` says whether it is proved shortest).

    Raises :class:`Impossible` when no game reaches it (within ``max_plies``),
    :class:`Undecided` when ``limit`` (seconds) passes first (the message
    gives the best game's length and the bound proved).
    """

def read_pdn(
    path: Optional[Union[str, "PathLike[str]"]] = None,
    *,
    text: Optional[str] = None,
    rules: Optional[str] = None,
    strict: bool = False,
) -> List[PdnGame]:
    """Every game of a PDN archive (a file, or ``text=``), checked. A file
    that cannot be read raises the ``OSError`` Python raises for it
    (``FileNotFoundError`` for a missing one)."""

def judge(
    text: str,
    answer: str,
    *,
    name: str = "<text>",
    rules: Optional[str] = None,
    short_captures: bool = False,
    repair: bool = False,
    max_edits: int = 3,
    limit: Optional[float] = None,
) -> List[Tuple[str, str, Optional[str]]]:
    """Each record's verdict on its answer, as ``postfacto verify INPUT
    ANSWER`` gives it: ``(name, status, reason)`` per record, ``status``
    one of ``"accepted"``, ``"rejected"``, ``"undecided"``, ``reason``
    ``None`` when accepted. ``rules`` as ``verify --rules`` (none: as the
    records' notation or game type says). ``text`` holds the records (``name`` names
    them, as a file would; left as ``"<text>"``, they take the answers of
    the one file a named answer names, by number), ``answer`` their answers
    (in order, or named as ``solve`` names a batch's); with ``repair``, a
    move that is no move is a mistake to mend, and a rejected record also
    gets the fewest edits that make its answer play. Raises
    :class:`BadInput` when the records cannot be read."""

def verify_json(
    path: Optional[Union[str, "PathLike[str]"]] = None,
    *,
    text: Optional[str] = None,
    rules: Optional[str] = None,
    strict: bool = False,
    repair: bool = False,
    max_edits: int = 3,
    legal: bool = False,
    limit: Optional[float] = None,
) -> str:
    """The JSON Lines ``postfacto verify --pdn --format json`` prints for
    the archive (a file, or ``text=``) with these options: one object per
    game; ``limit`` (seconds) bounds each game's judgement and repair;
    ``legal`` asks whether each ``[FEN]`` start is reachable (``--legal``)."""

def verify(path: Optional[Union[str, "PathLike[str]"]] = None, **options: Any) -> List[Dict[str, Any]]:
    """:func:`verify_json` read into one ``dict`` per game: the binary's
    report, key for key (``status``, ``reason``, ``repair``, ...)."""
