//! An engine as a child process: lines to its standard input, lines from its standard output read on a
//! thread and received with a deadline. The process is killed when the [`Process`] is dropped.
//!
//! # Examples
//!
//! ```
//! use std::time::Duration;
//! use tabula_match::engine::{split_command, Process};
//!
//! # #[cfg(unix)] {
//! let mut cat = Process::spawn(&split_command("cat").unwrap()).unwrap();
//! cat.send("hello").unwrap();
//! assert_eq!(cat.receive(Duration::from_secs(5)).unwrap(), "hello");
//! # }
//! ```

use std::io::{BufRead, BufReader, Write};
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
    /// An answer that the protocol does not allow.
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
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Process {
    /// Starts `command[0]` with the other words as arguments.
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
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line.trim_end_matches('\r').to_string()).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, stdin, lines })
    }

    /// Sends one line.
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
    /// [`EngineError::Timeout`] or [`EngineError::Crashed`].
    pub fn receive(&mut self, timeout: Duration) -> Result<String, EngineError> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(line),
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
}
