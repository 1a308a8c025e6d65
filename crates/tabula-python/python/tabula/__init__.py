"""Tabula from Python: Zobrist hashing, transposition tables and alpha-beta search.

- The games, each a module with its ``Position`` (rules, notation, keys, perft, the board as text) and its
  ``Engine``: ``tabula.tictactoe``, ``tabula.connect4`` (with its perfect ``Solver``), ``tabula.chess``,
  ``tabula.gomoku`` (with its ``ThreatSolver``), ``tabula.go`` and ``tabula.xiangqi``.
- The core over a game written in Python: ``tabula.Searcher``, ``tabula.minimax``, ``tabula.alphabeta`` and
  ``tabula.verify`` take any object with ``legal_moves()``, ``play(move)``, ``undo(move)``, ``outcome()`` and
  ``key()`` (and optionally ``evaluate()``).
- The adapters: ``tabula.pettingzoo`` (an AEC environment), ``tabula.python_chess`` (``chess.Board`` in,
  ``chess.Move`` out) and ``tabula.kmc`` (an ASE ``Atoms`` in, its energy as the KMC computes it).

>>> import tabula
>>> tabula.chess.Position().perft(3)
8902
"""

import sys as _sys

from . import _tabula
from ._tabula import (
    DECISIVE,
    FORCED,
    MAX_PLY,
    WIN,
    Analysis,
    Error,
    Iteration,
    Mismatch,
    MoveError,
    PositionError,
    SearchResult,
    Searcher,
    SetupError,
    Solved,
    TableUse,
    alphabeta,
    minimax,
    verify,
)
from ._tabula import chess, connect4, go, gomoku, tictactoe, xiangqi

# The games are submodules of the extension module: registered here under both names, `import tabula.chess`
# finds them, and so do tools that look a module up by its place in the package (``tabula._tabula.chess``,
# where its type stub is).
for _module in (chess, connect4, go, gomoku, tictactoe, xiangqi, _tabula.kmc):
    _name = _module.__name__.rsplit(".", 1)[-1]
    _sys.modules[f"{__name__}._tabula.{_name}"] = _module
    if _module is not _tabula.kmc:  # tabula.kmc is the Python module that wraps it
        _sys.modules[f"{__name__}.{_name}"] = _module
del _module, _name

from . import kmc  # noqa: E402  (after the games: it imports the extension's kmc module)


def plies_to_end(score: int) -> "int | None":
    """The plies to the end of a forced result (a win if the score is positive, a loss if negative), or
    ``None`` for a heuristic score."""
    if abs(score) < FORCED:
        return None
    return WIN - abs(score)


__all__ = [
    "DECISIVE",
    "FORCED",
    "MAX_PLY",
    "WIN",
    "Analysis",
    "Error",
    "Iteration",
    "Mismatch",
    "MoveError",
    "PositionError",
    "SearchResult",
    "Searcher",
    "SetupError",
    "Solved",
    "TableUse",
    "alphabeta",
    "chess",
    "connect4",
    "go",
    "gomoku",
    "kmc",
    "minimax",
    "plies_to_end",
    "tictactoe",
    "verify",
    "xiangqi",
]
