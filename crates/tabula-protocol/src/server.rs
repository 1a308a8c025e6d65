//! The harness every protocol session runs in: input read on a thread of its own (so that `stop` or the end
//! of input is seen while the engine thinks), searches run on an engine thread with a stop flag, and the
//! session itself, a [`Protocol`], kept to logic: a line in, the lines to answer out.
//!
//! While no search runs, each line goes to [`Protocol::command`] in order; a line that could not be read
//! ([`BadLine`]) goes to [`Protocol::bad_line`], whose answer is the protocol's error form, and serving goes
//! on. A command may start a [`Search`]: it runs on its own thread with a fresh stop flag, printing as it
//! goes, and what it returns is handed to [`Protocol::finish`] when it ends. Input that arrives meanwhile is
//! shown to [`Protocol::busy`], which answers it at once, stops the search, or keeps it for after the
//! search; behind a line kept, later lines are kept too (unless they stop the search), and once a kept line
//! starts a search the lines after it are shown to that search. At the end of input a running search is stopped and answered, then serving ends.
//!
//! [`serve`] runs the loop on any reader and writer (standard input and output in [`serve_stdio`]),
//! [`Connection`] runs it on a thread fed by the caller, and [`answer`] runs one line to its end without
//! threads, for scripts and transcript tests.
//!
//! # Examples
//!
//! A toy protocol whose `count` searches until stopped:
//!
//! ```
//! use std::sync::atomic::Ordering::Relaxed;
//! use tabula_protocol::lines::BadLine;
//! use tabula_protocol::server::{Action, Busy, Connection, Input, Protocol, Search};
//!
//! struct Counter;
//!
//! impl Protocol for Counter {
//!     type Outcome = u64;
//!
//!     fn command(&mut self, line: &str) -> Action<u64> {
//!         match line {
//!             "ping" => Action::Reply(vec!["pong".into()]),
//!             "count" => Action::Search(Search::new(|stop, _out| {
//!                 let mut n = 0;
//!                 while !stop.load(Relaxed) {
//!                     n += 1;
//!                     std::thread::yield_now();
//!                 }
//!                 n
//!             })),
//!             "quit" => Action::Quit(Vec::new()),
//!             other => Action::Reply(vec![format!("error: unknown command {other}")]),
//!         }
//!     }
//!
//!     fn bad_line(&mut self, bad: &BadLine) -> Vec<String> {
//!         vec![format!("error: {bad}")]
//!     }
//!
//!     fn busy(&mut self, input: Input<'_>) -> Busy {
//!         match input {
//!             Input::Line("stop") => Busy::Stop,
//!             Input::Line("ping") => Busy::Answer(vec!["pong".into()]),
//!             _ => Busy::Wait,
//!         }
//!     }
//!
//!     fn finish(&mut self, counted: Option<u64>) -> Vec<String> {
//!         vec![format!("counted {}", counted.is_some())]
//!     }
//! }
//!
//! let connection = Connection::open(Counter);
//! connection.send(b"count\nping\n\xff\nping\nstop\n");
//! let (_, output) = connection.close();
//! // The first `ping` is answered during the count; the bad line waits for the count to end, and the lines
//! // behind it wait too (the end of input stops the count).
//! assert_eq!(
//!     output,
//!     "pong\ncounted true\nerror: line 3 is not valid UTF-8 (byte 0xff at column 1)\npong\nerror: unknown command stop\n"
//! );
//! ```

