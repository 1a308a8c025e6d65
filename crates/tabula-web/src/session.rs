//! One game being played, written once over [`Front`]: its position, the moves played with the keys each one
//! XORed out and in, and searches of it run on a copy. The server holds sessions as `dyn` [`Session`] so that
//! one map holds every game; everything game-specific goes through the trait.

use crate::words::{Words, ENGLISH};
use serde::Serialize;
use std::collections::HashSet;
use tabula::search::Limits;
use tabula_protocol::front::{CellStyle, EngineConfig, Feature, Front, FrontError, Report, Setup, Think};

/// A game session as the server sees it, whatever the game.
pub(crate) trait Session: Send {
    /// The game's name.
    fn game(&self) -> &'static str;
    /// The state the page draws.
    fn state(&self) -> GameState;
    /// Plays the move written `text`.
    fn play(&mut self, text: &str) -> Result<(), FrontError>;
    /// Takes back the last move; false if there is none.
    fn undo(&mut self) -> bool;
    /// A search of the current position, to run on another thread; `None` if the game is over.
    fn search(&self, config: EngineConfig) -> Option<SearchJob>;
}

/// A search ready to run: the limits, and a sink for each iteration's report; returns the final report.
pub(crate) type SearchJob = Box<dyn FnOnce(&Limits, &mut dyn FnMut(SearchReport)) -> SearchReport + Send>;

/// Creates a session of `G` from the start of `setup`'s variant, or from `position` if not empty.
pub(crate) fn create<G: Front + 'static>(setup: &Setup, position: &str) -> Result<Box<dyn Session>, FrontError> {
    let game = if position.trim().is_empty() { G::start(setup)? } else { G::parse_position(position, setup)? };
    Ok(Box::new(Typed { game, history: Vec::new() }))
}

/// A session of one game type.
struct Typed<G: Front> {
    game: G,
    /// The moves played, with what each did to the key.
    history: Vec<(G::Move, Played)>,
}

/// A move that was played and the keys it changed.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Played {
    /// The move: as the game writes it (SAN for chess) and where it is drawn.
    #[serde(flatten)]
    pub mv: MoveJson,
    /// The key before the move, in hex.
    pub key_before: String,
    /// The key after it.
    pub key_after: String,
    /// The features the move removed: their keys were XORed out.
    pub xor_out: Vec<FeatureJson>,
    /// The features it added: their keys were XORed in.
    pub xor_in: Vec<FeatureJson>,
    /// Whether the key before, XORed with every key out and in, gives the key after.
    pub adds_up: bool,
}

/// A Zobrist feature: its name (in English and as words) and key in hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct FeatureJson {
    pub name: String,
    pub words: Words,
    pub key: String,
}

impl FeatureJson {
    fn new(game: &str, f: &Feature) -> FeatureJson {
        FeatureJson { name: f.name.clone(), words: ENGLISH.words(game, &f.name), key: format!("{:016x}", f.key) }
    }
}

/// A move and where it is drawn.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct MoveJson {
    /// The move as the game writes it, and reads it back.
    pub text: String,
    /// The move in the coordinates engines print (UCI, ICCS), for a page that does not show the game's own
    /// notation (xiangqi's Chinese in English).
    pub coordinate: String,
    /// A move not drawn on the board (a pass) in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<Words>,
    pub from: Option<usize>,
    pub to: Option<usize>,
}

/// The board as cells.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct CellsJson {
    pub width: usize,
    pub height: usize,
    pub marks: Vec<String>,
    pub style: &'static str,
    pub drop: bool,
    /// Cells the rules single out, with why.
    pub notes: Vec<CellNote>,
}

/// A cell the rules single out now, and why (in English and as words).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct CellNote {
    pub cell: usize,
    pub why: String,
    pub words: Words,
}

/// Everything the page shows of a position.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct GameState {
    pub game: &'static str,
    /// The position in the game's notation (FEN, SGF, the moves played), as the load box reads it back.
    pub position: String,
    pub board_text: String,
    pub cells: Option<CellsJson>,
    pub side: String,
    pub side_words: Words,
    pub result: Option<String>,
    pub result_words: Option<Words>,
    pub key: String,
    /// The features whose keys XOR to the key.
    pub features: Vec<FeatureJson>,
    pub moves: Vec<MoveJson>,
    pub history: Vec<Played>,
    pub move_help: &'static str,
    pub position_help: &'static str,
    pub position_help_words: Words,
}

/// One report of a search, as the page shows it.
#[derive(Clone, Debug, Default, Serialize)]
pub(crate) struct SearchReport {
    pub best: Option<String>,
    /// The best move written and drawn.
    pub best_move: Option<MoveJson>,
    pub score: String,
    pub score_words: Words,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub nodes: u64,
    pub unit: &'static str,
    pub unit_words: Words,
    pub nps: f64,
    pub elapsed_ms: f64,
    pub table: Option<TableJson>,
    /// How full the table is, in permille.
    pub hashfull: Option<u32>,
    pub pv: Vec<MoveJson>,
    pub notes: Vec<String>,
    pub notes_words: Vec<Words>,
}

/// Transposition table use.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub(crate) struct TableJson {
    pub probes: u64,
    pub hits: u64,
    pub cutoffs: u64,
}

impl<G: Front> Typed<G> {
    fn move_json(game: &G, mv: G::Move) -> MoveJson {
        let cells = game.move_cells(mv);
        let text = game.move_text(mv);
        // Only a move off the board (a pass) is a word; the others are notation.
        let words = cells.is_none().then(|| ENGLISH.words(G::NAME, &text)).filter(|w| matches!(w, Words::Said { .. }));
        MoveJson {
            coordinate: game.coordinate_text(mv),
            text,
            words,
            from: cells.and_then(|c| c.from),
            to: cells.map(|c| c.to),
        }
    }
}

