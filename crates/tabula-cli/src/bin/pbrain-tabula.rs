//! `pbrain-tabula`: the Gomocup (Piskvork) engine. Reads protocol lines on stdin, answers on stdout.
//!
//! A reader thread keeps reading stdin while the engine thinks, so that `END` stops a search at once; all
//! protocol logic lives in [`tabula_gomoku::Session`].

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc;

fn main() -> anyhow::Result<()> {
    let mut session = tabula_gomoku::Session::new();
    let stop = session.stop_flag();
    let (sender, lines) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line.trim().eq_ignore_ascii_case("END") {
                stop.store(true, Relaxed);
            }
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let stdout = std::io::stdout();
    for line in lines {
        let answer = session.handle(&line);
        let mut out = stdout.lock();
        for reply in answer {
            write!(out, "{reply}\r\n")?;
        }
        out.flush()?;
        if session.is_ended() {
            break;
        }
    }
    Ok(())
}