use crate::lines::{BadLine, LineReader};
use std::collections::VecDeque;
use std::io::{self, BufReader, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The flag a search watches: set, it ends as soon as it can and answers with what it has.
pub type Stop = Arc<AtomicBool>;

/// Where a search prints its lines as it goes (`info` lines, a `MESSAGE`, the final answer).
pub type Emit<'a> = &'a mut dyn FnMut(String);

/// The stack of the engine thread: deep searches (threat sequences, long proofs) recurse far.
const ENGINE_STACK: usize = 64 << 20;

/// Work for the engine thread: a closure given the stop flag and the printer, returning what
/// [`Protocol::finish`] needs to update the session.
pub struct Search<O> {
    run: Job<O>,
}

type Job<O> = Box<dyn FnOnce(&Stop, Emit<'_>) -> O + Send>;

impl<O> Search<O> {
    /// A search that runs `run`.
    pub fn new(run: impl FnOnce(&Stop, Emit<'_>) -> O + Send + 'static) -> Search<O> {
        Search { run: Box::new(run) }
    }

    /// Runs it here, under `stop`, printing to `emit`.
    pub fn run(self, stop: &Stop, emit: Emit<'_>) -> O {
        (self.run)(stop, emit)
    }
}

impl<O> std::fmt::Debug for Search<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Search")
    }
}

/// What a command asks of the harness.
#[derive(Debug)]
pub enum Action<O> {
    /// Print these lines (possibly none).
    Reply(Vec<String>),
    /// Start this search on the engine thread.
    Search(Search<O>),
    /// Print these lines and stop serving.
    Quit(Vec<String>),
}

/// One piece of input: a line, or a line that could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input<'a> {
    /// A line of text, line ending removed.
    Line(&'a str),
    /// A line that is not text.
    Bad(&'a BadLine),
}

/// What to do with input that arrives while a search runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Busy {
    /// Answer it now with these lines; the search goes on (UCI `isready`).
    Answer(Vec<String>),
    /// Stop the search; the input needs nothing else (UCI `stop`).
    Stop,
    /// Keep it until the search has ended by itself, then serve it.
    Wait,
    /// Stop the search, then serve it (UCI `quit`, or a new command during `go infinite`).
    StopThenServe,
}

/// A protocol's session logic. See the [module documentation](self).
pub trait Protocol {
    /// What a search returns to the session.
    type Outcome: Send + 'static;

    /// How answer lines end (Gomocup managers expect CRLF).
    const NEWLINE: &'static str = "\n";

    /// Interprets one line (its line ending removed).
    fn command(&mut self, line: &str) -> Action<Self::Outcome>;

    /// The answer to a line that could not be read, in the protocol's error form.
    fn bad_line(&mut self, bad: &BadLine) -> Vec<String>;

    /// What to do with `input` while a search runs. By default it waits for the search to end.
    fn busy(&mut self, input: Input<'_>) -> Busy {
        let _ = input;
        Busy::Wait
    }

    /// The search has ended with `outcome` (`None` if it panicked): update the session and return the lines
    /// to print.
    fn finish(&mut self, outcome: Option<Self::Outcome>) -> Vec<String>;
}

/// Runs `line` to its end on this thread, a search included, and returns everything printed: for scripts
/// and transcript tests. Nothing can stop the search, so a protocol whose searches may run until stopped
/// must bound them before it uses this.
pub fn answer<P: Protocol>(protocol: &mut P, line: &str) -> Vec<String> {
    match protocol.command(line) {
        Action::Reply(lines) | Action::Quit(lines) => lines,
        Action::Search(search) => {
            let mut lines = Vec::new();
            let outcome = search.run(&Stop::default(), &mut |line| lines.push(line));
            lines.extend(protocol.finish(Some(outcome)));
            lines
        }
    }
}

/// The answer to a line read by a [`LineReader`]: [`answer`] for text, [`Protocol::bad_line`] otherwise.
pub fn answer_read<P: Protocol>(protocol: &mut P, line: Result<&str, &BadLine>) -> Vec<String> {
    match line {
        Ok(line) => answer(protocol, line),
        Err(bad) => protocol.bad_line(bad),
    }
}

/// What the serving loop waits for.
enum Event<O> {
    Input(Result<String, BadLine>),
    /// The end of input, or the error that ended it.
    End(Option<io::Error>),
    /// A search ended (`None`: it panicked).
    Done(Option<O>),
}

type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn print(out: &Output, lines: impl IntoIterator<Item = String>, newline: &str) {
    let mut out = out.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // A closed output leaves nobody to tell; input decides when serving ends.
    for line in lines {
        let _ = out.write_all(line.as_bytes()).and_then(|()| out.write_all(newline.as_bytes()));
    }
    let _ = out.flush();
}

/// Serves `protocol` on standard input and output until it quits or the input ends.
///
/// # Errors
///
/// An error reading standard input (after the running search, if any, has been stopped and answered).
pub fn serve_stdio<P: Protocol>(protocol: &mut P) -> io::Result<()> {
    serve(protocol, io::stdin(), io::stdout())
}

/// Serves `protocol`, reading `input` and writing `output`, until it quits or the input ends. See the
/// [module documentation](self).
///
/// # Errors
///
/// An error reading `input` (after the running search, if any, has been stopped and answered).
pub fn serve<P: Protocol>(
    protocol: &mut P,
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
) -> io::Result<()> {
    let out: Output = Arc::new(Mutex::new(Box::new(output)));
    let (events, inbox) = mpsc::channel::<Event<P::Outcome>>();
    let reader = events.clone();
    std::thread::Builder::new().name("protocol input".into()).spawn(move || {
        for line in LineReader::new(BufReader::new(input)) {
            let event = match line {
                Ok(line) => Event::Input(line),
                Err(e) => Event::End(Some(e)),
            };
            let ended = matches!(event, Event::End(_));
            if reader.send(event).is_err() || ended {
                return;
            }
        }
        let _ = reader.send(Event::End(None));
    })?;
    let mut waiting: VecDeque<Result<String, BadLine>> = VecDeque::new();
    let mut running: Option<Stop> = None;
    let mut end: Option<io::Result<()>> = None;
    loop {
        // Step 1. With no search running, serve what waits, in order, until a command starts a search.
        while running.is_none() {
            let Some(input) = waiting.pop_front() else { break };
            let action = match input {
                Ok(line) => protocol.command(&line),
                Err(bad) => Action::Reply(protocol.bad_line(&bad)),
            };
            match action {
                Action::Reply(lines) => print(&out, lines, P::NEWLINE),
                Action::Quit(lines) => {
                    print(&out, lines, P::NEWLINE);
                    return Ok(());
                }
                Action::Search(search) => {
                    // After the end of input nobody can send `stop`: the search answers at once.
                    let stop = Stop::new(AtomicBool::new(end.is_some()));
                    running = Some(Arc::clone(&stop));
                    if let Err(e) = start(search, Arc::clone(&stop), &out, P::NEWLINE, events.clone()) {
                        running = None;
                        print(&out, protocol.finish(None), P::NEWLINE);
                        end.get_or_insert(Err(e));
                        continue;
                    }
                    // The lines that came after this command were kept for after the search before it: they
                    // are for this one (a `ponderhit` or `stop` right after `go ponder`), shown to it in order.
                    for input in std::mem::take(&mut waiting) {
                        offer(protocol, input, &stop, &mut waiting, &out);
                    }
                }
            }
        }
        if running.is_none() {
            if let Some(result) = end {
                return result;
            }
        }
        // Step 2. The next event: input, the end of input, or the end of the search.
        let event = inbox.recv().expect("the loop holds a sender");
        match event {
            Event::Input(input) => match &running {
                None => waiting.push_back(input),
                Some(stop) => offer(protocol, input, stop, &mut waiting, &out),
            },
            Event::End(error) => {
                end = Some(error.map_or(Ok(()), Err));
                if let Some(stop) = &running {
                    stop.store(true, Relaxed);
                }
            }
            Event::Done(outcome) => {
                running = None;
                print(&out, protocol.finish(outcome), P::NEWLINE);
            }
        }
    }
}

/// Shows `input`, which came while the search under `stop` runs, to [`Protocol::busy`] and does what it says.
/// Behind lines that wait for the search to end, a line waits too, whatever `busy` says (unless it stops the
/// search): it belongs after them, and to the search one of them may start.
fn offer<P: Protocol>(
    protocol: &mut P,
    input: Result<String, BadLine>,
    stop: &Stop,
    waiting: &mut VecDeque<Result<String, BadLine>>,
    out: &Output,
) {
    let view = match &input {
        Ok(line) => Input::Line(line),
        Err(bad) => Input::Bad(bad),
    };
    match protocol.busy(view) {
        Busy::Answer(lines) if waiting.is_empty() => print(out, lines, P::NEWLINE),
        Busy::Stop if waiting.is_empty() => stop.store(true, Relaxed),
        Busy::StopThenServe => {
            stop.store(true, Relaxed);
            waiting.push_back(input);
        }
        Busy::Answer(_) | Busy::Stop | Busy::Wait => waiting.push_back(input),
    }
}

/// Starts `search` on an engine thread that prints to `out` and reports its outcome to `events`.
fn start<O: Send + 'static>(
    search: Search<O>,
    stop: Stop,
    out: &Output,
    newline: &'static str,
    events: mpsc::Sender<Event<O>>,
) -> io::Result<()> {
    let out = Arc::clone(out);
    std::thread::Builder::new().name("search".into()).stack_size(ENGINE_STACK).spawn(move || {
        let outcome =
            catch_unwind(AssertUnwindSafe(|| search.run(&stop, &mut |line| print(&out, [line], newline)))).ok();
        let _ = events.send(Event::Done(outcome));
    })?;
    Ok(())
}