/// The report as the page shows it, the PV written move by move from `game`.
fn report_json<G: Front>(game: &G, report: &Report<G::Move>) -> SearchReport {
    let mut line = game.clone();
    let mut pv = Vec::with_capacity(report.pv.len());
    for &mv in &report.pv {
        pv.push(Typed::move_json(&line, mv));
        line.play(mv);
    }
    let words = |text: &str| ENGLISH.words(G::NAME, text);
    SearchReport {
        best: report.best.map(|m| game.move_text(m)),
        best_move: report.best.map(|m| Typed::move_json(game, m)),
        score: report.score.clone(),
        score_words: words(&report.score),
        depth: report.depth,
        seldepth: report.seldepth,
        nodes: report.nodes,
        unit: report.unit,
        unit_words: words(report.unit),
        nps: report.speed(),
        elapsed_ms: report.elapsed.as_secs_f64() * 1e3,
        table: report.table.map(|t| TableJson { probes: t.probes, hits: t.hits, cutoffs: t.cutoffs }),
        hashfull: report.hashfull,
        pv,
        notes: report.notes.clone(),
        notes_words: report.notes.iter().map(|n| words(n)).collect(),
    }
}

/// The features removed and added between two positions: the symmetric difference of their feature sets.
fn difference(game: &str, before: &[Feature], after: &[Feature]) -> (Vec<FeatureJson>, Vec<FeatureJson>) {
    let old: HashSet<&Feature> = before.iter().collect();
    let new: HashSet<&Feature> = after.iter().collect();
    let out = before.iter().filter(|f| !new.contains(f)).map(|f| FeatureJson::new(game, f)).collect();
    let added = after.iter().filter(|f| !old.contains(f)).map(|f| FeatureJson::new(game, f)).collect();
    (out, added)
}

impl<G: Front + 'static> Session for Typed<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn state(&self) -> GameState {
        let game = &self.game;
        let (side, result) = (game.side_name(), game.result_text());
        let mut moves = Vec::new();
        if game.outcome().is_none() {
            game.legal_moves(&mut moves);
        }
        GameState {
            game: G::NAME,
            position: game.position_text(),
            board_text: game.board_text(),
            cells: game.cells().map(|c| CellsJson {
                width: c.width,
                height: c.height,
                marks: c.marks,
                style: match c.style {
                    CellStyle::Checkered => "checkered",
                    CellStyle::Boxes => "boxes",
                    CellStyle::Points => "points",
                },
                drop: c.drop,
                notes: c
                    .notes
                    .into_iter()
                    .map(|(cell, why)| CellNote { cell, words: ENGLISH.words(G::NAME, &why), why })
                    .collect(),
            }),
            side: side.clone(),
            side_words: ENGLISH.words(G::NAME, &side),
            result_words: result.as_deref().map(|r| ENGLISH.words(G::NAME, r)),
            result,
            key: game.key_text(),
            features: game.key_features().iter().map(|f| FeatureJson::new(G::NAME, f)).collect(),
            moves: moves.into_iter().map(|mv| Self::move_json(game, mv)).collect(),
            history: self.history.iter().map(|(_, played)| played.clone()).collect(),
            move_help: G::MOVE_HELP,
            position_help: G::POSITION_HELP,
            position_help_words: ENGLISH.words(G::NAME, G::POSITION_HELP),
        }
    }

    fn play(&mut self, text: &str) -> Result<(), FrontError> {
        if let Some(result) = self.game.result_text() {
            return Err(FrontError::bad_move(text, format!("the game is over: {result}")));
        }
        let mv = self.game.parse_move(text)?;
        let shown = Self::move_json(&self.game, mv);
        let (key_before, before) = (self.game.key(), self.game.key_features());
        self.game.play(mv);
        let (key_after, after) = (self.game.key(), self.game.key_features());
        let (xor_out, xor_in) = difference(G::NAME, &before, &after);
        let changed = before.iter().filter(|f| !after.contains(f)).chain(after.iter().filter(|f| !before.contains(f)));
        let adds_up =
            !(before.is_empty() && after.is_empty()) && changed.fold(key_before, |k, f| k ^ f.key) == key_after;
        let played = Played {
            mv: shown,
            key_before: format!("{key_before:016x}"),
            key_after: format!("{key_after:016x}"),
            xor_out,
            xor_in,
            adds_up,
        };
        self.history.push((mv, played));
        Ok(())
    }

    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((mv, _)) => {
                self.game.undo(mv);
                true
            }
            None => false,
        }
    }

    fn search(&self, config: EngineConfig) -> Option<SearchJob> {
        if self.game.outcome().is_some() {
            return None;
        }
        let game = self.game.clone();
        Some(Box::new(move |limits: &Limits, sink: &mut dyn FnMut(SearchReport)| {
            let mut engine = G::engine(&config);
            let mut hashfull = None;
            let report = engine.think(&game, limits, &mut |r| {
                hashfull = r.hashfull.or(hashfull);
                sink(report_json(&game, r))
            });
            // The final report says how full the table was as of the last iteration, if it does not say itself.
            let mut json = report_json(&game, &report);
            json.hashfull = json.hashfull.or(hashfull);
            json
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::Key;

    #[test]
    fn the_difference_keeps_what_each_side_alone_has() {
        let a = Feature::new("a", Key(1));
        let b = Feature::new("b", Key(2));
        let c = Feature::new("c", Key(4));
        let (out, added) = difference("chess", &[a.clone(), b.clone()], &[b, c]);
        assert_eq!(out, [FeatureJson::new("chess", &a)]);
        assert_eq!(added.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["c"]);
    }
}
