//! Lines from outside, read as bytes: split on LF, a CR before the LF dropped, and a line that is not valid
//! UTF-8, holds a NUL byte or is longer than a limit turned into a [`BadLine`] (with its number and the
//! reason) instead of an error that ends the reading. Whatever follows a bad line is read as usual.
//!
//! Every protocol session and every reader of line files (positions, openings, configurations) goes
//! through [`LineReader`], so that a stray byte from a GUI, a Windows code page or a truncated pipe costs
//! one line, never the session. A line too long to be meant is skipped without being kept: memory stays
//! bounded by the limit whatever comes in.
//!
//! # Examples
//!
//! ```
//! use tabula_protocol::lines::{LineError, LineReader};
//!
//! let input: &[u8] = b"uci\r\n\xff\nis\0ready\nisready";
//! let lines: Vec<_> = LineReader::new(input).map(|line| line.unwrap()).collect();
//! assert_eq!(lines[0].as_deref(), Ok("uci"));
//! let bad = lines[1].as_ref().unwrap_err();
//! assert_eq!((bad.number, &bad.error), (2, &LineError::NotUtf8 { column: 1, byte: 0xff }));
//! assert_eq!(bad.to_string(), "line 2 is not valid UTF-8 (byte 0xff at column 1)");
//! assert_eq!(lines[2].as_ref().unwrap_err().error, LineError::Nul { column: 3 });
//! assert_eq!(lines[3].as_deref(), Ok("isready")); // the last line needs no LF
//! ```

use std::io::{self, BufRead};
use thiserror::Error;

/// The longest line accepted by default, in bytes (a CR before the LF not counted). Far above any command
/// of the protocols served (a UCI `position ... moves` of a thousand plies is about 5 KiB), far below
/// what could strain memory.
pub const MAX_LINE: usize = 64 * 1024;

/// How many bytes of a bad line are kept, as text, to quote it.
const HEAD: usize = 40;

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// A byte sequence that is not UTF-8, at a column counted in bytes from 1.
    #[error("is not valid UTF-8 (byte {byte:#04x} at column {column})")]
    NotUtf8 {
        /// Where the bad sequence starts.
        column: usize,
        /// Its first byte.
        byte: u8,
    },
    /// A NUL byte, which no protocol or text file means.
    #[error("holds a NUL byte at column {column}")]
    Nul {
        /// Where, counted in bytes from 1.
        column: usize,
    },
    /// More bytes than the reader's limit.
    #[error("is {length} bytes long, more than the {limit} allowed")]
    TooLong {
        /// The line's length in bytes.
        length: usize,
        /// The limit.
        limit: usize,
    },
}

/// A line that could not be read as text: its number (from 1), what is wrong, and its first bytes.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {number} {error}")]
pub struct BadLine {
    /// The line's number, from 1.
    pub number: usize,
    /// What is wrong.
    pub error: LineError,
    /// The first bytes of the line as text, bad bytes replaced by U+FFFD and control characters by `?`
    /// (to quote it, or to find a protocol's command id in it).
    pub head: String,
}

/// What [`LineReader`] yields for each line: the text, or why it is not text. An I/O error of the source is
/// the outer error.
pub type ReadLine = io::Result<Result<String, BadLine>>;

/// Reads lines from any [`BufRead`]. See the [module documentation](self).
#[derive(Debug)]
pub struct LineReader<R> {
    source: R,
    limit: usize,
    number: usize,
    buffer: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader with the default limit, [`MAX_LINE`].
    pub fn new(source: R) -> LineReader<R> {
        LineReader::with_limit(source, MAX_LINE)
    }

    /// A reader that turns lines longer than `limit` bytes into [`LineError::TooLong`].
    pub fn with_limit(source: R, limit: usize) -> LineReader<R> {
        LineReader { source, limit, number: 0, buffer: Vec::new() }
    }

    /// The number of the last line read (0 before the first).
    pub fn line_number(&self) -> usize {
        self.number
    }

    /// The next line, `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// The source's I/O error (an interrupted read is retried).
    pub fn read_line(&mut self) -> io::Result<Option<Result<String, BadLine>>> {
        self.buffer.clear();
        // Keep one byte beyond the limit: a line of exactly `limit` bytes may still end in CR.
        let keep = self.limit.saturating_add(1);
        let mut length = 0usize;
        let (mut any, mut last) = (false, None);
        loop {
            let available = match self.source.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (chunk, used, ended) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            let room = keep.saturating_sub(self.buffer.len()).min(chunk.len());
            self.buffer.extend_from_slice(&chunk[..room]);
            length = length.saturating_add(chunk.len());
            last = chunk.last().copied().or(last);
            self.source.consume(used);
            if ended {
                break;
            }
        }
        self.number += 1;
        if last == Some(b'\r') {
            if length <= keep {
                self.buffer.pop();
            }
            length -= 1;
        }
        Ok(Some(self.check(length)))
    }

