//! Strength by self-play through the Gomocup protocol: two sessions, one with more time per move, from
//! balanced openings with colours swapped. Prints the score; run with
//! `cargo test -p tabula-gomoku --release --test selfplay -- --ignored --nocapture`.

use tabula_gomoku::{Board, Rule, Session};

const OPENINGS: &[&str] = &["7,7 8,8", "7,7 8,7", "7,7 9,9", "7,7 6,9", "7,7 7,9", "7,7 9,7"];

/// Plays one game; returns 1 if `a` won, -1 if `b` won, 0 for a draw.
fn game(a: &mut Session, b: &mut Session, opening: &str, a_black: bool) -> i32 {
    for s in [&mut *a, &mut *b] {
        assert_eq!(s.handle("START 15"), ["OK"]);
    }
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    for p in board.parse_moves(opening).unwrap() {
        board.play(p).unwrap();
    }
    // Hand the opening to whoever moves next as a BOARD; the other learns it the same way.
    let sessions: [&mut Session; 2] = if a_black { [a, b] } else { [b, a] };
    let [black, white] = sessions;
    let mut last: Option<String> = None;
    let mut first = true;
    while board.winner().is_none() && !board.is_full() {
        let to_move = board.side_to_move();
        let session = if to_move == tabula_gomoku::Color::Black { &mut *black } else { &mut *white };
        let reply = if first {
            first = false;
            session.handle("BOARD");
            for (k, p) in board.moves().iter().enumerate() {
                let own = if (k % 2 == 0) == (to_move == tabula_gomoku::Color::Black) { 1 } else { 2 };
                session.handle(&format!("{},{},{own}", p.x, p.y));
            }
            session.handle("DONE")
        } else if session.board().is_some_and(|b| b.moves().len() + 1 == board.moves().len()) {
            session.handle(&format!("TURN {}", last.as_deref().unwrap()))
        } else {
            // The other session learns the position (opening included) the first time it moves.
            session.handle("BOARD");
            for (k, p) in board.moves().iter().enumerate() {
                let own = if (k % 2 == 0) == (to_move == tabula_gomoku::Color::Black) { 1 } else { 2 };
                session.handle(&format!("{},{},{own}", p.x, p.y));
            }
            session.handle("DONE")
        };
        let mv = reply.last().unwrap().clone();
        let p = board.parse_point(&mv).unwrap();
        board.play(p).unwrap();
        last = Some(mv);
    }
    match board.winner() {
        None => 0,
        Some(c) => {
            let a_color = if a_black { tabula_gomoku::Color::Black } else { tabula_gomoku::Color::White };
            if c == a_color {
                1
            } else {
                -1
            }
        }
    }
}

#[test]
#[ignore = "slow: cargo test -p tabula-gomoku --release --test selfplay -- --ignored --nocapture"]
fn longer_thinking_beats_shorter() {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for opening in OPENINGS {
        for a_black in [true, false] {
            let mut a = Session::new();
            let mut b = Session::new();
            a.handle("INFO timeout_turn 400");
            b.handle("INFO timeout_turn 100");
            match game(&mut a, &mut b, opening, a_black) {
                1 => wins += 1,
                0 => draws += 1,
                _ => losses += 1,
            }
        }
    }
    println!("400 ms vs 100 ms per move: +{wins} ={draws} -{losses}");
    assert!(wins >= losses);
}

#[test]
#[ignore = "measurement: cargo test -p tabula-gomoku --release --test selfplay -- --ignored --nocapture"]
fn nodes_per_second() {
    use tabula::search::Limits;
    let board = Board::from_moves(15, 15, Rule::Freestyle, "h8 i9 j8 h9 i7 g8").unwrap();
    let mut engine = tabula_gomoku::Engine::new(64);
    let t = engine.think(&board, &Limits::time(std::time::Duration::from_secs(2)));
    let nps = t.nodes as f64 / t.elapsed.as_secs_f64();
    println!(
        "depth {} nodes {} in {:?}: {:.0} nodes/s, best {}",
        t.depth,
        t.nodes,
        t.elapsed,
        nps,
        board.format_point(t.best.unwrap())
    );
}
