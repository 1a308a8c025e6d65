//! `tabula serve`: a local web page to play every game and watch the keys and the table at work.
//!
//! The server is written once over [`Front`]: a [`Catalog`] lists the games the page offers, each registered by
//! its type, and every request reaches its game through the trait. The page itself (HTML, script and style) is
//! embedded in the binary: no build step, no network at run time.
//!
//! # The interface
//!
//! | Request | Answer |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /i18n/{language}.json` | the page's words in `en` or `zh-CN`: a key to a template with `{holes}` |
//! | `GET /api/games` | the games, their settings and notation help |
//! | `POST /api/sessions` `{"game", "size"?, "rule"?, "komi"?, "position"?}` | `201` the new session's state |
//! | `GET /api/sessions/{id}` | the state: board cells, legal moves, key, features, side, result, history |
//! | `POST /api/sessions/{id}/move` `{"move"}` | the state after the move, whose last history entry lists the keys XORed out and in |
//! | `POST /api/sessions/{id}/undo` | the state after taking back the last move |
//! | `DELETE /api/sessions/{id}` | `204` |
//! | `GET /api/sessions/{id}/search?time_ms=&depth=&table=` | server-sent events: `queued` if it waits for a slot, `iteration` per iteration, then `done` (or `failed`) |
//! | `POST /api/sessions/{id}/stop` | stops the session's search, which still answers `done` |
//! | `POST /api/sessions/{id}/compare` `{"depth", "time_ms"?}` | the same search with and without the table |
//!
//! Every text the server writes comes twice: in English as before, and as words of the tables beside it
//! (`side_words`, `result_words`, `score_words`, a feature's `words`...), a key and its arguments that the page
//! renders in its language (see the `words` module). Errors are JSON `{"error": "...", "words": ...}` with a 4xx
//! status that says what was wrong: 400 for a bad request, 404
//! for an unknown session, 409 for a second search in one session or a move while it searches, 413 for a body
//! over [`Limits::max_body`], 503 when every session slot is searching.
//!
//! What keeps it up under misuse ([`Limits`]): one search per session, a time cap per search, a cap on
//! concurrent searches (others wait their turn), a cap on sessions (the least recently used idle one makes
//! room), a cap on request sizes; a search whose client went away is stopped.
//!
//! # Examples
//!
//! ```no_run
//! use tabula_web::{Catalog, Limits};
//!
//! # fn main() -> std::io::Result<()> {
//! // A catalog of the games to offer (here only Connect Four), served on 127.0.0.1:8080.
//! let catalog = Catalog::new().with::<tabula_connect4::Standard>(&[]);
//! tabula_web::run(([127, 0, 0, 1], 8080).into(), catalog, Limits::default(), |addr| {
//!     println!("http://{addr}/");
//! })
//! # }
//! ```
#![deny(missing_docs)]

mod api;
mod session;
mod words;

use std::net::SocketAddr;
use std::time::Duration;
use tabula_protocol::front::{Front, FrontError, Setup};

pub use api::router;

/// What keeps the server up under misuse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Sessions kept at once.
    pub max_sessions: usize,
    /// Searches running at once; more wait their turn.
    pub max_searches: usize,
    /// The longest a search may think.
    pub max_search_time: Duration,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// Each search's transposition table, in MiB.
    pub hash_mib: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Limits {
            max_sessions: 64,
            max_searches: cores.max(2),
            max_search_time: Duration::from_secs(10),
            max_body: 64 * 1024,
            hash_mib: 16,
        }
    }
}

/// A game the page offers: its name, its settings and how to make a session of it.
#[derive(Clone)]
pub struct Entry {
    name: &'static str,
    settings: Vec<(&'static str, Vec<&'static str>)>,
    position_help: &'static str,
    move_help: &'static str,
    create: Create,
}

/// Makes a session of one game type from a setup and a position.
type Create = fn(&Setup, &str) -> Result<Box<dyn session::Session>, FrontError>;

/// The games the server offers, each registered by its [`Front`] type.
#[derive(Clone, Default)]
pub struct Catalog {
    entries: Vec<Entry>,
}

impl Catalog {
    /// No games yet.
    pub fn new() -> Catalog {
        Catalog::default()
    }

    /// Adds the game `G` with the settings the page offers for it: each a [`Setup`] field name (`size`, `rule`,
    /// `komi`) and its choices, the first being the default (`&[("size", &["9", "13", "19"])]`).
    #[must_use]
    pub fn with<G: Front + 'static>(mut self, settings: &[(&'static str, &[&'static str])]) -> Catalog {
        self.entries.push(Entry {
            name: G::NAME,
            settings: settings.iter().map(|(name, choices)| (*name, choices.to_vec())).collect(),
            position_help: G::POSITION_HELP,
            move_help: G::MOVE_HELP,
            create: session::create::<G>,
        });
        self
    }

    fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// Serves the page on `listener` until the process ends.
///
/// # Errors
///
/// When the listener fails.
pub async fn serve(listener: tokio::net::TcpListener, catalog: Catalog, limits: Limits) -> std::io::Result<()> {
    axum::serve(listener, router(catalog, limits)).await
}

/// Binds `addr`, calls `ready` with the address bound (the port chosen when `addr` asks for port 0), and serves
/// the page on a runtime of its own until the process ends: the blocking entry point for a command line.
///
/// # Errors
///
/// When `addr` cannot be bound or the listener fails.
pub fn run(addr: SocketAddr, catalog: Catalog, limits: Limits, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        serve(listener, catalog, limits).await
    })
}

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
