//! The Gomocup session driven by a scripted transcript (`tests/data/session.txt`).

use tabula_gomoku::Session;

fn matches(expected: &str, got: &str) -> bool {
    if expected == "MOVE" {
        let Some((x, y)) = got.split_once(',') else { return false };
        return x.parse::<u8>().is_ok() && y.parse::<u8>().is_ok();
    }
    // `*` matches any run of characters.
    let parts: Vec<&str> = expected.split('*').collect();
    let mut rest = got;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(part) else { return false };
            rest = r;
        } else if i == parts.len() - 1 && !part.is_empty() {
            return rest.ends_with(part);
        } else {
            let Some(at) = rest.find(part) else { return false };
            rest = &rest[at + part.len()..];
        }
    }
    parts.len() > 1 || rest.is_empty()
}

#[test]
fn transcript() {
    let script = include_str!("data/session.txt");
    let mut session = Session::new();
    let mut pending: Vec<String> = Vec::new();
    for (n, line) in script.lines().enumerate() {
        let n = n + 1;
        if let Some(input) = line.strip_prefix("> ").or_else(|| (line == ">").then_some("")) {
            assert!(pending.is_empty(), "line {n}: unexpected answers {pending:?}");
            // The manager sends CRLF; the session must accept it.
            pending = session.handle(&format!("{input}\r\n"));
            pending.retain(|l| !l.starts_with("MESSAGE"));
            pending.reverse();
        } else if let Some(expected) = line.strip_prefix("< ") {
            let got = pending.pop().unwrap_or_else(|| panic!("line {n}: expected `{expected}`, got nothing"));
            assert!(matches(expected, &got), "line {n}: expected `{expected}`, got `{got}`");
        }
    }
    assert!(pending.is_empty(), "unexpected answers at the end: {pending:?}");
    assert!(session.is_ended());
}

#[test]
fn garbage_never_panics() {
    let mut session = Session::new();
    session.handle("START 15");
    session.handle("INFO timeout_turn 20");
    for line in [
        "",
        "\r\n",
        "TURN",
        "TURN ,",
        "TURN 1,",
        "TURN 1,2,3",
        "BOARD",
        "1,2",
        "x",
        "DONE",
        "TAKEBACK",
        "INFO",
        "INFO rule",
        "RECTSTART ,",
        "START -1",
        "ÄÖ",
        "TURN 18446744073709551616,1",
    ] {
        let answer = session.handle(line);
        assert!(answer.iter().all(|l| !l.is_empty()), "{line:?} -> {answer:?}");
    }
}

#[test]
fn renju_session_never_plays_a_forbidden_point() {
    // Black (us) h8 i8 j9 j10 with white far away: j8 is a double three, forbidden under renju.
    let mut session = Session::new();
    assert_eq!(session.handle("START 15"), ["OK"]);
    session.handle("INFO rule 4");
    session.handle("INFO timeout_turn 200");
    for l in ["BOARD", "7,7,1", "8,7,1", "9,6,1", "9,5,1", "0,0,2", "14,0,2", "0,14,2", "14,14,2"] {
        assert!(session.handle(l).is_empty());
    }
    let answer = session.handle("DONE");
    assert_ne!(answer.last().unwrap(), "9,7", "{answer:?}");
}

#[test]
fn tabula_info_keys_set_the_threat_hooks() {
    let mut session = Session::new();
    assert_eq!(session.handle("START 15"), ["OK"]);
    assert!(session.handle("INFO tabula_inner_vcf 500").is_empty());
    assert!(session.handle("INFO tabula_horizon_vcf 0").is_empty());
    assert!(session.handle("INFO TABULA_FORCED_REPLIES 0").is_empty());
    let options = session.threat_options();
    assert_eq!((options.forced_replies, options.horizon_vcf_nodes, options.inner_vcf_nodes), (false, 0, 500));
    let answer = session.handle("INFO tabula_inner_vcf lots");
    assert!(answer.last().unwrap().starts_with("ERROR"), "{answer:?}");
    assert_eq!(session.threat_options().inner_vcf_nodes, 500);
    assert!(!session.threat_options().parry_four_threes);
    assert!(session.handle("INFO tabula_parry_four_threes 1").is_empty());
    assert!(session.threat_options().parry_four_threes);
    let answer = session.handle("INFO tabula_parry_four_threes yes");
    assert!(answer.last().unwrap().starts_with("ERROR"), "{answer:?}");
    assert!(session.threat_options().parry_four_threes);
    assert!(!session.threat_options().trivial_last);
    assert!(session.handle("INFO Tabula_Trivial_Last 1").is_empty());
    let options = session.threat_options();
    assert!(options.trivial_last && options.parry_four_threes && options.inner_vcf_nodes == 500, "{options:?}");
}

