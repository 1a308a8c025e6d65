"""python-chess interop: a chess.Board in, moves as chess.Move; Tabula's moves and perft equal python-chess's."""

import random

import pytest

chess = pytest.importorskip("chess")
import chess.engine  # noqa: E402

import tabula  # noqa: E402
import tabula.python_chess as tc  # noqa: E402
from references import python_chess_perft  # noqa: E402


@pytest.mark.parametrize(
    "fen",
    [
        chess.STARTING_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ],
)
def test_perft_equals_python_chess(fen):
    board = chess.Board(fen)
    assert tc.perft(board, 3) == python_chess_perft(board, 3)


def test_legal_moves_equal_python_chess_along_random_games():
    rng = random.Random(5)
    for _ in range(10):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 120:
            assert set(tc.legal_moves(board)) == set(board.legal_moves), board.fen()
            board.push(rng.choice(list(board.legal_moves)))


def test_keys_equal_python_chess_polyglot_hashes():
    import chess.polyglot

    rng = random.Random(6)
    board = chess.Board()
    for _ in range(60):
        if board.is_game_over():
            break
        assert tc.position(board).key() == chess.polyglot.zobrist_hash(board), board.fen()
        board.push(rng.choice(list(board.legal_moves)))


def test_a_board_in_and_moves_out():
    board = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = tc.analyse(board, depth=4)
    assert info["pv"][0] == chess.Move.from_uci("a1a8")
    assert info["score"] == chess.engine.PovScore(chess.engine.Mate(1), chess.WHITE)
    assert tc.best_move(board, depth=4) in board.legal_moves
    board = chess.Board()
    board.push_san("e4")
    info = tc.analyse(board, depth=5)
    assert info["pv"][0] in board.legal_moves and isinstance(info["score"].relative, chess.engine.Cp)
    assert tc.board(tc.position(board)).fen() == chess.Board(board.fen()).fen()


def test_the_boards_history_counts_for_repetitions():
    board = chess.Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        board.push_san(san)
    pos = tc.position(board)
    assert pos.moves == [m.uci() for m in board.move_stack]
    # Black's Ng8 repeats the start a third time: the engine sees a draw on the board's history.
    analysis = tabula.chess.Engine(hash_mib=8).analyse(pos, depth=3)
    assert analysis.best is not None


def test_chess960_castling_reads_as_python_chess_writes_it():
    board = chess.Board.from_chess960_pos(0)
    pos = tc.position(board)
    assert pos.is_chess960() and tc.board(pos).fen() == board.fen()
    assert set(tc.legal_moves(board)) == set(board.legal_moves)
