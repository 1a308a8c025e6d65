"""The native half of the package (``tabula._tabula``): what ``tabula`` re-exports, typed.

The games are its submodules (``tabula.chess`` is ``tabula._tabula.chess``); ``tabula.kmc`` wraps its ``kmc``.
"""

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Literal, Protocol, final

from . import chess as chess
from . import connect4 as connect4
from . import go as go
from . import gomoku as gomoku
from . import kmc as kmc
from . import tictactoe as tictactoe
from . import xiangqi as xiangqi
from ._game import Solved as Solved

__all__ = [
    "Error", "PositionError", "MoveError", "SetupError", "Mismatch", "Analysis", "TableUse", "Solved",
    "Searcher", "SearchResult", "Iteration", "minimax", "alphabeta", "verify", "tictactoe", "connect4", "chess",
    "gomoku", "go", "xiangqi", "kmc", "WIN", "FORCED", "DECISIVE", "MAX_PLY",
]

WIN: int
"""The score of a win on the spot; a win in ``n`` plies scores ``WIN - n``."""
FORCED: int
"""Scores of at least this size (either sign) are forced results, not heuristics."""
DECISIVE: int
"""Evaluations stay below this size; beyond it lie forced results."""
MAX_PLY: int
"""The deepest ply a search reaches."""

class Error(ValueError):
    """What Tabula refused: a position, a move or a setting it cannot take."""

class PositionError(Error):
    """A position that cannot be read."""

class MoveError(Error):
    """A move that cannot be read or is not legal in the position."""

class SetupError(Error):
    """A setting the game does not have, or a value it does not accept."""

class Mismatch(AssertionError):
    """A search that disagreed with minimax (``tabula.verify``)."""

@final
class TableUse:
    """How much a search used its transposition table."""

    @property
    def probes(self) -> int:
        """Probes made."""
    @property
    def hits(self) -> int:
        """Probes that found their position."""
    @property
    def cutoffs(self) -> int:
        """Hits whose stored bound settled the node without a search."""
    @property
    def hit_rate(self) -> float:
        """Hits as a fraction of probes (0 when there were none)."""

@final
class Analysis:
    """What an engine says about a position: the best move, the score in the game's words, the line, the work."""

    @property
    def best(self) -> str | None:
        """The move to play, in the game's coordinates (``None`` only if the game is over)."""
    @property
    def score(self) -> str:
        """The score in the game's words: ``mate in 3``, ``+35 cp``, ``win in 5 plies``, ``win rate 54.1%``."""
    @property
    def value(self) -> int | None:
        """The score as a number where the engine gives one (the alpha-beta engines), else ``None``."""
    @property
    def depth(self) -> int | None:
        """Depth of the last completed iteration (``None`` for searches without depths, such as Go's)."""
    @property
    def seldepth(self) -> int | None:
        """Deepest ply reached."""
    @property
    def nodes(self) -> int:
        """Work done: nodes, or playouts for Go's Monte Carlo search."""
    @property
    def unit(self) -> str:
        """What ``nodes`` counts: ``nodes`` or ``playouts``."""
    @property
    def pv(self) -> list[str]:
        """The principal variation, in the game's coordinates."""
    @property
    def line(self) -> str:
        """The principal variation in the game's own notation (SAN for chess, Chinese for xiangqi)."""
    @property
    def table(self) -> TableUse | None:
        """Transposition-table use, for searches with a table."""
    @property
    def elapsed(self) -> float:
        """Time spent, in seconds."""
    @property
    def notes(self) -> list[str]:
        """Anything else the engine said, one line each."""

class _Game(Protocol):
    """A game written in Python, as the core searches it: moves are any hashable objects; ``outcome`` is for the
    side to move. ``evaluate()`` (a number for the side to move) is optional."""

    def legal_moves(self) -> Iterable[Hashable]: ...
    def play(self, move: Any, /) -> object: ...
    def undo(self, move: Any, /) -> object: ...
    def outcome(self) -> Literal["win", "loss", "draw"] | None: ...
    def key(self) -> int: ...

_Position = (
    chess.Position | connect4.Position | go.Position | gomoku.Position | tictactoe.Position | xiangqi.Position
)

@final
class SearchResult:
    """A search's result on a Python game."""

    @property
    def best_move(self) -> Any | None:
        """The best move (one of the objects ``legal_moves()`` gave), ``None`` only if the game is over."""
    @property
    def score(self) -> int:
        """Its score for the side to move: the game's evaluation, or beyond ``DECISIVE`` a forced result."""
    @property
    def exact(self) -> bool:
        """Whether the score is proved (no line was cut short by the horizon)."""
    @property
    def depth(self) -> int:
        """Depth of the deepest completed iteration."""
    @property
    def seldepth(self) -> int:
        """Deepest ply reached."""
    @property
    def pv(self) -> list[Any]:
        """The principal variation."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def table(self) -> TableUse:
        """Transposition-table use."""
    @property
    def elapsed(self) -> float:
        """Time taken, in seconds."""

@final
class Iteration:
    """One iteration of a search on a Python game, as ``on_iteration`` receives it."""

    @property
    def depth(self) -> int:
        """Depth of the iteration."""
    @property
    def score(self) -> int:
        """Score of the root for the side to move."""
    @property
    def exact(self) -> bool:
        """Whether the score is proved."""
    @property
    def nodes(self) -> int:
        """Nodes searched so far."""
    @property
    def pv(self) -> list[Any]:
        """The principal variation."""

@final
class Searcher:
    """Tabula's searcher (iterative deepening alpha-beta with the transposition table) over a game written in
    Python: any object with ``legal_moves()``, ``play(move)``, ``undo(move)``, ``outcome()`` and ``key()``, and
    optionally ``evaluate()``."""

    def __new__(cls, table_mib: int = 16, *, table: bool = True) -> Searcher:
        """A searcher with a table of ``table_mib`` MiB, used unless ``table=False``."""
    def search(
        self,
        game: _Game,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        time: float | None = None,
        on_iteration: Callable[[Iteration], object] | None = None,
    ) -> SearchResult:
        """Searches ``game`` by iterative deepening to ``depth`` plies, ``nodes`` nodes or ``time`` seconds
        (whichever ends first; with none, until the value is proved or ``stop()`` is called)."""
    def stop(self) -> None:
        """Stops the search under way (from another thread): it returns its last completed iteration."""
    def clear(self) -> None:
        """Empties the table: the next search starts as a new searcher's would."""

def minimax(game: _Game | _Position, depth: int) -> tuple[int, int]:
    """Plain minimax to ``depth`` plies, every move searched: ``(score, nodes)``."""

def alphabeta(game: _Game | _Position, depth: int) -> tuple[int, int]:
    """Alpha-beta without a table or move ordering to ``depth`` plies: ``(score, nodes)``."""

def verify(game: _Game, depth: int) -> int:
    """Checks that alpha-beta and the searcher under every option set return minimax's value for ``game`` at
    ``depth``, and returns it; raises ``Mismatch`` naming the first search that disagrees."""