/// `INFO tabula_search_NAME VALUE` sets one option of the alpha-beta search; an unknown name or a bad value
/// is answered `ERROR` and changes nothing, and the engine plays on with what it was given.
#[test]
fn tabula_search_keys_set_the_search_options() {
    let mut session = Session::new();
    assert_eq!(session.handle("START 15"), ["OK"]);
    let before = session.search_options();
    assert!(!before.counter_moves && before.singular_depth.is_none());
    assert!(session.handle("INFO tabula_search_counter_moves 1").is_empty());
    assert!(session.handle("INFO tabula_search_singular_depth 7").is_empty());
    let after = session.search_options();
    assert_eq!(after, before.clone().with_counter_moves(true).with_singular_depth(Some(7)));
    for bad in ["INFO tabula_search_no_such_option 1", "INFO tabula_search_lmr sometimes"] {
        let answer = session.handle(bad);
        let line = answer.last().unwrap();
        assert!(line.starts_with("ERROR INFO: ") && line.contains("search option"), "{bad}: {answer:?}");
        assert_eq!(session.search_options(), after, "{bad}");
    }
    session.handle("INFO timeout_turn 100");
    let answer = session.handle("BEGIN");
    assert!(session.board().unwrap().parse_point(answer.last().unwrap()).is_ok(), "{answer:?}");
}

/// Bad bytes, a NUL, a 1 MiB line, CRLF and the end of input while the engine thinks, through the serving
/// harness: each bad line is answered `ERROR ...`, the next command is served, and the move is still given.
#[test]
fn bad_input_is_answered_and_serving_goes_on() {
    use tabula_protocol::server::Connection;
    let engine = Connection::open(Session::new());
    let before = b"START 15\r\nINFO timeout_turn 60000\r\nTURN 7,\xc3\x28\r\nBOARD\r\n7,7,\x001\r\n";
    engine.send_with_long_line(before, b'7', b"\r\nABOUT\r\nTURN 7,7\r\n");
    let (session, out) = engine.close();
    let lines: Vec<&str> = out.split_terminator("\r\n").collect();
    assert_eq!(lines[0], "OK");
    assert_eq!(lines[1], "ERROR line 3 is not valid UTF-8 (byte 0xc3 at column 8)");
    // The bad line inside BOARD drops the position, so the long line is read as a command.
    assert_eq!(lines[2], "ERROR line 5 holds a NUL byte at column 5");
    assert_eq!(lines[3], "ERROR line 6 is 1048576 bytes long, more than the 65536 allowed");
    assert!(lines[4].starts_with("name=\"tabula\""), "{out}");
    // The end of input came while the engine thought (a minute allowed): it stopped and answered.
    assert!(lines[5].starts_with("MESSAGE depth "), "{out}");
    let reply = lines[6];
    assert!(session.board().unwrap().parse_point(reply).is_ok(), "{out}");
    assert_eq!(session.board().unwrap().moves().len(), 2);
    assert_eq!(lines.len(), 7, "{out}");
}

/// `INFO tabula_order FILE` orders the search's moves by the file's move order; a malformed file is answered
/// `ERROR` and the order in force stays; no file goes back to the hand-set order.
#[test]
fn tabula_order_key_loads_a_move_order() {
    use tabula_gomoku::engine::eval::Weights;
    let dir = std::env::temp_dir().join(format!("tabula-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hand = dir.join("hand order.txt");
    std::fs::write(&hand, Weights::hand_order().to_text()).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "FlexThree None None\n").unwrap();

    let mut session = Session::new();
    assert!(session.order().is_none());
    assert!(session.handle(&format!("INFO tabula_order {}", hand.display())).is_empty());
    assert_eq!(session.order().as_deref(), Some(&Weights::hand_order()));
    let answer = session.handle(&format!("INFO tabula_order {}", bad.display()));
    assert!(answer.last().unwrap().starts_with("ERROR INFO tabula_order"), "{answer:?}");
    assert_eq!(session.order().as_deref(), Some(&Weights::hand_order()));
    assert_eq!(session.handle("START 15"), ["OK"]);
    assert!(session.handle("INFO timeout_turn 100").is_empty());
    assert_eq!(session.handle("TURN 7,7").len(), 2);
    assert!(session.handle("INFO tabula_order").is_empty());
    assert!(session.order().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `INFO tabula_weights FILE` evaluates with the file's weights; an unreadable or malformed file is answered
/// `ERROR` naming it and the weights in force stay; no file goes back to the embedded weights.
#[test]
fn tabula_weights_key_loads_a_weights_file() {
    use tabula_gomoku::engine::eval::{embedded_weights, Weights};
    let dir = std::env::temp_dir().join(format!("tabula-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hand = dir.join("hand set.txt");
    std::fs::write(&hand, Weights::hand_set().to_text()).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "FlexThree None None None 1 2 3\n").unwrap();

    let mut session = Session::new();
    assert_eq!(*session.weights(), embedded_weights());
    assert!(session.handle(&format!("INFO tabula_weights {}", hand.display())).is_empty());
    assert_eq!(*session.weights(), Weights::hand_set());
    for (path, says) in [(bad.clone(), "line 1"), (dir.join("missing.txt"), "cannot read")] {
        let answer = session.handle(&format!("INFO tabula_weights {}", path.display()));
        let line = answer.last().unwrap();
        assert!(
            line.starts_with("ERROR") && line.contains(says) && line.contains(&*path.to_string_lossy()),
            "{answer:?}"
        );
        assert_eq!(*session.weights(), Weights::hand_set());
    }
    // The engine still plays with them.
    assert_eq!(session.handle("START 15"), ["OK"]);
    assert!(session.handle("INFO timeout_turn 100").is_empty());
    assert_eq!(session.handle("TURN 7,7").len(), 2);
    assert!(session.handle("INFO tabula_weights").is_empty());
    assert_eq!(*session.weights(), embedded_weights());
    std::fs::remove_dir_all(&dir).unwrap();
}
