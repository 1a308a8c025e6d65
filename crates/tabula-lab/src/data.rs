//! The data files every group reads and writes: text, one entry a line, fields separated by `;`, the first
//! field the position (a FEN, a move list).
//!
//! [`read_lines`] reads a whole file, reporting and leaving out a line that is not text; [`Output`] writes a
//! new file line by line, or goes on with the file of an interrupted run ([`Output::resume`]), each error
//! naming the file.

use anyhow::Context;
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};

/// The first `;` field of a data line, its position (the whole line if it has no other).
pub fn first_field(line: &str) -> &str {
    line.split_once(';').map_or(line, |(position, _)| position)
}

/// The text lines of a data file; a line that is not text is reported and left out.
pub fn read_lines(path: &str) -> anyhow::Result<Vec<String>> {
    Ok(tabula_protocol::lines::read_lines(path, |bad| eprintln!("{path}: {bad}; left out"))?)
}

/// A new output file written line by line through a buffer; its errors name the file.
pub struct Output {
    path: String,
    file: BufWriter<File>,
}

impl Output {
    /// Creates (or truncates) the file `path`.
    pub fn create(path: &str) -> anyhow::Result<Output> {
        let file = File::create(path).with_context(|| format!("cannot create {path}"))?;
        Ok(Output { path: path.to_owned(), file: BufWriter::new(file) })
    }

    /// Goes on with the file `path` of an interrupted run: keeps its whole lines (a line cut off by the
    /// interruption is dropped), appends after them, and gives each kept line's first `;` field (its
    /// position).
    pub fn resume(path: &str) -> anyhow::Result<(Output, HashSet<String>)> {
        let text = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e).with_context(|| format!("cannot read {path}")),
        };
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let done = String::from_utf8_lossy(&text[..whole]).lines().map(|l| first_field(l).to_owned()).collect();
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {path}"))?;
        file.set_len(whole as u64).with_context(|| format!("cannot write {path}"))?;
        Ok((Output { path: path.to_owned(), file: BufWriter::new(file) }, done))
    }

    /// Writes `text` and a newline.
    pub fn line(&mut self, text: impl std::fmt::Display) -> anyhow::Result<()> {
        writeln!(self.file, "{text}").with_context(|| format!("cannot write {}", self.path))
    }

    /// Writes a block of lines and then out what the buffer holds, so that the file holds whole blocks.
    pub fn block(&mut self, lines: &[String]) -> anyhow::Result<()> {
        for line in lines {
            self.line(line)?;
        }
        self.flush()
    }

    /// Writes out what the buffer holds.
    pub fn flush(&mut self) -> anyhow::Result<()> {
        self.file.flush().with_context(|| format!("cannot write {}", self.path))
    }
}