/// A [`Read`] over byte chunks sent from another thread; the end of input when the sender is dropped.
struct Pipe {
    chunks: mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            match self.chunks.recv() {
                Ok(chunk) => (self.chunk, self.at) = (chunk, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// An output the caller can read while the server writes it.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A session served on a thread of its own, fed bytes by the caller and writing to a buffer the caller
/// reads: an engine inside another program, or a transcript test that checks what is answered while a
/// search runs.
pub struct Connection<P> {
    input: Option<mpsc::Sender<Vec<u8>>>,
    output: Shared,
    server: JoinHandle<P>,
}

impl<P: Protocol + Send + 'static> Connection<P> {
    /// Starts serving `protocol`.
    pub fn open(mut protocol: P) -> Connection<P> {
        let (input, chunks) = mpsc::channel();
        let output = Shared::default();
        let pipe = Pipe { chunks, chunk: Vec::new(), at: 0 };
        let writer = output.clone();
        let server = std::thread::spawn(move || {
            // A pipe of memory does not fail.
            let _ = serve(&mut protocol, pipe, writer);
            protocol
        });
        Connection { input: Some(input), output, server }
    }

    /// Sends bytes as they are (add the line endings).
    pub fn send(&self, bytes: impl AsRef<[u8]>) {
        if let Some(input) = &self.input {
            // After `quit` nobody reads: the bytes are dropped, as a pipe to an exited program would.
            let _ = input.send(bytes.as_ref().to_vec());
        }
    }

    /// Sends `line` and an LF.
    pub fn send_line(&self, line: &str) {
        self.send(format!("{line}\n"));
    }

    /// Sends `before`, then 1 MiB of `fill` (sixteen times [`MAX_LINE`](crate::lines::MAX_LINE)), then `after`,
    /// in one write: a line far too long amid others, for checking that it is answered as an error and the
    /// lines after it are served. `after` starts with the long line's ending.
    pub fn send_with_long_line(&self, before: &[u8], fill: u8, after: &[u8]) {
        let mut bytes = before.to_vec();
        bytes.resize(before.len() + (1 << 20), fill);
        bytes.extend_from_slice(after);
        self.send(bytes);
    }

    /// Everything answered so far (bad UTF-8 replaced, as the output is expected to be text).
    pub fn output(&self) -> String {
        String::from_utf8_lossy(&self.output.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())).into_owned()
    }

    /// Waits until `done` holds for the output, for at most `timeout`; returns whether it held.
    pub fn wait_until(&self, timeout: Duration, done: impl Fn(&str) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if done(&self.output()) {
                return true;
            }
            if Instant::now() >= deadline || self.server.is_finished() {
                return done(&self.output());
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Whether the session has stopped serving (it quit, or the input ended).
    pub fn is_closed(&self) -> bool {
        self.server.is_finished()
    }

    /// Ends the input and waits for the session to finish (a running search stopped and answered); returns
    /// the session and everything it answered.
    ///
    /// # Panics
    ///
    /// If the session panicked outside a search.
    pub fn close(mut self) -> (P, String) {
        self.input = None;
        let Connection { output, server, .. } = self;
        let protocol = server.join().expect("the session does not panic");
        let text =
            String::from_utf8_lossy(&output.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())).into_owned();
        (protocol, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sleep N` searches N milliseconds (or until stopped) and says how it ended; `panic` panics in search.
    #[derive(Default)]
    struct Sleeper {
        log: Vec<String>,
    }

    impl Protocol for Sleeper {
        type Outcome = bool;

        fn command(&mut self, line: &str) -> Action<bool> {
            self.log.push(line.to_string());
            if let Some(ms) = line.strip_prefix("sleep ").and_then(|n| n.parse::<u64>().ok()) {
                return Action::Search(Search::new(move |stop, emit| {
                    emit("started".into());
                    let deadline = Instant::now() + Duration::from_millis(ms);
                    while !stop.load(Relaxed) && Instant::now() < deadline {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    stop.load(Relaxed)
                }));
            }
            match line {
                "panic" => Action::Search(Search::new(|_, _| panic!("a search bug"))),
                "quit" => Action::Quit(vec!["bye".into()]),
                _ => Action::Reply(vec![format!("ok {line}")]),
            }
        }

        fn bad_line(&mut self, bad: &BadLine) -> Vec<String> {
            vec![format!("bad {}", bad.number)]
        }

        fn busy(&mut self, input: Input<'_>) -> Busy {
            match input {
                Input::Line("now") => Busy::Answer(vec!["now".into()]),
                Input::Line("stop") => Busy::Stop,
                Input::Line("quit") => Busy::StopThenServe,
                _ => Busy::Wait,
            }
        }

        fn finish(&mut self, outcome: Option<bool>) -> Vec<String> {
            vec![match outcome {
                Some(true) => "stopped".into(),
                Some(false) => "done".into(),
                None => "failed".into(),
            }]
        }
    }

    fn run(input: &'static [u8]) -> (Vec<String>, String) {
        let mut sleeper = Sleeper::default();
        let output = Shared::default();
        serve(&mut sleeper, input, output.clone()).unwrap();
        let text = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
        (sleeper.log, text)
    }

    /// What a connection has written after `input`, once `done` holds of it (within 20 s).
    fn output_once(input: &[u8], done: impl Fn(&str) -> bool) -> String {
        let connection = Connection::open(Sleeper::default());
        connection.send(input);
        assert!(connection.wait_until(Duration::from_secs(20), done), "{}", connection.output());
        connection.output()
    }

    #[test]
    fn input_waits_for_the_search_in_order_and_the_end_stops_it() {
        let (log, out) = run(b"a\nsleep 100000\nb\n\xfe\nsleep 100000\n");
        assert_eq!(out, "ok a\nstarted\nstopped\nok b\nbad 4\nstarted\nstopped\n");
        assert_eq!(log, ["a", "sleep 100000", "b", "sleep 100000"]);
    }

    #[test]
    fn waiting_input_is_served_when_the_search_ends_by_itself() {
        let out = output_once(b"sleep 30\nb\n", |o| o.contains("ok b"));
        assert_eq!(out, "started\ndone\nok b\n");
    }

    /// A GUI sends `stop` (or `ponderhit`) right after the `go` it is meant for, which may come while the search
    /// before still runs: it must reach the new search, and what waits is served in order.
    #[test]
    fn lines_behind_waiting_ones_keep_their_order_and_reach_the_search_they_follow() {
        let out = output_once(b"sleep 200\nb\nnow\nsleep 100000\nstop\n", |o| o.ends_with("stopped\n"));
        assert_eq!(out, "started\ndone\nok b\nok now\nstarted\nstopped\n");
    }

    #[test]
    fn quit_stops_the_search_then_ends_and_later_lines_are_not_read() {
        let (log, out) = run(b"sleep 100000\nquit\nnever\n");
        assert_eq!(out, "started\nstopped\nbye\n");
        assert_eq!(log, ["sleep 100000", "quit"]);
    }

    #[test]
    fn a_search_after_the_end_of_input_is_stopped_at_once() {
        let (_, out) = run(b"sleep 100000\nsleep 100000\n");
        assert_eq!(out, "started\nstopped\nstarted\nstopped\n");
    }

    #[test]
    fn a_panicking_search_is_finished_as_failed_and_serving_goes_on() {
        let (_, out) = run(b"panic\nx\n");
        assert_eq!(out, "failed\nok x\n");
    }

    #[test]
    fn a_connection_answers_while_searching() {
        let connection = Connection::open(Sleeper::default());
        connection.send_line("sleep 100000");
        assert!(connection.wait_until(Duration::from_secs(10), |o| o.contains("started")));
        connection.send(b"now\r\n");
        assert!(connection.wait_until(Duration::from_secs(10), |o| o.ends_with("now\n")));
        connection.send_line("stop");
        assert!(connection.wait_until(Duration::from_secs(10), |o| o.ends_with("stopped\n")));
        connection.send_line("quit");
        assert!(connection.wait_until(Duration::from_secs(10), |o| o.ends_with("bye\n")));
        assert!(connection.wait_until(Duration::from_secs(10), |_| connection.is_closed()));
        let (sleeper, _) = connection.close();
        assert_eq!(sleeper.log, ["sleep 100000", "quit"]);
    }

    #[test]
    fn answer_runs_a_search_inline() {
        let mut sleeper = Sleeper::default();
        assert_eq!(answer(&mut sleeper, "sleep 1"), ["started", "done"]);
        assert_eq!(answer(&mut sleeper, "quit"), ["bye"]);
    }
}
