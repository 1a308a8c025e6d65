//! The games of a `tabula match` Gomoku record (`-o` of a match, 15×15) and the selection of them that
//! `review` and `probe` look at: one player's games ([`Selection`]), only those it lost with `--lost`.
//!
//! A record holds each game as a header `# Round R Black "B" White "W" Result T (reason)` and the moves on the
//! next line, blank lines between games.

use crate::data::read_lines;
use anyhow::bail;
use tabula_gomoku::Rule;

/// The games of a `tabula match` record that `review` and `probe` look at, and the moves in them.
#[derive(clap::Args)]
pub struct Selection {
    /// The games, as `tabula match -o` writes them.
    pub games: String,
    /// The player looked at, named as the record names it.
    #[arg(long)]
    pub player: String,
    /// The stones of each game's opening, not looked at.
    #[arg(long, default_value_t = 4)]
    pub opening: usize,
    /// Only the games the player lost.
    #[arg(long)]
    pub lost: bool,
    /// The rule the games were played under: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
}

impl Selection {
    /// The games the player played (only those it lost, with `lost`), with its seat: 0 black, 1 white.
    pub fn read(&self) -> anyhow::Result<Vec<(Record, usize)>> {
        let games: Vec<(Record, usize)> = read_records(&self.games)?
            .into_iter()
            .filter_map(|r| {
                let seat = r.names.iter().position(|n| *n == self.player)?;
                let won = r.result == ["1-0", "0-1"][seat];
                (!self.lost || (!won && r.result != "1/2-1/2")).then_some((r, seat))
            })
            .collect();
        if games.is_empty() {
            bail!("{}: no game of {:?}{}", self.games, self.player, if self.lost { " lost" } else { "" });
        }
        Ok(games)
    }
}

/// One game of a `tabula match` record.
pub struct Record {
    /// Where its header is, `file:line`.
    pub at: String,
    pub round: String,
    /// The players, black first.
    pub names: [String; 2],
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    pub moves: String,
}

/// The games of a `tabula match` Gomoku record: a header `# Round R Black "B" White "W" Result T (reason)`,
/// the moves on the next line, blank lines between games.
fn read_records(path: &str) -> anyhow::Result<Vec<Record>> {
    let lines = read_lines(path)?;
    let mut records = Vec::new();
    let mut lines = lines.iter().enumerate().filter(|(_, l)| !l.trim().is_empty());
    while let Some((n, header)) = lines.next() {
        let at = format!("{path}:{}", n + 1);
        let parts: Vec<&str> = header.split('"').collect();
        let round = parts[0].strip_prefix("# Round ").and_then(|r| r.strip_suffix(" Black "));
        let result = parts.get(4).and_then(|r| r.strip_prefix(" Result ")).and_then(|r| r.split_whitespace().next());
        let (Some(round), Some(result), 5, Some(&" White ")) = (round, result, parts.len(), parts.get(2)) else {
            bail!("{at}: not a game's header (# Round R Black \"B\" White \"W\" Result T): {header}");
        };
        let Some((_, moves)) = lines.next() else { bail!("{at}: the game has no moves line") };
        let names = [parts[1].to_owned(), parts[3].to_owned()];
        records.push(Record { at, round: round.to_owned(), names, result: result.to_owned(), moves: moves.clone() });
    }
    Ok(records)
}
