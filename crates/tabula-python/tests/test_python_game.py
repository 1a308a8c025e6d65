"""The core over a game written in Python: its searches equal to minimax at every depth tried, the same trees as
the same games in Rust, the table saving nodes, and a game's mistakes and exceptions shown for what they are."""

import pytest

import tabula
from tabula.examples.connect4 import ConnectFour
from tabula.examples.gobang import Gobang
from tabula.examples.tictactoe import KEYS, TicTacToe


def gobang_positions():
    yield Gobang.from_moves("e5 d4 e4", size=9)
    yield Gobang.from_moves("e5 f6 d5 f5 f4", size=9)
    yield Gobang.from_moves("h8 i9 h9 h7 i8 g8")


def test_a_python_games_searches_equal_minimax_at_every_depth_tried():
    for game in gobang_positions():
        for depth in range(1, 4):
            expected, _ = tabula.minimax(game, depth)
            # alphabeta and the searcher under every option set the core verifies, each from an empty table
            assert tabula.verify(game, depth) == expected
            for table in (True, False):
                assert tabula.Searcher(table=table).search(game, depth=depth).score == expected
    tictactoe = TicTacToe()
    for move in (4, 0):
        tictactoe.play(move)
    for depth in range(1, 8):
        assert tabula.verify(tictactoe, depth) == tabula.minimax(tictactoe, depth)[0]


def test_a_python_game_has_the_tree_of_the_same_game_in_rust():
    assert tabula.minimax(TicTacToe(), 9) == tabula.minimax(tabula.tictactoe.Position(), 9) == (0, 549946)
    assert tabula.minimax(ConnectFour(), 5) == tabula.minimax(tabula.connect4.Position(), 5)
    assert tabula.alphabeta(TicTacToe(), 9)[0] == 0


def test_the_table_saves_nodes_on_the_tutorials_gobang():
    game = Gobang.from_moves("h8 i9 h9 h7 i8 g8")
    with_table = tabula.Searcher().search(game, depth=4)
    without = tabula.Searcher(table=False).search(game, depth=4)
    assert with_table.score == without.score
    assert with_table.nodes < without.nodes
    assert with_table.table.hits > 0 and without.table.probes == 0
    assert with_table.best_move in game.legal_moves() and len(with_table.pv) >= 1


def test_the_searcher_proves_a_small_game_and_leaves_the_object_as_it_was():
    game = TicTacToe()
    key = game.key()
    result = tabula.Searcher().search(game)
    assert result.score == 0 and result.exact and game.key() == key and game.stones == 0
    game.play(0)
    game.play(1)  # O on an edge loses to best play
    result = tabula.Searcher().search(game)
    assert tabula.plies_to_end(result.score) is not None and result.score > 0


def test_each_iteration_is_reported():
    seen = []
    tabula.Searcher().search(Gobang.from_moves("e5 d4", size=9), depth=3, on_iteration=seen.append)
    assert [it.depth for it in seen] == [1, 2, 3] and all(it.pv for it in seen)


class UndoForgetsTheKey(TicTacToe):
    """A mistake a lesson might make: undo leaves the key as it was after the move."""

    def undo(self, cell):
        mark = self.cells[cell]
        self.cells[cell] = None
        self.stones -= 1
        if cell == 4 and mark == 1:
            return  # the key is not XORed back
        self.hash ^= KEYS[mark][cell]


def test_verify_shows_a_broken_undo():
    game = UndoForgetsTheKey()
    game.play(0)
    with pytest.raises(tabula.Mismatch, match="where minimax returns"):
        for depth in range(1, 9):
            tabula.verify(game, depth)


class Raises(TicTacToe):
    def __init__(self, after):
        super().__init__()
        self.calls = after

    def legal_moves(self):
        self.calls -= 1
        if self.calls < 0:
            raise RuntimeError("legal_moves failed on purpose")
        return super().legal_moves()


def test_an_exception_in_the_game_is_raised_from_the_search():
    game = Raises(after=50)
    with pytest.raises(RuntimeError, match="on purpose"):
        tabula.Searcher().search(game, depth=9)
    with pytest.raises(RuntimeError, match="on purpose"):
        tabula.minimax(Raises(after=10), 9)
    assert game.stones == 0  # the search played on copies


def test_a_game_that_answers_wrongly_is_told_what_to_answer():
    class BadOutcome(TicTacToe):
        def outcome(self):
            return 1

    with pytest.raises(TypeError, match="outcome\\(\\) must return None, 'win', 'loss' or 'draw'"):
        tabula.minimax(BadOutcome(), 2)

    class NoKey:
        def legal_moves(self):
            return []

    with pytest.raises(AttributeError, match="a game needs a method play\\(\\)"):
        tabula.Searcher().search(NoKey(), depth=1)

    class Unhashable(TicTacToe):
        def legal_moves(self):
            return [[cell] for cell in super().legal_moves()]

    with pytest.raises(TypeError, match="unhashable"):
        tabula.minimax(Unhashable(), 2)
