//! Every endpoint over HTTP against 127.0.0.1, bad requests included, and a bounded load test.

mod common;

use common::{events, start};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;
use tabula_web::Limits;

async fn create(client: &Client, base: &str, body: Value) -> Value {
    let response = client.post(format!("{base}/api/sessions")).json(&body).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED, "{body}");
    response.json().await.unwrap()
}

async fn play(client: &Client, base: &str, id: u64, mv: &str) -> reqwest::Response {
    client.post(format!("{base}/api/sessions/{id}/move")).json(&json!({ "move": mv })).send().await.unwrap()
}

/// The error answered, after checking its status.
async fn error(response: reqwest::Response, status: StatusCode) -> String {
    assert_eq!(response.status(), status);
    let body: Value = response.json().await.unwrap();
    body["error"].as_str().unwrap().to_string()
}

fn xor_of(features: &Value) -> u64 {
    features.as_array().unwrap().iter().fold(0, |k, f| k ^ u64::from_str_radix(f["key"].as_str().unwrap(), 16).unwrap())
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    let page = client.get(format!("{base}/")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("app.js"));
    for (path, kind) in [("/app.js", "text/javascript; charset=utf-8"), ("/style.css", "text/css; charset=utf-8")] {
        let asset = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(asset.status(), StatusCode::OK);
        assert_eq!(asset.headers()["content-type"], kind);
    }
    let games: Value = client.get(format!("{base}/api/games")).send().await.unwrap().json().await.unwrap();
    let names: Vec<_> = games.as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["tictactoe", "connect4", "chess", "gomoku", "go", "xiangqi"]);
    for language in ["en", "zh-CN"] {
        let table = client.get(format!("{base}/i18n/{language}.json")).send().await.unwrap();
        assert_eq!(table.status(), StatusCode::OK);
        assert_eq!(table.headers()["content-type"], "application/json; charset=utf-8");
    }
    assert_eq!(client.get(format!("{base}/i18n/fr.json")).send().await.unwrap().status(), StatusCode::NOT_FOUND);
}

/// The tables as the page loads them.
async fn tables(client: &Client, base: &str) -> [Value; 2] {
    let get = |language: &str| client.get(format!("{base}/i18n/{language}.json")).send();
    [get("en").await.unwrap().json().await.unwrap(), get("zh-CN").await.unwrap().json().await.unwrap()]
}

/// The page names each game, setting and worded choice by a key built from the catalogue's ids (`game.chess`):
/// both tables have every one.
#[tokio::test]
async fn every_game_setting_and_choice_the_page_offers_has_its_name_in_both_tables() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    let games: Value = client.get(format!("{base}/api/games")).send().await.unwrap().json().await.unwrap();
    let mut keys = Vec::new();
    for game in games.as_array().unwrap() {
        keys.push(format!("game.{}", game["name"].as_str().unwrap()));
        for setting in game["settings"].as_array().unwrap() {
            keys.push(format!("setting.{}", setting["name"].as_str().unwrap()));
            for choice in setting["choices"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()) {
                // Numbers (sizes, komi) are shown as they are.
                if choice.parse::<f64>().is_err() {
                    keys.push(format!("choice.{choice}"));
                }
            }
        }
    }
    assert!(keys.len() > 10, "{keys:?}");
    for table in tables(&client, &base).await {
        let missing: Vec<_> = keys.iter().filter(|k| table[k.as_str()].as_str().is_none_or(str::is_empty)).collect();
        assert!(missing.is_empty(), "missing {missing:?}");
    }
    let [en, zh] = tables(&client, &base).await;
    assert_eq!((&en["game.tictactoe"], &zh["game.tictactoe"]), (&json!("Tic-tac-toe"), &json!("井字棋")));
    assert_eq!((&en["game.xiangqi"], &zh["game.xiangqi"]), (&json!("Xiangqi"), &json!("中国象棋")));
}

