//! The page in a real browser: Debian's `chromium` driven through `chromedriver` (WebDriver) plays a Connect Four
//! game and a chess opening by clicks, sees the engine answer, the search panel fill and the table comparison
//! appear; plays xiangqi by clicks in a browser that asks for Chinese and finds every visible word Chinese;
//! switches the language both ways. Each test skips with a note when Chromium or its driver is not installed
//! (`.ci/run` installs them, and a CJK font for the Chinese screenshots).
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

/// Chromium under WebDriver asking for English pages, or `None` with a note when either is missing.
async fn browser() -> Option<(Client, Driver)> {
    browser_in("en-US").await
}

/// Chromium under WebDriver whose pages are asked for in `language` (its `navigator.languages`), or `None` with
/// a note when either is missing.
async fn browser_in(language: &str) -> Option<(Client, Driver)> {
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
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1100",
                     format!("--lang={language}"), format!("--accept-lang={language}")],
            "prefs": { "intl.accept_languages": language }
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

/// A browser on the page of `game`, served with the default limits (see [`open`]), or `None` with a note when
/// there is no browser.
async fn browser_on(game: &str) -> Option<(Client, Driver)> {
    let (client, driver) = browser().await?;
    let base = common::start(Limits::default()).await;
    open(&client, &base, game).await;
    Some((client, driver))
}

