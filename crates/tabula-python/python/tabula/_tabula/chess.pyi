"""Chess and Chess960 with Polyglot keys, the UCI engine's search and evaluation. Positions in FEN (X-FEN for
Chess960), moves in UCI coordinates or SAN."""

from typing import final

from . import _game

__all__ = ["Position", "Engine"]

@final
class Position(_game.Position):
    """A chess position, with the moves played on it."""

    @staticmethod
    def chess960(number: int) -> Position:
        """The start position of Chess960 number ``number`` (0 to 959; 518 is the standard start)."""
    def fen(self) -> str:
        """The position in FEN (X-FEN for Chess960)."""
    def san(self, move: str) -> str:
        """The move in Standard Algebraic Notation (``Nf3``, ``O-O``, ``e8=Q+``)."""
    def is_check(self) -> bool:
        """Whether the side to move is in check."""
    def is_chess960(self) -> bool:
        """Whether the position needs Chess960's notation."""

@final
class Engine(_game.Engine[Position]):
    """The chess engine."""
