"""What every game's module has (its ``Position`` and ``Engine``, and for the games small enough to solve, its
``Solver``): the bases of the game modules' stubs. Not a module at run time: each game's classes are its own."""

from collections.abc import Callable
from typing import Generic, Literal, TypeVar, final

from typing_extensions import Self

from . import Analysis

class Position:
    """A position of the game, with the moves played on it. Moves are strings: the legal moves come in the
    game's coordinates, and ``play`` reads any notation the game knows."""

    NAME: str
    """The game's name (``chess``)."""
    POSITION_HELP: str
    """How a position is written."""
    MOVE_HELP: str
    """How a move is written."""
    MOVE_CODES: int
    """An upper bound on ``move_code`` (exclusive)."""

    def __new__(
        cls, position: str | None = None, *, size: int | None = None, rule: str | None = None, komi: float | None = None
    ) -> Self:
        """The position ``position`` reads as in the game's usual notation, or the start position; ``size``,
        ``rule`` and ``komi`` choose a variant where the game has them (Gomoku, Go)."""
    def legal_moves(self) -> list[str]:
        """The legal moves in the game's coordinates (UCI for chess, ICCS for xiangqi); none once the game is
        over."""
    def play(self, move: str) -> str:
        """Plays ``move``, written in any notation the game reads; returns it in coordinates."""
    def undo(self) -> str:
        """Takes back the last move played on this object; returns it in coordinates."""
    @property
    def moves(self) -> list[str]:
        """The moves played on this object, oldest first, in coordinates."""
    def parse_move(self, text: str) -> str:
        """The move ``text`` names, in coordinates (a check that it is legal, and a translation)."""
    def move_text(self, move: str) -> str:
        """The move in the game's own notation (SAN for chess, Chinese for xiangqi)."""
    def outcome(self) -> Literal["win", "loss", "draw"] | int | None:
        """The result for the side to move once the game is over, or the margin (Go); ``None`` while it goes
        on."""
    def is_over(self) -> bool:
        """Whether play has ended."""
    def result(self) -> str | None:
        """How the game ended, in words, or ``None`` while it goes on."""
    def side_to_move(self) -> str:
        """Who is to move, in the game's words (``White``, ``Red``, ``X``)."""
    def key(self) -> int:
        """The Zobrist key (for chess, Polyglot's)."""
    def move_code(self, move: str) -> int:
        """The move's code: below ``MOVE_CODES``, distinct among the legal moves of a position."""
    def text(self) -> str:
        """The position in the game's usual notation, as the constructor reads it."""
    def board(self, unicode: bool = False) -> str:
        """The board drawn as text."""
    def perft(self, depth: int, hash_mib: int | None = None) -> int:
        """The leaves of the move tree ``depth`` plies below (perft), through a table of ``hash_mib`` MiB if
        given."""
    def divide(self, depth: int, hash_mib: int | None = None) -> list[tuple[str, int]]:
        """Each legal move's perft count below it, in coordinates."""
    def cells(self) -> tuple[int, int, list[str], bool] | None:
        """The board as cells, row by row from the top left: ``(width, height, marks, drop)``."""
    def move_cells(self, move: str) -> tuple[int | None, int] | None:
        """The cells that ``move`` leaves (``None`` for a stone put down) and reaches."""
    def copy(self) -> Self:
        """A copy, with its own moves to take back."""
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: object, /) -> Self: ...

_P = TypeVar("_P", bound=Position)

class Engine(Generic[_P]):
    """The game's engine. A search releases the GIL, and ``stop()`` from another thread (or a Ctrl-C) ends
    it."""

    def __new__(cls, hash_mib: int = 64, threads: int = 1, table: bool = True) -> Self:
        """An engine with a table of ``hash_mib`` MiB, searching on ``threads`` threads, with its table or
        without it."""
    def analyse(
        self,
        position: _P,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        time: float | None = None,
        on_iteration: Callable[[Analysis], object] | None = None,
    ) -> Analysis:
        """Analyses ``position`` to ``depth`` plies, ``nodes`` nodes or ``time`` seconds (whichever ends first;
        one second if none is given)."""
    def stop(self) -> None:
        """Stops the search under way (from another thread); it returns what it has found."""
    def clear(self) -> None:
        """Forgets everything learnt (the table), as a new engine would."""

@final
class Solved:
    """An exact value found by a game's solver."""

    @property
    def value(self) -> int:
        """The figure solve files print, in the game's own convention."""
    @property
    def words(self) -> str:
        """The value in words (``win in 3 moves``)."""
    @property
    def best(self) -> str | None:
        """A move that reaches the value, in coordinates (``None`` once the game is over)."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""

class Solver(Generic[_P]):
    """The game's exact solver. It keeps its table from position to position; the GIL is released while it
    solves."""

    def __new__(cls, hash_mib: int = 64, threads: int = 1) -> Self:
        """A solver with a table of ``hash_mib`` MiB on ``threads`` threads."""
    def solve(self, position: _P, weak: bool = False) -> Solved:
        """The exact value of ``position`` (``weak``: only whether the side to move wins, draws or loses)."""
    def solve_moves(self, position: _P) -> list[tuple[str, Solved]]:
        """The exact value of every legal move, for the side to move, as ``(move, Solved)`` pairs."""
    def clear(self) -> None:
        """Forgets everything learnt (the table)."""
