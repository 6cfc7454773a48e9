"""postfacto: reconstruct draughts positions from damaged game records.

Every call runs the postfacto library (the code the ``postfacto`` binary
runs, compiled in; no subprocess) and returns answers its own replayer has
checked. Strings are those pydraughts and lidraughts use: FEN such as
``W:W31,32,K33:B1-20``, PDN moves such as ``32-28``, ``28x19``, ``c3-d4``,
``c3:e5``, rule sets by name (one of :data:`RULES`, the library's rule
table; ``standard`` for ``international``; ``auto``, :data:`AUTO`, to infer one).

Errors are exceptions: :class:`BadInput` (the binary exits 2),
:class:`Impossible` (exit 1, ``.reason`` says why), :class:`Undecided` (a
time limit passed), :class:`InternalError` (a bug), all subclasses of
:class:`PostfactoError`; a file that cannot be read raises the ``OSError``
Python raises for it (``FileNotFoundError`` when it is missing). Long
calls release the GIL.
"""

from postfacto._native import (
    AUTO,
    RULES,
    Answer,
    BadInput,
    Edit,
    Game,
    Impossible,
    InternalError,
    PdnGame,
    PostfactoError,
    Repair,
    Undecided,
    cnf,
    decode,
    judge,
    legal_moves,
    reach,
    read_pdn,
    repair,
    solve,
    solve_json,
    verify_json,
)

__version__ = "0.1.0"


def report(moves, **options):
    """The report ``postfacto solve --format json`` prints for ``moves``.

    Takes :func:`solve`'s arguments and the binary's analysis options
    (``explain``, ``count``, ``all``, ``unique``, ``minimize``,
    ``max_per_side``, ``repair``, ``max_edits``, ``count_limit``) and
    returns the same object, key for key, as a ``dict``: the verdict is in
    it (``status``, ``message``, ``explanation``); only input that cannot
    be read raises :class:`BadInput`.
    """
    import json

    return json.loads(solve_json(moves, **options))


def verify(path=None, **options):
    """The reports ``postfacto verify --pdn --format json`` prints for a
    PDN archive (``path``, or ``text=``), one ``dict`` per game, key for
    key the binary's.

    Takes :func:`verify_json`'s options (``rules``, ``strict``,
    ``repair``, ``max_edits``, ``legal``, ``limit``); an archive that cannot be read
    raises :class:`BadInput` (or the ``OSError`` for a file).
    """
    import json

    return [json.loads(line) for line in verify_json(path, **options).splitlines()]

__all__ = [
    "AUTO",
    "RULES",
    "Answer",
    "BadInput",
    "Edit",
    "Game",
    "Impossible",
    "InternalError",
    "PdnGame",
    "PostfactoError",
    "Repair",
    "Undecided",
    "cnf",
    "decode",
    "legal_moves",
    "judge",
    "reach",
    "read_pdn",
    "repair",
    "report",
    "solve",
    "solve_json",
    "verify",
    "verify_json",
]