/// The words the server sent as `value`, as the table writes them (the page's `say`).
fn say(table: &Value, words: &Value) -> String {
    if let Some(text) = words["text"].as_str() {
        return text.to_string();
    }
    let key = words["key"].as_str().unwrap_or_else(|| panic!("no words: {words}"));
    let mut text = table[key].as_str().unwrap_or_else(|| panic!("`{key}` is in no table")).to_string();
    if let Some(args) = words["args"].as_object() {
        for (name, value) in args {
            let filled = say(table, value);
            text = text.replace(&format!("{{{name}}}"), &filled).replace(&format!("{{@{name}}}"), &filled);
        }
    }
    text
}

/// Every English text of a state, a search report or an error comes with words that the English table writes
/// back as the same text, and that are a phrase of the tables (not text left as it was), unless a number.
fn check_words(en: &Value, english: &Value, words: &Value, what: &str) {
    let english = english.as_str().unwrap_or_else(|| panic!("{what}: {english}"));
    assert_eq!(
        say(en, words).split_whitespace().collect::<Vec<_>>(),
        english.split_whitespace().collect::<Vec<_>>(),
        "{what}"
    );
    // A bare number (a score without a unit) needs no words.
    let number = english.trim_start_matches('+').parse::<f64>().is_ok();
    assert!(number || words["key"].is_string(), "{what}: {english:?} is no phrase of the tables: {words}");
}

#[tokio::test]
async fn every_text_of_every_game_comes_as_words_of_the_tables() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    let [en, _] = tables(&client, &base).await;
    // Lines that end the game, but the last.
    let lines: [(&str, Value, &[&str]); 8] = [
        ("tictactoe", json!({}), &["1", "4", "2", "5", "3"]),
        ("connect4", json!({}), &["4", "4", "3", "3", "2", "2", "1"]),
        ("chess", json!({}), &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]),
        ("chess", json!({ "position": "7k/8/8/5Q2/8/8/8/6K1 w - - 0 1" }), &["Qg6"]),
        ("gomoku", json!({ "size": 9 }), &["e5", "a1", "e6", "a2", "e4", "a3", "e3", "a4", "e7"]),
        ("go", json!({ "size": 9 }), &["e5", "c3", "pass", "pass"]),
        ("xiangqi", json!({ "position": "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1" }), &["b1b9"]),
        ("xiangqi", json!({}), &["h2e2", "h9g7", "h0g2", "i9h9"]),
    ];
    let ending = lines.len() - 1;
    for (n, (game, setup, line)) in lines.into_iter().enumerate() {
        let mut body = setup.clone();
        body["game"] = json!(game);
        let mut state = create(&client, &base, body).await;
        let id = state["id"].as_u64().unwrap();
        for mv in line {
            check_words(&en, &state["side"], &state["side_words"], game);
            check_words(&en, &json!(state["position_help"]), &state["position_help_words"], game);
            for feature in state["features"].as_array().unwrap() {
                check_words(&en, &feature["name"], &feature["words"], game);
            }
            let response = play(&client, &base, id, mv).await;
            assert_eq!(response.status(), StatusCode::OK, "{game}: {mv}");
            state = response.json().await.unwrap();
            let played = state["history"].as_array().unwrap().last().unwrap().clone();
            for feature in played["xor_out"].as_array().unwrap().iter().chain(played["xor_in"].as_array().unwrap()) {
                check_words(&en, &feature["name"], &feature["words"], game);
            }
            if *mv == "pass" {
                check_words(&en, &played["text"], &played["words"], game);
            }
        }
        if n == ending {
            assert!(state["result"].is_null());
            continue;
        }
        check_words(&en, &state["result"], &state["result_words"], game);
        // A move after the end says why in words too.
        let response = play(&client, &base, id, line[0]).await;
        let error: Value = response.json().await.unwrap();
        check_words(&en, &error["error"], &error["words"], game);
    }
    // Xiangqi's moves are written in Chinese and in ICCS coordinates.
    let state = create(&client, &base, json!({ "game": "xiangqi" })).await;
    let id = state["id"].as_u64().unwrap();
    let state: Value = play(&client, &base, id, "h2e2").await.json().await.unwrap();
    assert_eq!(
        (&state["history"][0]["text"], &state["history"][0]["coordinate"]),
        (&json!("炮二平五"), &json!("h2e2"))
    );
    // Searches: the score, the unit and the notes.
    for (game, query) in [
        ("chess", "depth=3"),
        ("connect4", "depth=4"),
        ("gomoku", "depth=2"),
        ("go", "time_ms=200"),
        ("xiangqi", "depth=2"),
    ] {
        let id = create(&client, &base, json!({ "game": game })).await["id"].as_u64().unwrap();
        let response = client.get(format!("{base}/api/sessions/{id}/search?{query}")).send().await.unwrap();
        let events = common::events(response).await;
        let (name, done) = events.last().unwrap();
        assert_eq!(name, "done");
        check_words(&en, &done["score"], &done["score_words"], game);
        check_words(&en, &json!(done["unit"]), &done["unit_words"], game);
        for (note, words) in done["notes"].as_array().unwrap().iter().zip(done["notes_words"].as_array().unwrap()) {
            check_words(&en, note, words, game);
        }
        assert_eq!(done["best_move"]["text"], done["best"], "{game}");
    }
}

