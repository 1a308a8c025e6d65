//! A server on 127.0.0.1 for the tests, with every game, and helpers to talk to it.
#![allow(dead_code)]

use serde_json::Value;
use std::net::SocketAddr;
use tabula_web::{Catalog, Limits};

/// Every game, with the settings `tabula serve` offers.
pub fn catalog() -> Catalog {
    Catalog::new()
        .with::<tabula_tictactoe::TicTacToe>(&[])
        .with::<tabula_connect4::Standard>(&[])
        .with::<tabula_chess::Position>(&[])
        .with::<tabula_gomoku::Board>(&[("size", &["15", "19", "9"]), ("rule", &["freestyle", "standard", "renju"])])
        .with::<tabula_go::Position>(&[("size", &["9", "13", "19"]), ("komi", &["7", "6.5", "0.5"])])
        .with::<tabula_xiangqi::Position>(&[])
}

/// Serves on a free port of 127.0.0.1 on the current runtime; returns the base address.
pub async fn start(limits: Limits) -> String {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(tabula_web::serve(listener, catalog(), limits));
    format!("http://{addr}")
}

/// Serves on a thread of its own with its own runtime (for tests that do not run on one); returns the base
/// address.
pub fn start_on_thread(limits: Limits) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        tabula_web::run(SocketAddr::from(([127, 0, 0, 1], 0)), catalog(), limits, |addr| {
            tx.send(addr).unwrap();
        })
        .unwrap();
    });
    format!("http://{}", rx.recv().unwrap())
}

/// The server-sent events of one stream, `(event, data)`, read until `done` or `failed` or the end.
pub async fn events(mut response: reqwest::Response) -> Vec<(String, Value)> {
    let mut text = String::new();
    let mut events = Vec::new();
    while let Some(chunk) = response.chunk().await.unwrap() {
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            let mut name = String::from("message");
            let mut data = String::new();
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event: ") {
                    name = v.to_string();
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data.push_str(v);
                }
            }
            if data.is_empty() {
                continue; // a keep-alive comment
            }
            let value: Value = serde_json::from_str(&data).unwrap();
            let last = name == "done" || name == "failed";
            events.push((name, value));
            if last {
                return events;
            }
        }
    }
    events
}
