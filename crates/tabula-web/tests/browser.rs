//! The page in a real browser: Debian's `chromium` driven through `chromedriver` (WebDriver) plays a Connect Four
//! game and a chess opening by clicks, sees the engine answer, the search panel fill and the table comparison
//! appear. Each test skips with a note when Chromium or its driver is not installed (`.ci/run` installs them).
#![cfg(unix)]

mod common;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tabula_web::Limits;

/// A program on the `PATH`.
fn program(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?.to_str()?.split(':').map(|dir| PathBuf::from(dir).join(name)).find(|p| p.is_file())
}

/// A running `chromedriver` in a process group of its own, killed with the browsers it started when dropped
/// (so that a failing test leaves no browser behind).
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Chromium under WebDriver, or `None` with a note when either is missing.
async fn browser() -> Option<(Client, Driver)> {
    let (Some(chromium), Some(chromedriver)) = (program("chromium"), program("chromedriver")) else {
        eprintln!("note: chromium or chromedriver is not installed; the browser tests skip (apt-get install chromium chromium-driver)");
        return None;
    };
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(chromedriver)
        .process_group(0)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver { child, port };
    let capabilities = json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1100"]
        }
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut builder = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        builder.capabilities(capabilities.as_object().unwrap().clone());
        match builder.connect(&format!("http://127.0.0.1:{}", driver.port)).await {
            Ok(client) => return Some((client, driver)),
            Err(e) if Instant::now() > deadline => panic!("chromedriver does not answer: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Waits up to 20 seconds for the text of the first element matching `css` to satisfy `ok`; returns it.
async fn wait_text(client: &Client, css: &str, ok: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last = String::new();
    while Instant::now() < deadline {
        if let Ok(element) = client.find(Locator::Css(css)).await {
            last = element.text().await.unwrap_or_default();
            if ok(&last) {
                return last;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("`{css}` never showed what was waited for; last text: {last:?}");
}

/// The moves of the move list, in order (read in one script call: the list is redrawn on every move).
async fn moves(client: &Client) -> Vec<String> {
    let script = "return Array.from(document.querySelectorAll('#moves li')).map((li) => li.textContent).join(' ')";
    let text = client.execute(script, vec![]).await.unwrap();
    text.as_str().unwrap_or_default().split_whitespace().map(String::from).collect()
}

/// Waits until the move list holds `count` moves.
async fn wait_moves(client: &Client, count: usize) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let list = moves(client).await;
        if list.len() >= count {
            return list;
        }
        assert!(Instant::now() < deadline, "{count} moves never appeared: {list:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn click_cell(client: &Client, cell: usize) {
    client.find(Locator::Css(&format!("#board [data-cell=\"{cell}\"]"))).await.unwrap().click().await.unwrap();
}

async fn choose(client: &Client, select: &str, value: &str) {
    let element = client.find(Locator::Css(select)).await.unwrap();
    element.select_by_value(value).await.unwrap();
}

/// Opens the page on `game` with the engine thinking a quarter of a second as the second player.
async fn open(client: &Client, base: &str, game: &str) {
    client.goto(&format!("{base}/#{game}")).await.unwrap();
    wait_text(client, "#status", |t| t.contains("to move")).await;
    choose(client, "#time", "250").await;
    let cells = client.find_all(Locator::Css("#board [data-cell]")).await.unwrap();
    assert!(!cells.is_empty(), "the board is drawn");
}

/// Runs the comparison at `depth` and returns its text once shown.
async fn compare(client: &Client, depth: u32) -> String {
    let input = client.find(Locator::Css("#compare-depth")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(&depth.to_string()).await.unwrap();
    client.find(Locator::Css("#compare")).await.unwrap().click().await.unwrap();
    wait_text(client, "#compare-result", |t| t.contains("needs")).await
}

/// After the engine's answer: a filled search panel; then the comparison at `depth`, both sides shown.
async fn search_panel_and_comparison(client: &Client, depth: u32) {
    let rows = client.find_all(Locator::Css("#search tbody tr.iteration")).await.unwrap();
    assert!(!rows.is_empty(), "the search panel shows the iterations");
    let notes = wait_text(client, "#search-notes", |t| t.contains("Best move")).await;
    assert!(notes.contains("probes"), "{notes}");
    let table = compare(client, depth).await;
    assert!(table.contains("with the table") && table.contains("without"), "{table}");
    assert!(table.contains(&format!("depth reached {depth} {depth}")), "{table}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connect_four_game_by_clicks() {
    let Some((client, _driver)) = browser().await else { return };
    let base = common::start(Limits::default()).await;
    open(&client, &base, "connect4").await;
    // Columns are clicked anywhere: the top cell of the middle column, then the bottom cell of the first.
    click_cell(&client, 3).await;
    let list = wait_moves(&client, 2).await;
    assert_eq!(list[0], "4");
    let keys = wait_text(&client, "#last-move-keys", |t| t.contains("adds up")).await;
    assert!(keys.contains("in: "), "{keys}");
    click_cell(&client, 35).await;
    let list = wait_moves(&client, 4).await;
    assert_eq!(list[2], "1");
    search_panel_and_comparison(&client, 8).await;
    // Undo takes back the engine's answer and the move before it.
    client.find(Locator::Css("#undo")).await.unwrap().click().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while moves(&client).await.len() != 2 {
        assert!(Instant::now() < deadline, "undo never took two moves back: {:?}", moves(&client).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A position loaded in the game's notation starts a new game from it.
    let position = client.find(Locator::Css("#position")).await.unwrap();
    position.clear().await.unwrap();
    position.send_keys("444").await.unwrap();
    client.find(Locator::Css("#load")).await.unwrap().click().await.unwrap();
    wait_text(&client, "#status", |t| t.starts_with("O to move")).await;
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_against_engine_plays_tic_tac_toe_to_a_draw() {
    let Some((client, _driver)) = browser().await else { return };
    let base = common::start(Limits::default()).await;
    open(&client, &base, "tictactoe").await;
    choose(&client, "#first", "engine").await;
    let status = wait_text(&client, "#status", |t| t.contains("Draw")).await;
    assert_eq!(status, "Draw.");
    assert_eq!(moves(&client).await.len(), 9);
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess_opening_by_clicks() {
    let Some((client, _driver)) = browser().await else { return };
    let base = common::start(Limits::default()).await;
    open(&client, &base, "chess").await;
    // e2-e4: rank 8 is the top row, so e2 is cell 52 and e4 cell 36.
    click_cell(&client, 52).await;
    click_cell(&client, 36).await;
    let list = wait_moves(&client, 2).await;
    assert_eq!(list[0], "e4");
    // The keys panel shows the engine's answer: Black's piece moved, White to move XORed in.
    let keys = wait_text(&client, "#last-move-keys", |t| t.contains("adds up")).await;
    assert!(keys.contains(&format!("key before {}", list[1])), "{keys}");
    assert!(keys.contains("out: black ") && keys.contains("in: White to move"), "{keys}");
    // Ng1-f3.
    click_cell(&client, 62).await;
    click_cell(&client, 45).await;
    let list = wait_moves(&client, 4).await;
    assert_eq!(list[2], "Nf3");
    search_panel_and_comparison(&client, 4).await;
    client.close().await.unwrap();
}

/// Screenshots of each game's page for the README, into `crates/tabula-web/screenshots/`: a few moves played,
/// then an analysis whose line is drawn as numbered ghost moves. Not a check; run it by hand with
/// `cargo test -p tabula-web --test browser -- --ignored screenshots`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes the README's screenshots"]
async fn screenshots() {
    let Some((client, _driver)) = browser().await else { return };
    let base = common::start(Limits::default()).await;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let games: [(&str, &[&str], Option<u32>); 6] = [
        ("tictactoe", &["5", "1", "9"], None),
        ("connect4", &["4", "4", "3", "5"], Some(8)),
        ("chess", &["e4", "e5", "Nf3", "Nc6", "Bb5"], Some(5)),
        ("gomoku", &["h8", "i9", "h9", "h7"], None),
        ("go", &["E5", "C3", "D7"], None),
        ("xiangqi", &["h2e2", "h9g7", "h0g2"], Some(4)),
    ];
    for (game, line, depth) in games {
        // A fresh page for each game (only the address's fragment changes from one to the next).
        client.goto(&format!("{base}/#{game}")).await.unwrap();
        client.refresh().await.unwrap();
        wait_text(&client, "#status", |t| t.contains("to move")).await;
        choose(&client, "#second", "human").await;
        choose(&client, "#time", "500").await;
        for (n, mv) in line.iter().enumerate() {
            client.execute("play(arguments[0])", vec![json!(mv)]).await.unwrap();
            wait_moves(&client, n + 1).await;
        }
        client.find(Locator::Css("#analyze")).await.unwrap().click().await.unwrap();
        wait_text(&client, "#search-notes", |t| t.contains("Best move")).await;
        if let Some(depth) = depth {
            compare(&client, depth).await;
        }
        let png = client.screenshot().await.unwrap();
        std::fs::write(dir.join(format!("{game}.png")), png).unwrap();
    }
    client.close().await.unwrap();
}
