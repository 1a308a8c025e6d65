//! The shard result file: a short header, then the shard's body and its measurements, each with its length and
//! digest.
//!
//! ```text
//! tabula-shard-result 1
//! job 5e1f0c2a9b3d7e64
//! kind match
//! shard 3/8
//! body 12345 9f86d081884c7d65
//! measured 210 2c26b46b68ffc68f
//! check 0b1c87f2d3e4a596
//!
//! <body: exactly 12345 bytes of UTF-8><measured: exactly 210 bytes>
//! ```
//!
//! - The first line names the format and its version; a reader refuses a version it does not know.
//! - `job` is the identity of the job the shard belongs to (`-` for a shard run on its own), `kind` says how the
//!   body merges (`match`, `kmc`, `lines`), `shard` is `K/N`.
//! - `body` and `measured` give each part's length in bytes and its [FNV-1a](crate::fnv1a) digest in hex. The
//!   body is what the shard computed from its inputs: run again with the same inputs, a shard writes the same
//!   body bit for bit (a match's records hold the time each move took, which no rerun repeats; see the kind).
//!   `measured` holds what a clock or the machine says: `started` and `finished` (Unix seconds), `host`, and the
//!   kind's own timings, `key value` a line.
//! - `check` is the digest of the header lines above it, so that no field of the header can change unseen (a
//!   shard's number, its job).
//! - Nothing follows the measured part. A file cut short, one with bytes added, or one whose parts do not match
//!   their digests is refused with the reason ([`EnvelopeError`]).
//!
//! # Examples
//!
//! ```
//! use tabula_cluster::envelope::{EnvelopeError, ShardResult};
//! use tabula_cluster::shard::Shard;
//!
//! let result = ShardResult::new("-", "lines", Shard { index: 0, count: 2 }, "one\ntwo\n", "host a\n");
//! let text = result.to_text();
//! assert!(text.starts_with("tabula-shard-result 1\njob -\nkind lines\nshard 0/2\nbody 8 "));
//! let cut = &text[..text.len() - 3];
//! assert!(matches!(ShardResult::parse(cut), Err(EnvelopeError::Truncated { .. })));
//! assert_eq!(result.measured_value("host"), Some("a"));
//! ```

use crate::shard::{Shard, ShardTarget};
use std::fmt;

/// The first line's format name.
pub const MAGIC: &str = "tabula-shard-result";

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// One shard's result.
///
/// Its `Display` says what it is: `match shard 3/8 of job 5e1f`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardResult {
    /// The job's identity (`-` for a shard run on its own).
    pub job: String,
    /// How the body merges.
    pub kind: String,
    /// Which shard of how many.
    pub shard: Shard,
    /// What the shard computed: the same bits whenever it runs again with the same inputs.
    pub body: String,
    /// What clocks and the machine said: `key value` lines.
    pub measured: String,
}

/// Why a result file is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnvelopeError {
    /// The file does not start as a result file does.
    #[error("not a shard result (it does not start with `{MAGIC}`)")]
    NotAResult,
    /// A version this reader does not know.
    #[error("result format version {0}, this program reads version {VERSION}")]
    Version(String),
    /// A header line that is missing or malformed.
    #[error("bad header: expected {expected}, found `{found}`")]
    Header {
        /// What the line should have been.
        expected: &'static str,
        /// What it was.
        found: String,
    },
    /// Fewer bytes than the header promises: the file was cut short.
    #[error("truncated: the header promises {expected} bytes after it, the file has {found}")]
    Truncated {
        /// Bytes promised.
        expected: usize,
        /// Bytes there.
        found: usize,
    },
    /// More bytes than the header promises.
    #[error("{0} bytes after the end of the result")]
    Trailing(usize),
    /// A part whose digest does not match: the file was altered or damaged.
    #[error("the {part}'s digest is {found:016x}, the header says {expected:016x}: altered or damaged")]
    Digest {
        /// `header`, `body` or `measured`.
        part: &'static str,
        /// The digest in the header.
        expected: u64,
        /// The digest of the bytes there.
        found: u64,
    },
    /// A part that is not UTF-8 text.
    #[error("the {0} is not UTF-8 text")]
    NotText(&'static str),
}