/// Runs the comparison at `depth` and returns its text once shown (its last line says what the table saved:
/// "needs" in English, "需要" in Chinese).
async fn compare(client: &Client, depth: u32) -> String {
    let input = client.find(Locator::Css("#compare-depth")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(&depth.to_string()).await.unwrap();
    client.find(Locator::Css("#compare")).await.unwrap().click().await.unwrap();
    wait_text(client, "#compare-result", |t| t.contains("needs") || t.contains("需要")).await
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
    let Some((client, _driver)) = browser_on("connect4").await else { return };
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
    let Some((client, _driver)) = browser_on("tictactoe").await else { return };
    choose(&client, "#first", "engine").await;
    let status = wait_text(&client, "#status", |t| t.contains("Draw")).await;
    assert_eq!(status, "Draw.");
    assert_eq!(moves(&client).await.len(), 9);
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess_opening_by_clicks() {
    let Some((client, _driver)) = browser_on("chess").await else { return };
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

/// The cell of a xiangqi point written in ICCS (`h2`): Black's back rank (9) is the top row.
fn xiangqi_cell(point: &str) -> usize {
    let bytes = point.as_bytes();
    (9 - (bytes[1] - b'0') as usize) * 9 + (bytes[0] - b'a') as usize
}

/// Every text a person sees on the page: the visible text nodes (the closed parts of the page, scripts, styles and
/// a select's other options left out), each select's chosen option, and the page's title.
async fn visible_texts(client: &Client) -> Vec<String> {
    let script = r#"
        const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
        const texts = [document.title];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const el = node.parentElement;
            if (!el || el.closest("script, style, select, textarea, title") || !node.textContent.trim() || !shown(el)) continue;
            texts.push(node.textContent.trim());
        }
        for (const select of document.querySelectorAll("select")) {
            if (shown(select) && select.selectedIndex >= 0) texts.push(select.options[select.selectedIndex].text);
        }
        return texts;"#;
    let texts = client.execute(script, vec![]).await.unwrap();
    texts.as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect()
}

/// Whether a word of Latin letters and digits may stand in a Chinese page: a number, a Zobrist key in hex, a
/// point of the board (`a0`, ICCS's `h2e2`, a file letter a-i alone), or a name or notation kept as it is.
fn may_stay_latin(word: &str) -> bool {
    const NAMES: [&str; 4] = ["Tabula", "Zobrist", "FEN", "startpos"];
    let bytes = word.as_bytes();
    let file = |b: u8| (b'a'..=b'i').contains(&b);
    let hex = word.len() == 16 && word.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    let point = |p: &[u8]| p.len() == 2 && file(p[0]) && p[1].is_ascii_digit();
    !word.bytes().any(|b| b.is_ascii_alphabetic())
        || hex
        || (bytes.len() == 1 && file(bytes[0]))
        || point(bytes)
        || (bytes.len() == 4 && point(&bytes[..2]) && point(&bytes[2..]))
        || NAMES.contains(&word)
}

/// The words of a text that may not stand in a Chinese page (see [`may_stay_latin`]).
fn not_chinese(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty() && !may_stay_latin(w))
        .map(String::from)
        .collect()
}

#[test]
fn the_chinese_check_finds_english_left_over() {
    for english in ["Undo", "Black to move", "mate in 2", "+35 cp", "0.25 s", "12.3k nodes", "score", "depth reached"] {
        assert!(!not_chinese(english).is_empty(), "{english}");
    }
    for chinese in [
        "悔棋",
        "轮到黑方",
        "2 步杀",
        "+35 分",
        "0.25 秒",
        "1.2万 节点",
        "红车 a0",
        "Zobrist 键",
        "炮二平五",
        "h2e2",
        "a",
        "9",
        "0123456789abcdef",
        "FEN，或 `startpos`",
        "12.5%",
        "Tabula",
    ] {
        assert!(not_chinese(chinese).is_empty(), "{chinese}: {:?}", not_chinese(chinese));
    }
}

/// A browser that asks for Chinese gets the page in Chinese: a xiangqi game played by clicks, the engine
/// answering each move; every word a person sees is Chinese (numbers, keys, points and a few names aside), the
/// moves are in Chinese notation, and the board has its river, palaces and the files as each side counts them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_xiangqi_game_by_clicks_in_chinese() {
    let Some((client, _driver)) = browser_in("zh-CN").await else { return };
    let base = common::start(Limits::default()).await;
    client.goto(&format!("{base}/#xiangqi")).await.unwrap();
    wait_text(&client, "#status", |t| t.contains("轮到红方")).await;
    choose(&client, "#time", "250").await;
    // Red's three moves, each the first still legal of its list (the engine's answers are not known ahead).
    let wanted: [&[&str]; 3] = [&["h2e2"], &["h0g2", "b0c2", "i0i1"], &["i0h0", "a0a1", "b0c2", "g3g4"]];
    for (n, choices) in wanted.iter().enumerate() {
        let legal = client.execute("return page.state.moves.map((m) => m.coordinate)", vec![]).await.unwrap();
        let legal: Vec<&str> = legal.as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let mv =
            choices.iter().find(|m| legal.contains(m)).unwrap_or_else(|| panic!("none of {choices:?} in {legal:?}"));
        click_cell(&client, xiangqi_cell(&mv[..2])).await;
        click_cell(&client, xiangqi_cell(&mv[2..])).await;
        wait_moves(&client, 2 * n + 2).await;
    }
    let list = moves(&client).await;
    assert_eq!(list[0], "炮二平五");
    assert!(list.iter().all(|m| m.chars().count() == 4 && !m.is_ascii()), "{list:?}");
    wait_text(&client, "#search-notes", |t| t.contains("最佳着法")).await;
    let keys = wait_text(&client, "#last-move-keys", |t| t.contains("吻合")).await;
    assert!(keys.contains("移出：黑") && keys.contains("移入：黑"), "{keys}");
    let table = compare(&client, 3).await;
    assert!(table.contains("使用置换表") && table.contains("达到的深度"), "{table}");
    // The board: the river's names, both palaces' diagonals, Black's files 1 to 9 on top and Red's nine to one
    // below, the ICCS letters and ranks.
    let river = client
        .execute("return Array.from(document.querySelectorAll('#board .river')).map((t) => t.textContent)", vec![]);
    assert_eq!(river.await.unwrap(), json!(["楚　河", "汉　界"]));
    let labels = client.execute(
        "return Array.from(document.querySelectorAll('#board .coord')).map((t) => t.textContent).join('')",
        vec![],
    );
    let labels = labels.await.unwrap();
    let labels = labels.as_str().unwrap();
    for files in ["１２３４５６７８９", "九八七六五四三二一", "abcdefghi", "9876543210"] {
        assert!(labels.contains(files), "{files} in {labels}");
    }
    // Every word shown is Chinese: the features list opened too.
    client.execute("document.querySelectorAll('details').forEach((d) => d.open = true)", vec![]).await.unwrap();
    let texts = visible_texts(&client).await;
    assert!(texts.iter().any(|t| t.contains("红车 a0")), "the features are shown: {texts:?}");
    assert!(texts.len() > 80, "{texts:?}");
    let english: Vec<_> = texts.iter().filter(|t| !not_chinese(t).is_empty()).collect();
    assert!(english.is_empty(), "not Chinese: {english:?}");
    // A position the rules refuse is refused in Chinese, the game's own reason included.
    let position = client.find(Locator::Css("#position")).await.unwrap();
    position.clear().await.unwrap();
    position.send_keys("9/9 w").await.unwrap();
    client.find(Locator::Css("#load")).await.unwrap().click().await.unwrap();
    let error = wait_text(&client, "#error", |t| !t.is_empty()).await;
    assert_eq!(error, "无法读取局面 `9/9 w`：FEN 中的棋子布局 \"9/9\" 有误：应为以 '/' 分隔的 10 横线");
    client.close().await.unwrap();
}

