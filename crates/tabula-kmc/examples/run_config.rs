//! Runs a config (the built-in example if none is given) and prints its summary: what `tabula kmc run` does.
//!
//! ```text
//! cargo run --release -p tabula-kmc --example run_config -- [CONFIG.toml] [OUTPUT_DIR]
//! ```

use std::path::PathBuf;
use tabula_kmc::{example_config, run, Config};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let text = match args.next() {
        Some(path) => std::fs::read_to_string(path)?,
        None => example_config().to_string(),
    };
    let output = args.next().map_or_else(|| PathBuf::from("kmc-out"), PathBuf::from);
    let config = Config::from_toml(&text)?;
    let summary = run(&config, &output, true)?;
    println!("{summary}");
    Ok(())
}
