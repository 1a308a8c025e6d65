//! The [`board_front!`](crate::board_front) macro: the parts of `tabula_protocol::front::Front` that chess
//! and xiangqi give alike, around the items a game says itself (its name, its notation, its board drawn).
//!
//! It expands in the game's crate, which depends on `tabula-protocol` for its front (the board layer does
//! not).

/// Implements `tabula_protocol::front::Front` for `$position`, thought about by `$engine` (a
/// `tabula::search::Engine` the front configures), with the Zobrist key set `$keys` (a slice), then the items
/// given.
///
/// The shared parts: a position is written as FEN, read from FEN or `startpos`, and the game has no variant
/// settings; scores read as "mate in N" or centipawns; the engine gets the hash size, threads and table use of
/// the configuration; the key quality is that of `$keys`.
#[macro_export]
macro_rules! board_front {
    ($position:ident, $engine:ty, $keys:expr, { $($items:tt)* }) => {
        impl ::tabula_protocol::front::Front for $position {
            const POSITION_HELP: &'static str = "a FEN, or `startpos`";
            const WORDING: ::tabula::score::Wording =
                ::tabula::score::Wording { distance: ::tabula::score::Distance::Mate, unit: "cp", margin_unit: "" };
            type Engine = $engine;

            fn start(setup: &::tabula_protocol::front::Setup) -> Result<$position, ::tabula_protocol::front::FrontError> {
                setup.allow(Self::NAME, &[])?;
                Ok($position::startpos())
            }

            fn parse_position(
                text: &str,
                setup: &::tabula_protocol::front::Setup,
            ) -> Result<$position, ::tabula_protocol::front::FrontError> {
                setup.allow(Self::NAME, &[])?;
                match text.trim() {
                    "" | "startpos" => Ok($position::startpos()),
                    fen => $position::from_fen(fen).map_err(|e| ::tabula_protocol::front::FrontError::position(fen, e)),
                }
            }

            fn position_text(&self) -> String {
                self.to_fen()
            }

            fn engine(config: &::tabula_protocol::front::EngineConfig) -> $engine {
                let mut engine = <$engine>::new(config.hash_mib);
                engine.set_threads(config.threads);
                engine.set_table_use(config.table);
                engine
            }

            fn key_quality() -> ::tabula::quality::QualityReport {
                ::tabula::quality::check($keys)
            }

            $($items)*
        }
    };
}