impl ShardResult {
    /// A result of `shard` of job `job`.
    pub fn new(
        job: impl Into<String>,
        kind: impl Into<String>,
        shard: Shard,
        body: impl Into<String>,
        measured: impl Into<String>,
    ) -> ShardResult {
        ShardResult { job: job.into(), kind: kind.into(), shard, body: body.into(), measured: measured.into() }
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let part = |text: &str| format!("{} {:016x}", text.len(), crate::fnv1a(text.as_bytes()));
        let header = format!(
            "{MAGIC} {VERSION}\njob {}\nkind {}\nshard {}\nbody {}\nmeasured {}\n",
            self.job,
            self.kind,
            self.shard,
            part(&self.body),
            part(&self.measured),
        );
        format!("{header}check {:016x}\n\n{}{}", crate::fnv1a(header.as_bytes()), self.body, self.measured)
    }

    /// Reads a result file's bytes.
    ///
    /// # Errors
    ///
    /// [`EnvelopeError`]: why the file is not a whole, unaltered result of a known version.
    pub fn parse_bytes(bytes: &[u8]) -> Result<ShardResult, EnvelopeError> {
        let mut header = Header { bytes, at: 0 };
        let first = header.line("the format line").map_err(|_| EnvelopeError::NotAResult)?;
        let version = first.strip_prefix(MAGIC).and_then(|v| v.strip_prefix(' ')).ok_or(EnvelopeError::NotAResult)?;
        if version != VERSION.to_string() {
            return Err(EnvelopeError::Version(version.to_string()));
        }
        let job = header.field("job", "`job ID`")?;
        let kind = header.field("kind", "`kind KIND`")?;
        let shard_text = header.field("shard", "`shard K/N`")?;
        let shard = shard_text
            .parse()
            .map_err(|_| EnvelopeError::Header { expected: "`shard K/N`", found: format!("shard {shard_text}") })?;
        let body = header.part("body", "`body LENGTH DIGEST`")?;
        let measured = header.part("measured", "`measured LENGTH DIGEST`")?;
        let above = header.at;
        let check = header.field("check", "`check DIGEST`")?;
        let check = u64::from_str_radix(&check, 16)
            .map_err(|_| EnvelopeError::Header { expected: "`check DIGEST`", found: format!("check {check}") })?;
        let found = crate::fnv1a(&bytes[..above]);
        if found != check {
            return Err(EnvelopeError::Digest { part: "header", expected: check, found });
        }
        let blank = header.line("an empty line")?;
        if !blank.is_empty() {
            return Err(EnvelopeError::Header { expected: "an empty line", found: blank });
        }
        let rest = &bytes[header.at..];
        let expected = body.0 + measured.0;
        if rest.len() < expected {
            return Err(EnvelopeError::Truncated { expected, found: rest.len() });
        }
        if rest.len() > expected {
            return Err(EnvelopeError::Trailing(rest.len() - expected));
        }
        let (body_bytes, measured_bytes) = rest.split_at(body.0);
        for (name, bytes, (_, digest)) in [("body", body_bytes, body), ("measured", measured_bytes, measured)] {
            let found = crate::fnv1a(bytes);
            if found != digest {
                return Err(EnvelopeError::Digest { part: name, expected: digest, found });
            }
        }
        let text = |name, bytes: &[u8]| String::from_utf8(bytes.to_vec()).map_err(|_| EnvelopeError::NotText(name));
        Ok(ShardResult {
            job,
            kind,
            shard,
            body: text("body", body_bytes)?,
            measured: text("measured", measured_bytes)?,
        })
    }

    /// Reads a result file's text.
    ///
    /// # Errors
    ///
    /// As [`ShardResult::parse_bytes`].
    pub fn parse(text: &str) -> Result<ShardResult, EnvelopeError> {
        ShardResult::parse_bytes(text.as_bytes())
    }

    /// The value of the `key value` line `key` of the measured part, if there is one.
    pub fn measured_value(&self, key: &str) -> Option<&str> {
        measured_value(&self.measured, key)
    }
}

