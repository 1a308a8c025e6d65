//! An engine as a child process: lines to its standard input, lines from its standard output read on a
//! thread (through the [`LineReader`], so that bad bytes from the engine cost one line) and received with a
//! deadline, so that a crash or a hang is an error, never a stuck caller; [`Process::restart`] starts the
//! same command again. The process is killed when the [`Process`] is dropped.
//!
//! The match referee, the oracle tests against Stockfish and GNU Go and the lab's tools that talk to other
//! engines all drive their engines through it; [`Process::ask`] and [`Process::ask_gtp`] are the two
//! conversations they need (UCI-style: send, read until a line; GTP: send, read the `=` or `?` response).
//!
//! # Examples
//!
//! ```
//! use std::time::Duration;
//! use tabula_protocol::process::{split_command, Process};
//!
//! # #[cfg(unix)] {
//! let mut cat = Process::spawn(&split_command("cat").unwrap()).unwrap();
//! cat.send("hello").unwrap();
//! assert_eq!(cat.receive(Duration::from_secs(5)).unwrap(), "hello");
//! let lines = cat.ask("one\ntwo", Duration::from_secs(5), |l| l == "two").unwrap();
//! assert_eq!(lines, ["one", "two"]);
//! # }
//! ```

use crate::lines::{BadLine, LineReader};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The command could not be started.
    #[error("cannot start engine `{command}`: {reason}")]
    Spawn {
        /// The command line.
        command: String,
        /// The operating system's reason.
        reason: String,
    },
    /// An empty command line, or one with an unclosed quote.
    #[error("bad engine command `{0}` (expected a program and its arguments)")]
    BadCommand(String),
    /// The engine closed its output or exited.
    #[error("engine exited (crash)")]
    Crashed,
    /// No answer within the time allowed.
    #[error("no answer in {0:?} (timeout)")]
    Timeout(Duration),
    /// An answer that the protocol does not allow, or output that is not text.
    #[error("unexpected answer `{0}` (garbage)")]
    Garbage(String),
    /// A move the rules refuse.
    #[error("illegal move `{0}`")]
    Illegal(String),
    /// A command the engine answered with an error (a GTP `?`).
    #[error("refused `{command}`: `{answer}`")]
    Refused {
        /// The command sent.
        command: String,
        /// The engine's answer.
        answer: String,
    },
}

