"""python-chess interop: a ``chess.Board`` in, moves as ``chess.Move``, scores as ``chess.engine.PovScore``.

>>> import chess
>>> import tabula.python_chess as tc
>>> board = chess.Board()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> tc.perft(board, 3) == 9322  # through Tabula's move generator
True
>>> info = tc.analyse(board, depth=6)
>>> isinstance(info["pv"][0], chess.Move) and info["pv"][0] in board.legal_moves
True

A board's moves are replayed on the Tabula position from the board's root, so that repetitions count in the
search as they do on the board. Needs ``chess`` (``pip install tabula-games[chess]``).
"""

import chess
import chess.engine

import tabula

__all__ = ["analyse", "best_move", "board", "engine_score", "legal_moves", "perft", "position"]


def position(board: chess.Board) -> "tabula.chess.Position":
    """The Tabula position of ``board``: its root position with the board's moves played on it."""
    root = board.root()
    pos = tabula.chess.Position(root.fen())
    for move in board.move_stack:
        pos.play(move.uci())
    return pos


def board(pos: "tabula.chess.Position") -> chess.Board:
    """The python-chess board of a Tabula position (from its FEN: without the moves before it)."""
    return chess.Board(pos.fen(), chess960=pos.is_chess960())


def legal_moves(board: chess.Board) -> list:
    """The legal moves of ``board`` as Tabula generates them."""
    return [chess.Move.from_uci(m) for m in position(board).legal_moves()]


def perft(board: chess.Board, depth: int) -> int:
    """The perft count of ``board`` to ``depth``, by Tabula's generator."""
    return position(board).perft(depth)


def engine_score(value: int, turn: chess.Color) -> chess.engine.PovScore:
    """Tabula's score for the side to move (centipawns, or a mate as ``tabula.WIN`` less the plies) as
    python-chess's."""
    plies = tabula.plies_to_end(value)
    score: chess.engine.Score
    if plies is None:
        score = chess.engine.Cp(value)
    elif value > 0:
        score = chess.engine.Mate((plies + 1) // 2)
    else:
        score = chess.engine.Mate(-(plies // 2))
    return chess.engine.PovScore(score, turn)


def analyse(board: chess.Board, engine=None, depth=None, nodes=None, time=None) -> dict:
    """Tabula's engine (a new one unless ``engine`` is given) on ``board``, within the limits given (one second
    if none), as python-chess's ``InfoDict``: ``score`` (a ``PovScore``), ``pv`` (``chess.Move``s), ``depth``,
    ``seldepth``, ``nodes``, ``time``."""
    engine = engine or tabula.chess.Engine(hash_mib=16)
    analysis = engine.analyse(position(board), depth=depth, nodes=nodes, time=time)
    info = {"pv": [chess.Move.from_uci(m) for m in analysis.pv], "nodes": analysis.nodes, "time": analysis.elapsed}
    if analysis.value is not None:
        info["score"] = engine_score(analysis.value, board.turn)
    if analysis.depth is not None:
        info["depth"] = analysis.depth
    if analysis.seldepth is not None:
        info["seldepth"] = analysis.seldepth
    return info


def best_move(board: chess.Board, engine=None, depth=None, nodes=None, time=None) -> "chess.Move | None":
    """The move Tabula's engine plays on ``board`` (``None`` once the game is over)."""
    pv = analyse(board, engine, depth, nodes, time)["pv"]
    return pv[0] if pv else None
