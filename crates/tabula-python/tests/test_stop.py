"""Stopping: a search stopped from another thread returns what it found; a Ctrl-C (a real SIGINT) ends a long
search cleanly, raised as KeyboardInterrupt, and the engine searches again afterwards."""

import os
import signal
import threading
import time

import tabula
from tabula.examples.gobang import Gobang


def later(seconds, action):
    timer = threading.Timer(seconds, action)
    timer.start()
    return timer


def test_a_stop_from_another_thread_ends_an_engines_search():
    engine = tabula.chess.Engine(hash_mib=16)
    pos = tabula.chess.Position()
    later(0.5, engine.stop)
    start = time.monotonic()
    analysis = engine.analyse(pos, time=60)
    assert time.monotonic() - start < 10
    assert analysis.best in pos.legal_moves() and analysis.depth >= 1
    assert engine.analyse(pos, depth=3).depth == 3


def test_a_stop_from_another_thread_ends_a_python_games_search():
    searcher = tabula.Searcher()
    game = Gobang.from_moves("h8 i9 h9 h7 i8 g8")
    later(1.0, searcher.stop)
    start = time.monotonic()
    result = searcher.search(game)
    assert time.monotonic() - start < 20
    assert result.best_move in game.legal_moves() and result.depth >= 1


def test_other_python_threads_run_while_an_engine_searches():
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.01)

    ticker = threading.Thread(target=tick)
    ticker.start()
    tabula.xiangqi.Engine(hash_mib=8).analyse(tabula.xiangqi.Position(), time=0.5)
    done.set()
    ticker.join()
    assert len(ticks) > 10  # the GIL was released


def interrupt_soon(seconds):
    return later(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))


def test_ctrl_c_ends_a_long_engine_search_cleanly():
    engine = tabula.chess.Engine(hash_mib=16)
    pos = tabula.chess.Position()
    interrupt_soon(0.5)
    start = time.monotonic()
    try:
        engine.analyse(pos, time=60)
        raise AssertionError("the search was not interrupted")
    except KeyboardInterrupt:
        pass
    assert time.monotonic() - start < 10
    assert engine.analyse(pos, depth=4).depth == 4


def test_ctrl_c_ends_a_long_python_game_search_cleanly():
    game = Gobang.from_moves("h8 i9 h9 h7 i8 g8")
    key = game.key()
    searcher = tabula.Searcher()
    interrupt_soon(1.0)
    start = time.monotonic()
    try:
        searcher.search(game)
        raise AssertionError("the search was not interrupted")
    except KeyboardInterrupt:
        pass
    assert time.monotonic() - start < 20
    assert game.key() == key and len(game.history) == 6
    assert searcher.search(game, depth=2).depth == 2
