//! The engine on standard input and output: `cargo run --release -p tabula-chess --example uci`, then type UCI
//! commands (`uci`, `position startpos`, `go depth 10`, `bench`, `quit`), or point a GUI at the binary.

fn main() -> std::io::Result<()> {
    tabula_chess::engine::uci::run_stdio()
}