/// Splits a command line into words: spaces separate, single or double quotes group.
///
/// # Errors
///
/// [`EngineError::BadCommand`] when the line is empty or a quote is not closed.
pub fn split_command(line: &str) -> Result<Vec<String>, EngineError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quote, mut in_word) = (None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() || (words.is_empty() && !in_word) {
        return Err(EngineError::BadCommand(line.to_string()));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A running engine.
#[derive(Debug)]
pub struct Process {
    command: Vec<String>,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String, BadLine>>,
}

impl Process {
    /// Starts `command[0]` with the other words as arguments; its standard error is discarded.
    ///
    /// # Errors
    ///
    /// [`EngineError::BadCommand`] for an empty command, [`EngineError::Spawn`] when it cannot start.
    pub fn spawn(command: &[String]) -> Result<Process, EngineError> {
        let (program, args) = command.split_first().ok_or_else(|| EngineError::BadCommand(String::new()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Spawn { command: command.join(" "), reason: e.to_string() })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in LineReader::new(BufReader::new(stdout)) {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { command: command.to_vec(), child, stdin, lines })
    }

    /// The command line it was started with.
    pub fn command(&self) -> &[String] {
        &self.command
    }

    /// Kills the engine and starts its command again.
    ///
    /// # Errors
    ///
    /// As [`Process::spawn`].
    pub fn restart(&mut self) -> Result<(), EngineError> {
        *self = Process::spawn(&self.command)?;
        Ok(())
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends one line (a text with line breaks sends several).
    ///
    /// # Errors
    ///
    /// [`EngineError::Crashed`] when the engine no longer reads.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let stdin = self.stdin.as_mut().ok_or(EngineError::Crashed)?;
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).map_err(|_| EngineError::Crashed)
    }

    /// The next line, waiting at most `timeout`.
    ///
    /// # Errors
    ///
    /// [`EngineError::Timeout`], [`EngineError::Crashed`], or [`EngineError::Garbage`] for a line that is
    /// not text.
    pub fn receive(&mut self, timeout: Duration) -> Result<String, EngineError> {
        match self.lines.recv_timeout(timeout) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(bad)) => Err(EngineError::Garbage(bad.to_string())),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(timeout)),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Crashed),
        }
    }

    /// The next line before `deadline`.
    ///
    /// # Errors
    ///
    /// As [`Process::receive`]; the timeout reported is `allowed`.
    pub fn receive_until(&mut self, deadline: Instant, allowed: Duration) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.receive(left).map_err(|e| match e {
            EngineError::Timeout(_) => EngineError::Timeout(allowed),
            e => e,
        })
    }

    /// Reads lines until one satisfies `accept`, before `deadline`.
    ///
    /// # Errors
    ///
    /// As [`Process::receive_until`].
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        allowed: Duration,
        mut accept: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        loop {
            let line = self.receive_until(deadline, allowed)?;
            if accept(&line) {
                return Ok(line);
            }
        }
    }

    /// Sends `command` and returns the lines answered, up to and including the first that satisfies `last`,
    /// all within `timeout`.
    ///
    /// # Errors
    ///
    /// As [`Process::send`] and [`Process::receive_until`].
    pub fn ask(
        &mut self,
        command: &str,
        timeout: Duration,
        mut last: impl FnMut(&str) -> bool,
    ) -> Result<Vec<String>, EngineError> {
        self.send(command)?;
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let line = self.receive_until(deadline, timeout)?;
            let done = last(&line);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    /// Sends the GTP command `command` and reads its response up to the closing empty line, before
    /// `deadline`: the text after `=` (and after an id, if the engine sends one) and the lines after it
    /// (their indentation kept), joined by LF.
    ///
    /// # Errors
    ///
    /// [`EngineError::Refused`] for a `?` response, [`EngineError::Garbage`] for a response that is
    /// neither, and the errors of [`Process::receive_until`] (with `allowed` as the timeout reported).
    pub fn ask_gtp(&mut self, command: &str, deadline: Instant, allowed: Duration) -> Result<String, EngineError> {
        self.send(command)?;
        let first = self.wait_for(deadline, allowed, |l| !l.trim().is_empty())?;
        let success = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => return Err(EngineError::Garbage(first)),
        };
        let mut answer = first[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
        loop {
            let line = self.receive_until(deadline, allowed)?;
            if line.trim().is_empty() {
                break;
            }
            answer.push('\n');
            answer.push_str(line.trim_end());
        }
        if success {
            Ok(answer)
        } else {
            Err(EngineError::Refused { command: command.to_string(), answer: first })
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Closing stdin first lets a polite engine exit; killing covers the rest.
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Process {
        Process::spawn(&["sh".to_string(), "-c".to_string(), script.to_string()]).unwrap()
    }

    #[test]
    fn splits_words_and_quotes() {
        assert_eq!(split_command("tabula uci").unwrap(), ["tabula", "uci"]);
        assert_eq!(split_command(" a 'b c' \"d\"e ").unwrap(), ["a", "b c", "de"]);
        assert_eq!(split_command("x ''").unwrap(), ["x", ""]);
        assert!(split_command("   ").is_err());
        assert!(split_command("a 'b").is_err());
    }

    #[test]
    fn missing_program_is_a_spawn_error() {
        let err = Process::spawn(&["/nonexistent/engine".to_string()]).unwrap_err();
        assert!(matches!(err, EngineError::Spawn { .. }), "{err}");
        assert!(err.to_string().contains("/nonexistent/engine"));
    }

    #[cfg(unix)]
    #[test]
    fn bad_bytes_hangs_crashes_and_restarts() {
        let mut engine = shell(r"printf 'ok\r\n\377\nnext\n'; read x; exit 3");
        let second = Duration::from_secs(10);
        assert_eq!(engine.receive(second).unwrap(), "ok");
        let garbage = engine.receive(second).unwrap_err();
        assert!(garbage.to_string().contains("line 2 is not valid UTF-8"), "{garbage}");
        assert_eq!(engine.receive(second).unwrap(), "next");
        assert_eq!(engine.receive(Duration::from_millis(50)), Err(EngineError::Timeout(Duration::from_millis(50))));
        engine.send("go").unwrap();
        assert_eq!(engine.receive(second), Err(EngineError::Crashed));
        engine.restart().unwrap();
        assert_eq!(engine.receive(second).unwrap(), "ok");
    }

    #[cfg(unix)]
    #[test]
    fn gtp_responses() {
        let mut engine = shell(r"printf '\n=1 E5\n\n? not today\n\n= a\nb\n\nbanana\n'; sleep 5");
        let (now, allowed) = (Instant::now(), Duration::from_secs(10));
        assert_eq!(engine.ask_gtp("1 genmove b", now + allowed, allowed).unwrap(), "E5");
        let refused = engine.ask_gtp("genmove w", now + allowed, allowed).unwrap_err();
        assert_eq!(refused, EngineError::Refused { command: "genmove w".into(), answer: "? not today".into() });
        assert_eq!(engine.ask_gtp("list", now + allowed, allowed).unwrap(), "a\nb");
        assert_eq!(engine.ask_gtp("x", now + allowed, allowed), Err(EngineError::Garbage("banana".into())));
    }
}