/// The refusals a person meets typing a position in the load box, in every game, come as words of the tables.
#[tokio::test]
async fn errors_come_as_words_of_the_tables() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    let [en, _] = tables(&client, &base).await;
    let bad = [
        ("tictactoe", "55"),
        ("tictactoe", "5x"),
        ("tictactoe", "xxxxooooo"),
        ("tictactoe", "1234567 8"),
        ("connect4", "4444444"),
        ("connect4", "48"),
        ("chess", "8/8 w"),
        ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
        ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN9 w KQkq - 0 1"),
        ("chess", "8/8/8/8/8/8/8/K7 w - - 0 1"),
        ("chess", "4k3/8/8/8/8/8/8/4K2R w Qk - 0 1"),
        ("chess", "4k3/8/8/8/8/8/8/4K3 w - e3 0 1"),
        ("gomoku", "h8 h8"),
        ("gomoku", "z99"),
        ("gomoku", "h8 q"),
        ("go", "e5 e5"),
        ("go", "z9"),
        ("go", "(;SZ[9];B[ee]x)"),
        ("go", "(;SZ[40])"),
        ("xiangqi", "9/9 w"),
        ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1"),
        ("xiangqi", "4k4/9/9/9/9/9/9/9/9/9 w - - 0 1"),
    ];
    for (game, position) in bad {
        let response = client
            .post(format!("{base}/api/sessions"))
            .json(&json!({ "game": game, "position": position }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{game}: {position}");
        let error: Value = response.json().await.unwrap();
        check_words(&en, &error["error"], &error["words"], game);
        // The game's reason is a phrase too, not English left as it was.
        let reason = &error["words"]["args"]["reason"];
        assert!(reason["key"].is_string(), "{game}: {position}: {error}");
    }
    // The server's own refusals.
    let id = create(&client, &base, json!({ "game": "chess" })).await["id"].as_u64().unwrap();
    for response in [
        client.post(format!("{base}/api/sessions/{id}/undo")).send().await.unwrap(),
        client.post(format!("{base}/api/sessions/99/undo")).send().await.unwrap(),
        client.get(format!("{base}/api/sessions/{id}/search?depth=99")).send().await.unwrap(),
        client.post(format!("{base}/api/sessions")).json(&json!({ "game": "checkers" })).send().await.unwrap(),
    ] {
        let error: Value = response.json().await.unwrap();
        check_words(&en, &error["error"], &error["words"], "server");
    }
}

/// In every game, on every move: the key is the XOR of the position's features, and the keys XORed out and in
/// take the key before the move to the key after it.
#[tokio::test]
async fn every_game_plays_and_its_keys_add_up() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    for game in ["tictactoe", "connect4", "chess", "gomoku", "go", "xiangqi"] {
        let mut state = create(&client, &base, json!({ "game": game })).await;
        let id = state["id"].as_u64().unwrap();
        let cells = &state["cells"];
        let count = cells["width"].as_u64().unwrap() * cells["height"].as_u64().unwrap();
        assert_eq!(cells["marks"].as_array().unwrap().len() as u64, count, "{game}");
        for ply in 0..6 {
            let moves = state["moves"].as_array().unwrap();
            // A move drawn on the board, not always the first (Go's first is not a pass here).
            let mv = moves.iter().filter(|m| m["to"].is_u64()).nth(ply % 3).unwrap().clone();
            let to = mv["to"].as_u64().unwrap();
            assert!(to < count, "{game}: {mv}");
            let key_before = state["key"].as_str().unwrap().to_string();
            let response = play(&client, &base, id, mv["text"].as_str().unwrap()).await;
            assert_eq!(response.status(), StatusCode::OK);
            state = response.json().await.unwrap();
            let key = u64::from_str_radix(state["key"].as_str().unwrap(), 16).unwrap();
            assert_eq!(xor_of(&state["features"]), key, "{game}: the features make the key");
            let played = state["history"].as_array().unwrap().last().unwrap();
            assert_eq!(played["key_before"], key_before.as_str());
            assert_eq!(played["key_after"], state["key"]);
            assert_eq!(played["adds_up"], true, "{game}: {played}");
            let before = u64::from_str_radix(&key_before, 16).unwrap();
            assert_eq!(before ^ xor_of(&played["xor_out"]) ^ xor_of(&played["xor_in"]), key, "{game}");
            assert!(!played["xor_in"].as_array().unwrap().is_empty(), "{game}: a move adds a feature");
            // The mark now stands where the move was drawn.
            assert_ne!(state["cells"]["marks"][to as usize], "", "{game}: {mv}");
        }
        let response = client.post(format!("{base}/api/sessions/{id}/undo")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let undone: Value = response.json().await.unwrap();
        assert_eq!(undone["history"].as_array().unwrap().len(), 5);
        let again: Value = client.get(format!("{base}/api/sessions/{id}")).send().await.unwrap().json().await.unwrap();
        assert_eq!(again["key"], undone["key"]);
        // The position written reads back to the same key.
        let copy = create(&client, &base, json!({ "game": game, "position": again["position"] })).await;
        assert_eq!(copy["key"], again["key"], "{game}: {}", again["position"]);
        let response = client.delete(format!("{base}/api/sessions/{id}")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
    }
}

#[tokio::test]
async fn two_move_orders_reaching_one_position_give_one_key() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    for (game, one, other) in
        [("chess", ["Nf3", "Nf6", "Nc3"], ["Nc3", "Nf6", "Nf3"]), ("connect4", ["1", "2", "3"], ["3", "2", "1"])]
    {
        let mut keys = Vec::new();
        for order in [one, other] {
            let id = create(&client, &base, json!({ "game": game })).await["id"].as_u64().unwrap();
            let mut state = Value::Null;
            for mv in order {
                state = play(&client, &base, id, mv).await.json().await.unwrap();
            }
            keys.push(state["key"].clone());
        }
        assert_eq!(keys[0], keys[1], "{game}");
    }
    // The Polyglot key of 1. e4, as published with the format.
    let id = create(&client, &base, json!({ "game": "chess" })).await["id"].as_u64().unwrap();
    let state: Value = play(&client, &base, id, "e4").await.json().await.unwrap();
    assert_eq!(state["key"], "823c9b50fd114196");
}

/// Castling rights and the en-passant file are features too: the format's published keys after 1. e4 d5 2. e5
/// f5 and then 3. Ke2, which gives up both of White's rights and the en-passant file.
#[tokio::test]
async fn castling_and_en_passant_are_features_of_the_chess_key() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let state = create(&client, &base, json!({ "game": "chess", "position": fen })).await;
    assert_eq!(state["key"], "22a48b5a8e47ff78");
    assert_eq!(xor_of(&state["features"]), 0x22a4_8b5a_8e47_ff78);
    let id = state["id"].as_u64().unwrap();
    let state: Value = play(&client, &base, id, "Ke2").await.json().await.unwrap();
    assert_eq!(state["key"], "652a607ca3f242c1");
    let played = &state["history"][0];
    let names = |list: &Value| {
        list.as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    let mut out = names(&played["xor_out"]);
    out.sort();
    assert_eq!(
        out,
        [
            "White may castle king side",
            "White may castle queen side",
            "White to move",
            "en passant on the f-file",
            "white king on e1"
        ]
    );
    assert_eq!(names(&played["xor_in"]), ["white king on e2"]);
}

#[tokio::test]
async fn variants_and_positions_are_chosen_at_creation() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    let go = create(&client, &base, json!({ "game": "go", "size": 13, "komi": 6.5 })).await;
    assert_eq!(go["cells"]["width"], 13);
    let renju =
        create(&client, &base, json!({ "game": "gomoku", "size": 9, "rule": "renju", "position": "e5 e6" })).await;
    assert_eq!(renju["cells"]["width"], 9);
    assert_eq!(renju["history"].as_array().unwrap().len(), 0);
    assert_eq!(renju["side"], "Black");
    let fen = "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1";
    let chess = create(&client, &base, json!({ "game": "chess", "position": fen })).await;
    assert_eq!(chess["position"], fen);
    let over = create(&client, &base, json!({ "game": "tictactoe", "position": "1234567" })).await;
    assert!(over["result"].is_string(), "{over}");
    assert_eq!(over["moves"].as_array().unwrap().len(), 0);
}

