//! Protocol I/O for Tabula's engines, shared by every game and protocol (UCI, GTP, Gomocup, and whatever
//! comes next):
//!
//! - [`lines`]: lines read as bytes; a line that is not UTF-8, holds a NUL byte or is absurdly long becomes a
//!   [`BadLine`] with its number and reason, and reading goes on. Protocol sessions answer
//!   it in their own error form; file readers report it and go on.
//! - [`server`]: the harness a session runs in: a [`Protocol`] is a line in, the lines
//!   to answer out; searches run on an engine thread with a stop flag while input is still read; the end
//!   of input stops a running search, which answers, and ends the session.
//! - [`front`]: a game as people see it and speak to it (notation, board, score words, engine), the trait
//!   every game implements; [`terminal`]: play, analyze, solve and perft written once over it.
//! - [`uci`]: what the sessions of the UCI family (chess UCI, xiangqi UCI and UCCI) share: the clock and
//!   time plan, the words of `go`, `setoption` and `position`, `info` and `bestmove`, and the search run under
//!   the clock with `stop` and `ponderhit`.
//! - [`uci_session`]: the UCI session itself, generic over a game's small [`Dialect`](uci_session::Dialect),
//!   and the core every session of the family keeps.
//! - [`process`]: the other side: an engine as a child process, with deadlines, crash and hang detection
//!   and restarts.
//!
//! # Examples
//!
//! ```
//! use tabula_protocol::lines::LineReader;
//!
//! let mut bad = Vec::new();
//! for line in LineReader::new(&b"4453\n44\xff\n1\n"[..]) {
//!     match line.unwrap() {
//!         Ok(text) => assert!(text.chars().all(|c| c.is_ascii_digit())),
//!         Err(e) => bad.push(e.to_string()),
//!     }
//! }
//! assert_eq!(bad, ["line 2 is not valid UTF-8 (byte 0xff at column 3)"]);
//! ```
#![deny(missing_docs)]

pub mod front;
pub mod lines;
pub mod process;
pub mod server;
pub mod terminal;
pub mod uci;
pub mod uci_session;

pub use lines::{BadLine, LineError, LineReader};
pub use process::{EngineError, Process};
pub use server::{Action, Busy, Input, Protocol, Search};

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