/// The language switch: English to Chinese and back, every label following, the choice remembered over a reload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_switch_works_both_ways_and_is_remembered() {
    let Some((client, _driver)) = browser_on("chess").await else { return };
    let text = |css: &'static str| {
        let client = client.clone();
        async move { client.find(Locator::Css(css)).await.unwrap().text().await.unwrap() }
    };
    assert_eq!(text("#new").await, "New game");
    assert_eq!(text("#status").await, "White to move");
    let game = client.execute("return document.querySelector('#game').selectedOptions[0].text", vec![]);
    assert_eq!(game.await.unwrap(), "Chess");
    choose(&client, "#lang", "zh-CN").await;
    wait_text(&client, "#new", |t| t == "新局").await;
    assert_eq!(text("#status").await, "轮到白方");
    let game = client.execute("return document.querySelector('#game').selectedOptions[0].text", vec![]);
    assert_eq!(game.await.unwrap(), "国际象棋");
    assert_eq!(client.execute("return document.documentElement.lang", vec![]).await.unwrap(), "zh-CN");
    // Remembered: a reload of a browser that asks for English keeps Chinese.
    client.refresh().await.unwrap();
    wait_text(&client, "#status", |t| t == "轮到白方").await;
    assert_eq!(text("#undo").await, "悔棋");
    choose(&client, "#lang", "en").await;
    wait_text(&client, "#new", |t| t == "New game").await;
    assert_eq!(text("#status").await, "White to move");
    assert_eq!(text("#undo").await, "Undo");
    client.close().await.unwrap();
}

/// Screenshots of each game's page in English and in Chinese for the book, into `docs/src/screenshots/`
/// (`<game>.png`, `<game>.zh-CN.png`): a few moves played, then an analysis whose line is drawn as numbered ghost
/// moves. Not a check; run it by hand with `cargo test -p tabula-web --test browser -- --ignored screenshots`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes the book's screenshots"]
async fn screenshots() {
    let Some((client, _driver)) = browser().await else { return };
    let base = common::start(Limits::default()).await;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let games: [(&str, &[&str], Option<u32>); 6] = [
        ("tictactoe", &["5", "1", "9"], None),
        ("connect4", &["4", "4", "3", "5"], Some(8)),
        ("chess", &["e4", "e5", "Nf3", "Nc6", "Bb5"], Some(5)),
        ("gomoku", &["h8", "i9", "h9", "h7"], None),
        ("go", &["E5", "C3", "D7"], None),
        ("xiangqi", &["h2e2", "h9g7", "h0g2"], Some(4)),
    ];
    for (language, suffix, to_move, best) in
        [("en", "", "to move", "Best move"), ("zh-CN", ".zh-CN", "轮到", "最佳着法")]
    {
        client.goto(&format!("{base}/")).await.unwrap();
        client.execute("localStorage.setItem('tabula.language', arguments[0])", vec![json!(language)]).await.unwrap();
        for (game, line, depth) in games {
            // A fresh page for each game (only the address's fragment changes from one to the next).
            client.goto(&format!("{base}/#{game}")).await.unwrap();
            client.refresh().await.unwrap();
            wait_text(&client, "#status", |t| t.contains(to_move)).await;
            choose(&client, "#second", "human").await;
            choose(&client, "#time", "500").await;
            for (n, mv) in line.iter().enumerate() {
                client.execute("play(arguments[0])", vec![json!(mv)]).await.unwrap();
                wait_moves(&client, n + 1).await;
            }
            client.find(Locator::Css("#analyze")).await.unwrap().click().await.unwrap();
            wait_text(&client, "#search-notes", |t| t.contains(best)).await;
            if let Some(depth) = depth {
                compare(&client, depth).await;
            }
            let png = client.screenshot().await.unwrap();
            std::fs::write(dir.join(format!("{game}{suffix}.png")), png).unwrap();
        }
    }
    client.close().await.unwrap();
}