/// The header's lines, read one at a time.
struct Header<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Header<'_> {
    /// The next line, without its newline.
    fn line(&mut self, expected: &'static str) -> Result<String, EnvelopeError> {
        let rest = &self.bytes[self.at..];
        let Some(end) = rest.iter().position(|&b| b == b'\n') else {
            let found = String::from_utf8_lossy(&rest[..rest.len().min(40)]).into_owned();
            return Err(EnvelopeError::Header { expected, found });
        };
        self.at += end + 1;
        Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
    }

    /// The value of the next line, which must be `key VALUE`.
    fn field(&mut self, key: &str, expected: &'static str) -> Result<String, EnvelopeError> {
        let text = self.line(expected)?;
        match text.strip_prefix(key).and_then(|v| v.strip_prefix(' ')) {
            Some(value) => Ok(value.to_string()),
            None => Err(EnvelopeError::Header { expected, found: text }),
        }
    }

    /// The next line as `key LENGTH DIGEST`.
    fn part(&mut self, key: &str, expected: &'static str) -> Result<(usize, u64), EnvelopeError> {
        let value = self.field(key, expected)?;
        let bad = || EnvelopeError::Header { expected, found: format!("{key} {value}") };
        let (length, digest) = value.split_once(' ').ok_or_else(bad)?;
        Ok((length.parse().map_err(|_| bad())?, u64::from_str_radix(digest, 16).map_err(|_| bad())?))
    }
}

/// The value of the first `key value` line `key` of `measured`.
pub fn measured_value<'a>(measured: &'a str, key: &str) -> Option<&'a str> {
    measured.lines().find_map(|l| l.strip_prefix(key).and_then(|v| v.strip_prefix(' ')))
}

/// What every shard measures: when it started and finished (Unix seconds) and on which host; the kinds add
/// their own lines after these.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    started: f64,
}

impl Stopwatch {
    /// Starts now.
    pub fn start() -> Stopwatch {
        Stopwatch { started: crate::unix_now() }
    }

    /// `started`, `finished` (now) and `host` lines.
    pub fn lines(&self) -> String {
        format!("started {:.3}\nfinished {:.3}\nhost {}\n", self.started, crate::unix_now(), host_name())
    }
}

/// This machine's name (`HOSTNAME`, else `/etc/hostname`, else `-`).
pub fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "-".to_string())
}

/// `job`, `kind`, `shard`: what a result is, for messages.
impl fmt::Display for ShardResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} shard {} of job {}", self.kind, self.shard, self.job)
    }
}

/// A shard's result is written as an envelope.
impl ShardTarget {
    /// Writes the shard's result file atomically: `body`, and as measured the stopwatch's lines (started,
    /// finished, host) followed by the kind's `measured` lines.
    ///
    /// # Errors
    ///
    /// [`WriteError`](crate::atomic::WriteError) naming the file.
    pub fn write(
        &self,
        kind: &str,
        body: String,
        measured: &str,
        stopwatch: &Stopwatch,
    ) -> Result<(), crate::atomic::WriteError> {
        let measured = format!("{}{measured}", stopwatch.lines());
        let result = ShardResult::new(self.job.clone(), kind, self.shard, body, measured);
        crate::atomic::write(&self.result, result.to_text().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ShardResult {
        ShardResult::new("5e1f", "match", Shard { index: 2, count: 8 }, "game 1\ngame 2\n", "started 1.000\n")
    }

    #[test]
    fn round_trip_and_every_cut_is_refused() {
        let text = sample().to_text();
        assert_eq!(ShardResult::parse(&text).unwrap(), sample());
        for cut in 0..text.len() {
            assert!(ShardResult::parse(&text[..cut]).is_err(), "cut at {cut}");
        }
        assert_eq!(ShardResult::parse(&format!("{text}x")), Err(EnvelopeError::Trailing(1)));
    }

    #[test]
    fn every_altered_byte_is_refused() {
        let text = sample().to_text().into_bytes();
        for at in 0..text.len() {
            let mut altered = text.clone();
            altered[at] ^= 0x01;
            assert!(ShardResult::parse_bytes(&altered).is_err(), "byte {at}");
        }
        let mut body = text.clone();
        let at = body.len() - 20;
        body[at] = b'X';
        let err = ShardResult::parse_bytes(&body).unwrap_err();
        assert!(matches!(err, EnvelopeError::Digest { part: "body", .. }), "{err}");
        assert!(err.to_string().contains("altered or damaged"));
    }

    #[test]
    fn other_formats_and_versions_are_named() {
        assert_eq!(ShardResult::parse("[Event \"x\"]\n"), Err(EnvelopeError::NotAResult));
        assert_eq!(ShardResult::parse(""), Err(EnvelopeError::NotAResult));
        let v2 = sample().to_text().replacen("result 1", "result 2", 1);
        assert_eq!(
            ShardResult::parse(&v2).unwrap_err().to_string(),
            "result format version 2, this program reads version 1"
        );
        assert_eq!(sample().measured_value("started"), Some("1.000"));
        assert_eq!(sample().measured_value("start"), None);
    }
}