    /// The buffered line as text, or why it is not.
    fn check(&mut self, length: usize) -> Result<String, BadLine> {
        let error = if length > self.limit {
            Some(LineError::TooLong { length, limit: self.limit })
        } else {
            let nul = self.buffer.iter().position(|&b| b == 0);
            match std::str::from_utf8(&self.buffer) {
                Err(e) if nul.map_or(true, |n| n > e.valid_up_to()) => {
                    let at = e.valid_up_to();
                    Some(LineError::NotUtf8 { column: at + 1, byte: self.buffer[at] })
                }
                _ => nul.map(|n| LineError::Nul { column: n + 1 }),
            }
        };
        match error {
            None => Ok(String::from_utf8(std::mem::take(&mut self.buffer)).expect("checked as UTF-8")),
            Some(error) => Err(BadLine { number: self.number, error, head: quote(&self.buffer) }),
        }
    }
}

/// The first bytes of `bytes` as printable text.
fn quote(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(HEAD)])
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = ReadLine;

    fn next(&mut self) -> Option<ReadLine> {
        self.read_line().transpose()
    }
}

/// The lines of a whole file held in memory, numbered from 1: each good line, or the [`BadLine`].
///
/// # Examples
///
/// ```
/// use tabula_protocol::lines::lines_of;
///
/// let lines: Vec<_> = lines_of(b"a\r\nb\xc0\nc").collect();
/// assert_eq!(lines[0], Ok((1, "a".to_string())));
/// assert_eq!(lines[1].as_ref().unwrap_err().to_string(), "line 2 is not valid UTF-8 (byte 0xc0 at column 2)");
/// assert_eq!(lines[2], Ok((3, "c".to_string())));
/// ```
pub fn lines_of(bytes: &[u8]) -> impl Iterator<Item = Result<(usize, String), BadLine>> + '_ {
    let mut reader = LineReader::new(bytes);
    std::iter::from_fn(move || {
        // Reading from memory cannot fail.
        let line = reader.read_line().ok().flatten()?;
        Some(line.map(|text| (reader.line_number(), text)))
    })
}

/// A whole text file checked line by line: the text with every line ending made LF, or the first bad line.
/// For inputs that must be read whole (configuration files), where going on after a bad line makes no sense.
///
/// # Errors
///
/// The first [`BadLine`].
///
/// # Examples
///
/// ```
/// use tabula_protocol::lines::text_of;
///
/// assert_eq!(text_of(b"a = 1\r\nb = 2\n").unwrap(), "a = 1\nb = 2\n");
/// assert_eq!(text_of(b"a = 1\nb = \xff\n").unwrap_err().number, 2);
/// ```
pub fn text_of(bytes: &[u8]) -> Result<String, BadLine> {
    let mut text = String::with_capacity(bytes.len());
    for line in lines_of(bytes) {
        text.push_str(&line?.1);
        text.push('\n');
    }
    if !bytes.ends_with(b"\n") {
        text.pop();
    }
    Ok(text)
}

/// A file that could not be read as text.
#[derive(Debug, Error)]
pub enum FileError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's reason.
        source: io::Error,
    },
    /// A line of it is not text.
    #[error("{path}: {bad}")]
    Bad {
        /// The file.
        path: String,
        /// The first bad line.
        bad: BadLine,
    },
}

/// A whole text file, checked by [`text_of`]: for files read whole (configurations, opening books), where
/// an error names the file and the line.
///
/// # Errors
///
/// [`FileError::Io`] if it cannot be read, [`FileError::Bad`] for its first bad line.
pub fn read_text_file(path: impl AsRef<std::path::Path>) -> Result<String, FileError> {
    let path = path.as_ref();
    let name = || path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| FileError::Io { path: name(), source })?;
    text_of(&bytes).map_err(|bad| FileError::Bad { path: name(), bad })
}