/// Go: the point a ko forbids is singled out with why, and is not among the legal moves.
#[tokio::test]
async fn the_point_a_ko_forbids_is_marked_and_explained() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    // White's D4 takes the black stone on E4; Black may not take back at once.
    let state = create(&client, &base, json!({ "game": "go", "position": "c4 e5 d5 f4 d3 e3 e4 d4" })).await;
    let e4 = (9 - 1 - 3) * 9 + 4;
    let notes = state["cells"]["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!((&notes[0]["cell"], &notes[0]["why"]), (&json!(e4), &json!("E4 retakes the ko")));
    // Why, as words the page writes in its language.
    assert_eq!(notes[0]["words"], json!({ "key": "said.go.ko", "args": { "point": { "text": "E4" } } }));
    assert!(state["moves"].as_array().unwrap().iter().all(|m| m["to"] != e4), "E4 is not legal");
    assert_eq!(state["cells"]["marks"][e4], "");
}

#[tokio::test]
async fn bad_requests_get_a_4xx_that_says_what_is_wrong() {
    let base = start(Limits { max_body: 1024, ..Limits::default() }).await;
    let client = Client::new();
    let post = |path: &str| client.post(format!("{base}{path}"));
    let cases = [
        (
            post("/api/sessions").json(&json!({ "game": "checkers" })),
            StatusCode::BAD_REQUEST,
            "unknown game `checkers`",
        ),
        (
            post("/api/sessions").json(&json!({ "game": "chess", "size": 9 })),
            StatusCode::BAD_REQUEST,
            "chess has no size",
        ),
        (
            post("/api/sessions").json(&json!({ "game": "chess", "position": "8/8 w" })),
            StatusCode::BAD_REQUEST,
            "bad position",
        ),
        (post("/api/sessions").json(&json!({ "game": "go", "size": 40 })), StatusCode::BAD_REQUEST, "size 40"),
        (
            post("/api/sessions").json(&json!({ "gam": "chess" })),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown field `gam`",
        ),
        (post("/api/sessions").json(&json!({ "game": 7 })), StatusCode::UNPROCESSABLE_ENTITY, "invalid type"),
        (
            post("/api/sessions").header("content-type", "application/json").body("{\"game\":"),
            StatusCode::BAD_REQUEST,
            "EOF",
        ),
        (post("/api/sessions").body("{\"game\":\"chess\"}"), StatusCode::UNSUPPORTED_MEDIA_TYPE, "Content-Type"),
        (
            post("/api/sessions").json(&json!({ "game": "go", "position": "x".repeat(4096) })),
            StatusCode::PAYLOAD_TOO_LARGE,
            "length limit",
        ),
        (post("/api/sessions/99/move").json(&json!({ "move": "e4" })), StatusCode::NOT_FOUND, "no session 99"),
        (post("/api/sessions/abc/undo"), StatusCode::BAD_REQUEST, "a session id is a number"),
        (client.get(format!("{base}/api/nothing")), StatusCode::NOT_FOUND, "nothing at /api/nothing"),
        (client.put(format!("{base}/api/sessions")), StatusCode::METHOD_NOT_ALLOWED, "does not take that method"),
    ];
    for (request, status, message) in cases {
        let text = error(request.send().await.unwrap(), status).await;
        assert!(text.contains(message), "{text:?} should say {message:?}");
    }
    // Bad requests about a session that exists.
    let id = create(&client, &base, json!({ "game": "chess" })).await["id"].as_u64().unwrap();
    let text = error(play(&client, &base, id, "e5").await, StatusCode::BAD_REQUEST).await;
    assert!(text.starts_with("`e5` is not a legal move here"), "{text}");
    let text = error(post(&format!("/api/sessions/{id}/undo")).send().await.unwrap(), StatusCode::BAD_REQUEST).await;
    assert_eq!(text, "no move to take back");
    for (query, message) in [
        ("time_ms=0", "time_ms must be from 1 to 10000"),
        ("time_ms=20000", "time_ms must be from 1 to 10000"),
        ("depth=0", "depth must be from 1 to 64"),
        ("depth=-1", "depth"),
        ("table=maybe", "table"),
        ("colour=white", "unknown field `colour`"),
    ] {
        let response = client.get(format!("{base}/api/sessions/{id}/search?{query}")).send().await.unwrap();
        let text = error(response, StatusCode::BAD_REQUEST).await;
        assert!(text.contains(message), "{query}: {text}");
    }
    let text = error(
        post(&format!("/api/sessions/{id}/compare")).json(&json!({})).send().await.unwrap(),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(text.contains("missing field `depth`"), "{text}");
    // The server still serves.
    let state: Value = client.get(format!("{base}/api/sessions/{id}")).send().await.unwrap().json().await.unwrap();
    assert_eq!(state["side"], "White");
    // A finished game has nothing to search and takes no moves.
    let over =
        create(&client, &base, json!({ "game": "tictactoe", "position": "1234567" })).await["id"].as_u64().unwrap();
    let response = client.get(format!("{base}/api/sessions/{over}/search")).send().await.unwrap();
    assert_eq!(error(response, StatusCode::BAD_REQUEST).await, "the game is over");
    let text = error(play(&client, &base, over, "9").await, StatusCode::BAD_REQUEST).await;
    assert!(text.contains("the game is over"), "{text}");
}

#[tokio::test]
async fn a_search_streams_each_iteration_then_its_result() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    let id = create(&client, &base, json!({ "game": "connect4", "position": "4444" })).await["id"].as_u64().unwrap();
    let response = client.get(format!("{base}/api/sessions/{id}/search?depth=10")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let events = events(response).await;
    let iterations: Vec<_> = events.iter().filter(|(name, _)| name == "iteration").map(|(_, v)| v).collect();
    let depths: Vec<u64> = iterations.iter().map(|v| v["depth"].as_u64().unwrap()).collect();
    assert_eq!(depths, (1..=10).collect::<Vec<_>>());
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done");
    assert_eq!(done["depth"], 10);
    let best = done["best"].as_str().unwrap();
    assert_eq!(done["pv"][0]["text"], best);
    assert!(done["table"]["probes"].as_u64().unwrap() > 0 && done["nodes"].as_u64().unwrap() > 0);
    assert!(iterations.iter().chain([&done]).all(|v| v["hashfull"].as_u64().is_some_and(|h| h <= 1000)), "{done}");
    assert!(!done["score"].as_str().unwrap().is_empty());
    // The engine's move is legal: the page plays it.
    assert_eq!(play(&client, &base, id, best).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn one_search_per_session_and_stop_ends_it() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    let id = create(&client, &base, json!({ "game": "chess" })).await["id"].as_u64().unwrap();
    let long = client.get(format!("{base}/api/sessions/{id}/search?time_ms=10000")).send().await.unwrap();
    let searching: Value = client.get(format!("{base}/api/sessions/{id}")).send().await.unwrap().json().await.unwrap();
    assert_eq!(searching["searching"], true);
    let second = client.get(format!("{base}/api/sessions/{id}/search")).send().await.unwrap();
    assert!(error(second, StatusCode::CONFLICT).await.contains("a search is running"));
    assert_eq!(
        error(play(&client, &base, id, "e4").await, StatusCode::CONFLICT).await,
        "a search is running in this session; stop it first"
    );
    let stopped: Value =
        client.post(format!("{base}/api/sessions/{id}/stop")).send().await.unwrap().json().await.unwrap();
    assert_eq!(stopped["stopped"], true);
    let events = tokio::time::timeout(Duration::from_secs(5), events(long)).await.expect("the search stops");
    let (name, done) = events.last().unwrap();
    assert_eq!(name, "done");
    assert!(done["elapsed_ms"].as_f64().unwrap() < 9000.0, "{done}");
    // The session is free again once the search has answered.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(play(&client, &base, id, "e4").await.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_table_saves_nodes_on_the_same_search() {
    let base = start(Limits::default()).await;
    let client = Client::new();
    for (game, position, depth) in [("connect4", "", 10), ("chess", "", 5), ("tictactoe", "", 9), ("xiangqi", "", 4)] {
        let id = create(&client, &base, json!({ "game": game, "position": position })).await["id"].as_u64().unwrap();
        let response = client
            .post(format!("{base}/api/sessions/{id}/compare"))
            .json(&json!({ "depth": depth }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let comparison: Value = response.json().await.unwrap();
        let (with, without) = (&comparison["with_table"], &comparison["without_table"]);
        assert_eq!((&with["depth"], &without["depth"]), (&json!(depth), &json!(depth)), "{game}: {comparison}");
        let (a, b) = (with["nodes"].as_u64().unwrap(), without["nodes"].as_u64().unwrap());
        assert!(a < b, "{game}: {a} nodes with the table, {b} without");
        assert_eq!(without["table"]["probes"], 0, "{game}: the table is off");
    }
    // Go's Monte Carlo search has no table and no depths to compare.
    let id = create(&client, &base, json!({ "game": "go" })).await["id"].as_u64().unwrap();
    let response = client
        .post(format!("{base}/api/sessions/{id}/compare"))
        .json(&json!({ "depth": 1, "time_ms": 100 }))
        .send()
        .await
        .unwrap();
    assert!(error(response, StatusCode::CONFLICT).await.contains("nothing to compare"));
}

#[tokio::test]
async fn the_least_recently_used_session_makes_room() {
    let base = start(Limits { max_sessions: 3, ..Limits::default() }).await;
    let client = Client::new();
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(create(&client, &base, json!({ "game": "tictactoe" })).await["id"].as_u64().unwrap());
    }
    // The first is used again, so the second is the least recently used.
    assert_eq!(play(&client, &base, ids[0], "5").await.status(), StatusCode::OK);
    create(&client, &base, json!({ "game": "tictactoe" })).await;
    let gone = client.get(format!("{base}/api/sessions/{}", ids[1])).send().await.unwrap();
    assert_eq!(error(gone, StatusCode::NOT_FOUND).await, format!("no session {}", ids[1]));
    for id in [ids[0], ids[2]] {
        assert_eq!(client.get(format!("{base}/api/sessions/{id}")).send().await.unwrap().status(), StatusCode::OK);
    }
}

/// Forty clients at once, each creating a session and starting a search, on a server with two search slots:
/// every search waits its turn and answers `done`, and the server serves afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_clients_searching_at_once_are_all_answered() {
    let limits = Limits { max_searches: 2, ..Limits::default() };
    let base = start(limits).await;
    let client = Client::new();
    let games = ["tictactoe", "connect4", "chess", "gomoku", "go"];
    let tasks: Vec<_> = (0..40)
        .map(|i| {
            let (client, base) = (client.clone(), base.clone());
            tokio::spawn(async move {
                let id = create(&client, &base, json!({ "game": games[i % 5] })).await["id"].as_u64().unwrap();
                let search = client.get(format!("{base}/api/sessions/{id}/search?time_ms=100")).send().await.unwrap();
                assert_eq!(search.status(), StatusCode::OK);
                events(search).await.last().unwrap().0.clone()
            })
        })
        .collect();
    for task in tasks {
        let last = tokio::time::timeout(Duration::from_secs(60), task).await.expect("answered in time").unwrap();
        assert_eq!(last, "done");
    }
    let games: Value = client.get(format!("{base}/api/games")).send().await.unwrap().json().await.unwrap();
    assert_eq!(games.as_array().unwrap().len(), 6);
}
