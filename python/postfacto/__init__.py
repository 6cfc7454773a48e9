"""postfacto: reconstruct draughts positions from damaged game records.

Every call runs the postfacto library (the code the ``postfacto`` binary
runs, compiled in; no subprocess) and returns answers its own replayer has
checked. Strings are those pydraughts and lidraughts use: FEN such as
``W:W31,32,K33:B1-20``, PDN moves such as ``32-28``, ``28x19``, ``c3-d4``,
``c3:e5``, rule sets by name (``english``, ``russian``, ``international``
or ``standard``, ``brazilian``, ``italian``, ``pool``, ``czech``,
``spanish``, ``portuguese``, ``canadian``: :data:`RULES`; ``auto``,
:data:`AUTO`, to infer one).

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
    legal_moves,
    reach,
    read_pdn,
    repair,
    solve,
)

__version__ = "0.1.0"

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
    "reach",
    "read_pdn",
    "repair",
    "solve",
]
