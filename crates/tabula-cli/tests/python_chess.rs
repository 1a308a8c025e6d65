//! `tabula uci` driven by python-chess (`chess.engine`), a UCI client nobody here wrote, as programs that use
//! it do: games played with `play` under a clock with pondering on (the opponent plays the expected reply
//! some of the time, so that both `ponderhit` and `stop` are sent), `analyse` with several lines, and the
//! win/draw/loss chances of `UCI_ShowWDL`. python-chess checks every move and ponder move for legality and
//! parses every `info` line; the script checks what it gets back and what was said on the wire (from
//! python-chess's own log).
//!
//! The test needs `python3` with python-chess (`pip install chess`, or Debian's `python3-chess`; `.ci/run`
//! installs one of them) and skips with a note without them.

use std::process::{Command, Stdio};

const SCRIPT: &str = r#"
import logging, sys
import chess, chess.engine

class Wire(logging.Handler):
    """The lines python-chess sends (<<) and receives (>>), from its debug log."""
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []
    def emit(self, record):
        self.lines.append(record.getMessage())

wire = Wire()
logging.getLogger("chess.engine").addHandler(wire)
logging.getLogger("chess.engine").setLevel(logging.DEBUG)

def sent(word):
    return sum(1 for l in wire.lines if ": << " + word in l)

with chess.engine.SimpleEngine.popen_uci([sys.argv[1], "uci"], timeout=60) as engine:
    for option in ["Hash", "Threads", "MultiPV", "Ponder", "UCI_ShowWDL", "UCI_AnalyseMode", "UCI_Chess960"]:
        assert option in engine.options, option
    assert engine.options["MultiPV"].max >= 3

    # A game under a clock of 10 s + 0.1 s with pondering: the opponent plays the engine's expected reply on
    # every other move when there is one (a ponder hit), another legal move otherwise (a miss).
    board = chess.Board()
    game = object()
    clock = dict(white_clock=10.0, black_clock=10.0, white_inc=0.1, black_inc=0.1)
    hit = False
    for turn in range(16):
        if board.is_game_over():
            break
        result = engine.play(board, chess.engine.Limit(**clock), ponder=True, game=game, info=chess.engine.INFO_ALL)
        assert result.move in board.legal_moves, result
        # (After a ponder hit the answer may come at once, with no new info line for this command.)
        assert hit or result.info.get("depth", 0) >= 1, result.info
        board.push(result.move)
        if board.is_game_over():
            break
        if result.ponder is not None:
            assert result.ponder in board.legal_moves, result
        if result.ponder is not None and turn % 2 == 0:
            reply = result.ponder
        else:
            # Another move where there is one (with a single legal move, the expected one is all there is).
            reply = next((m for m in board.legal_moves if m != result.ponder), result.ponder)
        # A ponder hit whenever the reply is the expected one, by choice or because it was the only move.
        hit = result.ponder is not None and reply == result.ponder
        board.push(reply)
    plies, hits, stops = len(board.move_stack), sent("ponderhit"), sent("stop")
    assert sent("go ponder") >= 4 and hits >= 2 and stops >= 2, (sent("go ponder"), hits, stops)

    # Analysis with three lines: three different moves, best first, each with its line.
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3")
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    assert len(infos) == 3, infos
    assert [i["multipv"] for i in infos] == [1, 2, 3], infos
    firsts = [i["pv"][0] for i in infos]
    assert len(set(firsts)) == 3 and all(m in board.legal_moves for m in firsts), firsts
    scores = [i["score"].white().score(mate_score=100000) for i in infos]
    assert scores == sorted(scores, reverse=True), scores
    assert infos[0]["score"].white().mate() == 1 and firsts[0] == chess.Move.from_uci("f3f7"), infos[0]

    # Win/draw/loss chances with every score.
    engine.configure({"UCI_ShowWDL": True})
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=5))
    wdl = info["wdl"].white()
    assert wdl.total() == 1000 and wdl.draws > 0, wdl
    info = engine.analyse(chess.Board("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), chess.engine.Limit(depth=5))
    assert info["wdl"].white().wins > 900, info

    # Searching only some moves, and positions with the game over (mate, stalemate).
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=4), root_moves=[chess.Move.from_uci("a2a3")])
    assert info["pv"][0] == chess.Move.from_uci("a2a3"), info
    # (`bestmove (none)`, which python-chess reads as no move.)
    for over in ["7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]:
        assert engine.play(chess.Board(over), chess.engine.Limit(depth=3)).move is None, over
    # Drawn by rule with moves left (the fifty-move rule, which python-chess's board grants when claimed, and a
    # dead position): the engine still plays a legal move, for the GUI to declare the draw or play on.
    for drawn in ["8/K7/8/4Q3/8/8/3k4/8 b - - 100 51", "8/8/8/4k3/8/8/3K4/8 w - - 0 51"]:
        board = chess.Board(drawn)
        assert board.can_claim_fifty_moves() or board.is_insufficient_material(), drawn
        move = engine.play(board, chess.engine.Limit(nodes=1000)).move
        assert move in board.legal_moves, (drawn, move)

    # One answer per search (the last ponder search of the game was stopped by the next command): as many
    # bestmoves as go commands.
    assert sum(1 for l in wire.lines if ": >> bestmove" in l) == sent("go "), wire.lines[-20:]

print("ok:", plies, "plies,", hits, "ponder hits,", stops, "stops")
"#;

/// `python3` if it can import python-chess's engine module.
fn python_with_chess() -> Option<&'static str> {
    let ok = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some("python3")
}

#[test]
fn python_chess_plays_ponders_and_analyses() {
    let Some(python) = python_with_chess() else {
        eprintln!("note: python3 with python-chess (pip install chess) not found; skipping the python-chess test");
        return;
    };
    let out = Command::new(python).args(["-c", SCRIPT, env!("CARGO_BIN_EXE_tabula")]).output().expect("python3 runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "python-chess script failed:\n{stdout}\n{stderr}");
    assert!(stdout.starts_with("ok:"), "{stdout}\n{stderr}");
    eprintln!("{}", stdout.trim());
}
