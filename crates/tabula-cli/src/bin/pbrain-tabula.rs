//! `pbrain-tabula`: the Gomocup (Piskvork) engine. Reads protocol lines on stdin, answers on stdout; all
//! protocol logic lives in [`tabula_gomoku::Session`], served by the shared protocol harness.

fn main() -> anyhow::Result<()> {
    Ok(tabula_gomoku::engine::gomocup::run_stdio()?)
}