/// The lines of a data file read in bulk (training positions, labelled data), where one bad line should not
/// cost the rest: each bad line is handed to `bad` and left out.
///
/// # Errors
///
/// [`FileError::Io`] if the file cannot be read.
///
/// # Examples
///
/// ```
/// use tabula_protocol::lines::read_lines;
///
/// let path = std::env::temp_dir().join(format!("tabula-read-lines-{}.txt", std::process::id()));
/// std::fs::write(&path, b"h8 i9;1\n\xffh8;0\nh8;0.5\n").unwrap();
/// let mut bad = Vec::new();
/// let lines = read_lines(&path, |b| bad.push(b.number)).unwrap();
/// assert_eq!(lines, ["h8 i9;1", "h8;0.5"]);
/// assert_eq!(bad, [2]);
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn read_lines(path: impl AsRef<std::path::Path>, mut bad: impl FnMut(&BadLine)) -> Result<Vec<String>, FileError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|source| FileError::Io { path: path.display().to_string(), source })?;
    Ok(lines_of(&bytes).filter_map(|line| line.map_err(|b| bad(&b)).ok()).map(|(_, text)| text).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read(bytes: &[u8], limit: usize) -> Vec<Result<String, BadLine>> {
        LineReader::with_limit(bytes, limit).map(|l| l.unwrap()).collect()
    }

    #[test]
    fn line_endings() {
        let lines = read(b"a\nb\r\n\r\nc\r\rd\n\ne", 100);
        let texts: Vec<&str> = lines.iter().map(|l| l.as_deref().unwrap()).collect();
        assert_eq!(texts, ["a", "b", "", "c\r\rd", "", "e"]);
        assert!(read(b"", 100).is_empty());
        assert_eq!(read(b"\n", 100), [Ok(String::new())]);
        assert_eq!(read(b"x\r", 100), [Ok("x".to_string())]);
    }

    #[test]
    fn long_lines_are_reported_not_kept_and_the_next_line_is_read() {
        let mut input = vec![b'x'; 1 << 20];
        input.extend_from_slice(b"\r\nisready\n");
        let lines = read(&input, MAX_LINE);
        assert_eq!(lines.len(), 2);
        let bad = lines[0].as_ref().unwrap_err();
        assert_eq!(bad.error, LineError::TooLong { length: 1 << 20, limit: MAX_LINE });
        assert_eq!(bad.head, "x".repeat(40));
        assert_eq!(lines[1].as_deref(), Ok("isready"));
        // The limit itself is allowed, with or without CR.
        assert_eq!(read(b"abcd\r\nabcd\nabcde\n", 4).iter().filter(|l| l.is_ok()).count(), 2);
    }

    #[test]
    fn the_first_fault_is_reported() {
        let bad = |bytes: &[u8]| read(bytes, 100).remove(0).unwrap_err().error;
        assert_eq!(bad(b"ab\0c\xff"), LineError::Nul { column: 3 });
        assert_eq!(bad(b"a\xffb\0"), LineError::NotUtf8 { column: 2, byte: 0xff });
        assert_eq!(bad(b"caf\xc3"), LineError::NotUtf8 { column: 4, byte: 0xc3 });
        let head = read(b"12 go\x01\xff", 100).remove(0).unwrap_err().head;
        assert_eq!(head, "12 go?\u{fffd}");
    }

    /// A source that hands out one byte at a time: lines cross buffer boundaries anywhere.
    struct Trickle<'a>(&'a [u8]);

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(1);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn files_name_themselves_and_the_bad_line() {
        let path = std::env::temp_dir().join(format!("tabula-lines-{}.txt", std::process::id()));
        std::fs::write(&path, b"ok\r\nbad \xff\n").unwrap();
        let err = read_text_file(&path).unwrap_err();
        std::fs::write(&path, b"ok\r\nfine\n").unwrap();
        let text = read_text_file(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(err.to_string(), format!("{}: line 2 is not valid UTF-8 (byte 0xff at column 5)", path.display()));
        assert_eq!(text, "ok\nfine\n");
        assert!(read_text_file(&path).unwrap_err().to_string().starts_with("cannot read "));
    }

    proptest! {
        #[test]
        fn good_lines_survive_any_neighbours(lines in proptest::collection::vec(proptest::collection::vec(any::<u8>().prop_map(|b| if b == b'\n' { b'a' } else { b }), 0..12), 0..12)) {
            let input: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
            let read = read(&input, 8);
            let trickled: Vec<_> =
                LineReader::with_limit(io::BufReader::with_capacity(1, Trickle(&input)), 8).map(|l| l.unwrap()).collect();
            prop_assert_eq!(&read, &trickled);
            prop_assert_eq!(read.len(), lines.len());
            for (i, (got, sent)) in read.iter().zip(&lines).enumerate() {
                let sent = sent.strip_suffix(b"\r").unwrap_or(sent);
                match got {
                    Ok(text) => prop_assert_eq!(text.as_bytes(), sent),
                    Err(bad) => {
                        prop_assert_eq!(bad.number, i + 1);
                        prop_assert!(sent.len() > 8 || sent.contains(&0) || std::str::from_utf8(sent).is_err());
                    }
                }
            }
        }
    }
}
