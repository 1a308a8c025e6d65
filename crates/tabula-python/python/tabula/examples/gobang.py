"""Gobang (five in a row, freestyle) as the Python tutorial writes it, searched by Tabula's core.

The tutorial's pieces, in its order:

1. the board, a list of cells, and the moves worth trying: the empty cells next to a stone;
2. the evaluation by five-cell windows (every five cells in a row, column or diagonal): a window holding
   stones of one colour only is worth 1, 10, 100 or 1,000 to that colour for one to four stones, kept up to
   date on every move by re-scoring only the windows through the cell that changed;
3. the Zobrist key: a random 64-bit number for each colour on each cell, drawn from a seeded generator so that
   every run draws the same ones, XORed in when a stone is placed and out when it is taken back;
4. the search: the tutorial's minimax with a dictionary of positions already searched becomes
   ``tabula.Searcher``, with its transposition table or without it (``table=False``).

>>> import tabula
>>> from tabula.examples.gobang import Gobang
>>> game = Gobang.from_moves("h8 i9 h9 h7 i8 g8")
>>> with_table = tabula.Searcher().search(game, depth=4)
>>> without = tabula.Searcher(table=False).search(game, depth=4)
>>> with_table.score == without.score
True
"""

import random

# What a window holding only one colour's stones is worth to that colour, by its number of stones.
WINDOW_SCORES = (0, 1, 10, 100, 1000, 0)

_keys_by_size: dict = {}
_windows_by_size: dict = {}


def zobrist_keys(size, seed=2026):
    """A 64-bit key for each colour (0 Black, 1 White) on each cell, the same for every run of one seed."""
    if (size, seed) not in _keys_by_size:
        rng = random.Random(seed)
        _keys_by_size[size, seed] = [[rng.getrandbits(64) for _ in range(size * size)] for _ in range(2)]
    return _keys_by_size[size, seed]


def windows(size):
    """Every five cells in a line on a ``size`` × ``size`` board, and for each cell the windows through it."""
    if size not in _windows_by_size:
        all_windows = []
        for row in range(size):
            for col in range(size):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row, end_col = row + 4 * dr, col + 4 * dc
                    if 0 <= end_row < size and 0 <= end_col < size:
                        all_windows.append([(row + k * dr) * size + col + k * dc for k in range(5)])
        through = [[] for _ in range(size * size)]
        for w, cells in enumerate(all_windows):
            for cell in cells:
                through[cell].append(w)
        _windows_by_size[size] = (all_windows, through)
    return _windows_by_size[size]


class Gobang:
    """A gobang position. Moves are ``(row, column)`` pairs, ``(0, 0)`` the top left corner; Black moves first."""

    def __init__(self, size=15, seed=2026):
        self.size = size
        self.board = [None] * (size * size)  # 0 Black, 1 White
        self.history = []  # the cells played, in order
        self.keys = zobrist_keys(size, seed)
        self.hash = 0
        self.windows, self.through = windows(size)
        self.counts = [[0, 0] for _ in self.windows]  # each window's stones of each colour
        self.score = 0  # the windows' worth for Black

    @classmethod
    def from_moves(cls, text, size=15):
        """The position after the moves of ``text`` in the usual coordinates (``h8``: column h, row 8 from the
        bottom)."""
        game = cls(size)
        for word in text.split():
            game.play((size - int(word[1:]), ord(word[0]) - ord("a")))
        return game

    def _window_value(self, w):
        black, white = self.counts[w]
        if black and white:
            return 0
        return WINDOW_SCORES[black] - WINDOW_SCORES[white]

    def _place(self, cell, colour, step):
        for w in self.through[cell]:
            self.score -= self._window_value(w)
            self.counts[w][colour] += step
            self.score += self._window_value(w)
        self.hash ^= self.keys[colour][cell]

    def legal_moves(self):
        if not self.history:
            return [(self.size // 2, self.size // 2)]
        size, board = self.size, self.board
        moves = []
        for row in range(size):
            for col in range(size):
                if board[row * size + col] is not None:
                    continue
                if any(
                    0 <= row + dr < size and 0 <= col + dc < size and board[(row + dr) * size + col + dc] is not None
                    for dr in (-1, 0, 1)
                    for dc in (-1, 0, 1)
                ):
                    moves.append((row, col))
        return moves

    def play(self, move):
        row, col = move
        cell = row * self.size + col
        colour = len(self.history) % 2
        self.board[cell] = colour
        self.history.append(cell)
        self._place(cell, colour, 1)

    def undo(self, move):
        cell = self.history.pop()
        colour = self.board[cell]
        self.board[cell] = None
        self._place(cell, colour, -1)

    def outcome(self):
        if self.history:
            last = self.history[-1]
            colour = self.board[last]
            if any(self.counts[w][colour] == 5 for w in self.through[last]):
                return "loss"  # the player who just moved made five
        return "draw" if len(self.history) == self.size * self.size else None

    def key(self):
        return self.hash

    def evaluate(self):
        return self.score if len(self.history) % 2 == 0 else -self.score

    def __str__(self):
        rows = []
        for row in range(self.size):
            marks = ("x" if c == 0 else "o" if c == 1 else "." for c in self.board[row * self.size : (row + 1) * self.size])
            rows.append(f"{self.size - row:2} " + " ".join(marks))
        return "\n".join(rows + ["   " + " ".join(chr(ord("a") + c) for c in range(self.size))])
