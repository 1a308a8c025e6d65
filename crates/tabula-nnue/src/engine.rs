//! What a game's engine plays a network with, once for every game: [`EnginePosition`], the position a search
//! walks with the network's [`Accumulators`] along its line of play; [`NetEvaluation`], the network or the
//! game's own (classical) evaluation, by [`EvalKind`]; and [`EvalOptions`], the protocol options `Evaluation`
//! and `EvalFile` that choose between them. A game says what is its own in [`NetGame`]: its classical
//! evaluation, the network it embeds (if any), its search options, bench positions and setup.
//!
//! The rules' position knows nothing of any network: it records what each move changed on the board
//! ([`NetPosition::placement_change`]), a fact of the rules. The accumulators a network updates from those
//! changes are the evaluator's state, and belong to the line of play one search thread walks: the engine
//! searches [`EnginePosition`], which owns a position and its accumulators and plays the [`Game`] by
//! delegation (its hooks are the position's). The core's search clones the game for each thread, so each
//! thread has accumulators of its own, as a search thread does in Stockfish. The wrapper changes only through
//! [`Game::play`] and [`Game::undo`], which keep the accumulators' record of the line in step with the
//! position's history.
//!
//! Move ordering, quiescence's noisy moves, the tactical test and the correction key are the classical
//! evaluation's whichever evaluates: the network only scores positions.

use crate::{color_index, names_embedded, Accumulators, NetError, NetPosition, Network, EMBEDDED_NAME};
use std::fmt;
use std::sync::{Arc, Mutex};
use tabula::game::{Evaluator, EvaluatorHooks, Game, HookedGame, Hooks, Outcome, PieceTo, Repetition, Symmetries};
use tabula::score::Score;
use tabula::search::{Engine, Limits, Playable, SearchOptions};
use tabula::Key;
#[cfg(doc)]
use tabula_protocol::front::Think;
use tabula_protocol::front::{Front, Report};
use tabula_protocol::uci::CommandError;
use tabula_protocol::uci_session::UciPosition;

/// The largest evaluation a network gives, in centipawns: within the evaluation's range whatever the weights,
/// far below the decisive scores.
pub const NETWORK_BOUND: Score = 20_000;

/// The value of `EvalFile` that names no file (the UCI convention for an empty string).
const EMPTY: &str = "<empty>";

/// What a game adds to its rules for its engine to play with or without a network. The game's position
/// implements it; the engine then searches [`EnginePosition`]s of it.
pub trait NetGame: NetPosition + Game + PartialEq + fmt::Debug + Sync + 'static {
    /// The game's own evaluation of the position, which evaluates without a network and orders the moves
    /// (and gives the search hooks) with one.
    type Classical: Evaluator<Self> + Clone + Default + fmt::Debug + Send;
    /// The name of the classical evaluation as the `Evaluation` option gives it (chess: `tapered`).
    const CLASSICAL_NAME: &'static str;

    /// The network the game embeds, parsed once; `None` while it embeds none.
    fn embedded_network() -> Option<Arc<Network<Self::Geometry>>>;

    /// Whether the classical evaluation scores this position even when a network is set (chess: the endings
    /// against a bare king, which the classical one drives to mate).
    #[inline(always)]
    fn classical_only(&self) -> bool {
        false
    }

    /// The search options the engine plays with on `threads` threads.
    fn engine_options(threads: usize) -> SearchOptions;

    /// The keys of the positions before this one in the game's own history, oldest first.
    fn history_keys(&self) -> Vec<Key>;

    /// The positions the engine's bench searches, as FENs.
    const BENCH_POSITIONS: &'static [&'static str];

    /// The game's start position.
    fn startpos() -> Self;

    /// Reads and validates a FEN.
    ///
    /// # Errors
    ///
    /// [`CommandError::Fen`] with the game's error.
    fn from_fen(fen: &str) -> Result<Self, CommandError>;
}

/// A position with the network's accumulators along its line of play. See the [module documentation](self).
#[derive(Clone, Debug, Default)]
pub struct EnginePosition<P: NetPosition> {
    position: P,
    accumulators: Accumulators<P::Geometry>,
}

impl<P: NetPosition> EnginePosition<P> {
    /// `position`, with no accumulators computed yet.
    pub fn new(position: P) -> EnginePosition<P> {
        EnginePosition { position, accumulators: Accumulators::default() }
    }

    /// The position.
    #[inline(always)]
    pub fn position(&self) -> &P {
        &self.position
    }

    /// The position, the accumulators dropped.
    pub fn into_position(self) -> P {
        self.position
    }

    /// The network's accumulators along the position's history, for the network to bring up to date.
    #[inline(always)]
    pub fn accumulators(&self) -> &Accumulators<P::Geometry> {
        &self.accumulators
    }
}

impl<P: NetPosition> From<P> for EnginePosition<P> {
    fn from(position: P) -> EnginePosition<P> {
        EnginePosition::new(position)
    }
}

impl<P: NetPosition + PartialEq> PartialEq for EnginePosition<P> {
    /// The positions' equality: the accumulators are a cache.
    fn eq(&self, other: &EnginePosition<P>) -> bool {
        self.position == other.position
    }
}

impl<P: NetPosition + Eq> Eq for EnginePosition<P> {}

/// The position's rules, and after each take-back the accumulators of the positions past the history's end
/// marked stale.
impl<P: NetPosition + Game> Game for EnginePosition<P> {
    type Move = P::Move;

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<P::Move>) {
        self.position.legal_moves(moves);
    }

    #[inline]
    fn play(&mut self, mv: P::Move) {
        self.position.play(mv);
    }

    #[inline]
    fn undo(&mut self, mv: P::Move) {
        self.position.undo(mv);
        self.accumulators.forget_after(self.position.history_len());
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.position.is_over()
    }

    #[inline]
    fn key(&self) -> Key {
        self.position.key()
    }

    #[inline]
    fn move_code(mv: P::Move) -> u16 {
        P::move_code(mv)
    }

    const MOVE_CODES: usize = P::MOVE_CODES;

    #[inline]
    fn perft_moves(&self, moves: &mut Vec<P::Move>) {
        self.position.perft_moves(moves);
    }

    #[inline]
    fn perft_count(&self, scratch: &mut Vec<P::Move>) -> u64 {
        self.position.perft_count(scratch)
    }

    /// The position's hooks, each asked of the position.
    const HOOKS: Hooks<EnginePosition<P>> = Hooks {
        winning_move: match P::HOOKS.winning_move {
            Some(_) => Some(|game| HookedGame::winning_move(&game.position)),
            None => None,
        },
        non_losing_moves: match P::HOOKS.non_losing_moves {
            Some(_) => Some(|game, moves| HookedGame::non_losing_moves(&game.position, moves)),
            None => None,
        },
        possible_winners: match P::HOOKS.possible_winners {
            Some(_) => Some(|game| HookedGame::possible_winners(&game.position)),
            None => None,
        },
        in_check: match P::HOOKS.in_check {
            Some(_) => Some(|game| HookedGame::in_check(&game.position)),
            None => None,
        },
        null_move: match P::HOOKS.null_move {
            Some(_) => Some(|game| HookedGame::null_move(&game.position)),
            None => None,
        },
        symmetry: match P::HOOKS.symmetry {
            Some(_) => Some(Symmetries {
                table_key: |game| HookedGame::table_key(&game.position),
                canonical_move_code: <P as HookedGame>::canonical_move_code,
                actual_move_code: <P as HookedGame>::actual_move_code,
            }),
            None => None,
        },
        child_table_key: match P::HOOKS.child_table_key {
            Some(_) => Some(|game, mv| HookedGame::child_table_key(&game.position, mv)),
            None => None,
        },
        repetition: match P::HOOKS.repetition {
            Some(_) => Some(Repetition { reversible_plies: reversible_plies::<P>, outcome: repetition_outcome::<P> }),
            None => None,
        },
        remaining: match P::HOOKS.remaining {
            Some(_) => Some(|game| HookedGame::remaining(&game.position)),
            None => None,
        },
        piece_to: match P::HOOKS.piece_to {
            Some(piece_to) => {
                Some(PieceTo { codes: piece_to.codes, code: |game, mv| HookedGame::piece_to(&game.position, mv) })
            }
            None => None,
        },
    };
}

#[inline(always)]
fn reversible_plies<P: NetPosition + Game>(game: &EnginePosition<P>) -> usize {
    HookedGame::reversible_plies(&game.position).expect("the position names the repetition hook")
}

#[inline(always)]
fn repetition_outcome<P: NetPosition + Game>(game: &EnginePosition<P>, cycle: usize) -> Outcome {
    HookedGame::repetition_outcome(&game.position, cycle)
}

/// Which evaluation the engine plays with, by the name the `Evaluation` option gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// The game's own evaluation ([`NetGame::Classical`]).
    Classical,
    /// A network.
    Nnue,
}

impl EvalKind {
    /// Both kinds.
    pub const ALL: [EvalKind; 2] = [EvalKind::Classical, EvalKind::Nnue];

    /// The evaluation the engine of `P` plays with by default: its network if it embeds one, else its
    /// classical evaluation.
    pub fn default_of<P: NetGame>() -> EvalKind {
        if P::embedded_network().is_some() {
            EvalKind::Nnue
        } else {
            EvalKind::Classical
        }
    }

    /// The option value naming this evaluation in the game of `P`: `nnue`, or the classical evaluation's name.
    pub fn name_in<P: NetGame>(self) -> &'static str {
        match self {
            EvalKind::Classical => P::CLASSICAL_NAME,
            EvalKind::Nnue => "nnue",
        }
    }

    /// The evaluation named `name` in the game of `P` (any case).
    pub fn from_name_in<P: NetGame>(name: &str) -> Option<EvalKind> {
        EvalKind::ALL.into_iter().find(|k| k.name_in::<P>().eq_ignore_ascii_case(name))
    }
}

/// The evaluator the engine plays with: the game's classical evaluation or a network, which evaluates through
/// the accumulators the searched [`EnginePosition`] keeps. Cheap to clone (the network is shared).
pub struct NetEvaluation<P: NetGame> {
    classical: P::Classical,
    network: Option<Arc<Network<P::Geometry>>>,
}

impl<P: NetGame> NetEvaluation<P> {
    /// The classical evaluation.
    pub fn classical() -> NetEvaluation<P> {
        NetEvaluation { classical: P::Classical::default(), network: None }
    }

    /// The network `network`.
    pub fn network(network: Arc<Network<P::Geometry>>) -> NetEvaluation<P> {
        NetEvaluation { classical: P::Classical::default(), network: Some(network) }
    }

    /// The evaluation of `kind`, with the embedded network for [`EvalKind::Nnue`]; `None` for a network
    /// where the game embeds none.
    pub fn of_kind(kind: EvalKind) -> Option<NetEvaluation<P>> {
        match kind {
            EvalKind::Classical => Some(NetEvaluation::classical()),
            EvalKind::Nnue => P::embedded_network().map(NetEvaluation::network),
        }
    }

    /// Which evaluation this is.
    pub fn kind(&self) -> EvalKind {
        if self.network.is_some() {
            EvalKind::Nnue
        } else {
            EvalKind::Classical
        }
    }

    /// The network, if a network evaluates.
    pub fn network_in_use(&self) -> Option<&Arc<Network<P::Geometry>>> {
        self.network.as_ref()
    }
}

impl<P: NetGame> Clone for NetEvaluation<P> {
    fn clone(&self) -> NetEvaluation<P> {
        NetEvaluation { classical: self.classical.clone(), network: self.network.clone() }
    }
}

impl<P: NetGame> fmt::Debug for NetEvaluation<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NetEvaluation").field("kind", &self.kind()).field("classical", &self.classical).finish()
    }
}

impl<P: NetGame> Default for NetEvaluation<P> {
    /// The embedded network if the game embeds one, else the classical evaluation.
    fn default() -> NetEvaluation<P> {
        NetEvaluation { classical: P::Classical::default(), network: P::embedded_network() }
    }
}

/// The evaluation of the position the engine searches: a network brings up to date the accumulators kept
/// beside it; the moves are ordered, and the search hooks answered, by the classical evaluation.
impl<P: NetGame> Evaluator<EnginePosition<P>> for NetEvaluation<P> {
    #[inline]
    fn evaluate(&self, game: &EnginePosition<P>) -> Score {
        let pos = &game.position;
        match &self.network {
            Some(net) if !pos.classical_only() => {
                net.evaluate_along(pos, &game.accumulators).clamp(-NETWORK_BOUND, NETWORK_BOUND)
            }
            _ => self.classical.evaluate(pos),
        }
    }

    #[inline]
    fn move_order(&self, game: &EnginePosition<P>, mv: P::Move) -> i32 {
        self.classical.move_order(&game.position, mv)
    }

    #[inline]
    fn move_orders(&self, game: &EnginePosition<P>, moves: &[P::Move], hints: &mut Vec<i32>) {
        self.classical.move_orders(&game.position, moves, hints)
    }

    /// The classical evaluation's hooks, each asked of it on the position.
    const HOOKS: EvaluatorHooks<EnginePosition<P>, NetEvaluation<P>> = {
        let hooks = &<P::Classical as Evaluator<P>>::HOOKS;
        EvaluatorHooks {
            noisy_moves: match hooks.noisy_moves {
                Some(_) => Some(|e, game, moves| {
                    if let Some(hook) = <P::Classical as Evaluator<P>>::HOOKS.noisy_moves {
                        hook(&e.classical, &game.position, moves)
                    }
                }),
                None => None,
            },
            noisy_gain: match hooks.noisy_gain {
                Some(_) => Some(|e, game, mv| {
                    <P::Classical as Evaluator<P>>::HOOKS
                        .noisy_gain
                        .and_then(|hook| hook(&e.classical, &game.position, mv))
                }),
                None => None,
            },
            is_tactical: match hooks.is_tactical {
                Some(_) => Some(|e, game, mv| {
                    <P::Classical as Evaluator<P>>::HOOKS
                        .is_tactical
                        .is_some_and(|hook| hook(&e.classical, &game.position, mv))
                }),
                None => None,
            },
            winning_plan: match hooks.winning_plan {
                Some(_) => Some(|e, game| {
                    <P::Classical as Evaluator<P>>::HOOKS
                        .winning_plan
                        .and_then(|hook| hook(&e.classical, &game.position))
                }),
                None => None,
            },
            threat_replies: match hooks.threat_replies {
                Some(_) => Some(|e, game, moves| {
                    <P::Classical as Evaluator<P>>::HOOKS
                        .threat_replies
                        .and_then(|hook| hook(&e.classical, &game.position, moves))
                }),
                None => None,
            },
            correction_key: match hooks.correction_key {
                Some(_) => Some(|e, game| {
                    <P::Classical as Evaluator<P>>::HOOKS
                        .correction_key
                        .and_then(|hook| hook(&e.classical, &game.position))
                }),
                None => None,
            },
        }
    };
}

/// The engine's evaluation, options, history and benchmark: the game's.
impl<P: NetGame> Playable for EnginePosition<P> {
    type Evaluation = NetEvaluation<P>;

    fn engine_options(threads: usize) -> SearchOptions {
        P::engine_options(threads)
    }

    fn history_keys(&self) -> Vec<Key> {
        self.position.history_keys()
    }

    fn bench_positions() -> Vec<EnginePosition<P>> {
        let position = |fen| P::from_fen(fen).expect("bench positions are legal");
        P::BENCH_POSITIONS.iter().map(|fen| EnginePosition::new(position(fen))).collect()
    }
}

/// The sessions of the UCI family keep the position the engine searches.
impl<P: NetGame<Move: Sync> + Clone + Send> UciPosition for EnginePosition<P> {
    fn startpos() -> EnginePosition<P> {
        EnginePosition::new(P::startpos())
    }

    fn from_fen(fen: &str) -> Result<EnginePosition<P>, CommandError> {
        P::from_fen(fen).map(EnginePosition::new)
    }

    fn to_fen(&self) -> String {
        self.position.to_text()
    }

    fn side_to_move(&self) -> usize {
        color_index::<P::Geometry>(self.position.turn())
    }
}

/// What a game's [`Think`] for its engine does: searches `game` as an [`EnginePosition`] with accumulators of
/// its own, and reports in the game's words.
pub fn think<P: NetGame + Front>(
    engine: &mut Engine<EnginePosition<P>>,
    game: &P,
    limits: &Limits,
    progress: &mut dyn FnMut(&Report<P::Move>),
) -> Report<P::Move> {
    let game = EnginePosition::new(game.clone());
    let result = engine.search(&game, limits, |it| progress(&Report::from_iteration(it, &P::WORDING)));
    Report::from_result(result, &P::WORDING)
}

/// What a protocol session's `Evaluation` and `EvalFile` options have chosen: the kind of evaluation, and the
/// network a network evaluation uses (the embedded one, if the game embeds one, until a file is given).
///
/// Either option may come first: `Evaluation nnue` before any network is loaded is answered with an error
/// and the engine keeps the classical evaluation, and switches to the network when `EvalFile` loads one.
pub struct EvalOptions<P: NetGame> {
    kind: EvalKind,
    network: Option<Arc<Network<P::Geometry>>>,
}

impl<P: NetGame> Default for EvalOptions<P> {
    fn default() -> EvalOptions<P> {
        EvalOptions { kind: EvalKind::default_of::<P>(), network: P::embedded_network() }
    }
}

impl<P: NetGame> EvalOptions<P> {
    /// The kind `Evaluation` asks for.
    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    /// The evaluation the options ask for: the network for [`EvalKind::Nnue`] once one is loaded, else the
    /// classical evaluation.
    pub fn evaluation(&self) -> NetEvaluation<P> {
        match (&self.network, self.kind) {
            (Some(net), EvalKind::Nnue) => NetEvaluation::network(Arc::clone(net)),
            _ => NetEvaluation::classical(),
        }
    }

    /// The value `EvalFile` has until it is set: [`EMBEDDED_NAME`] if the game embeds a network, else
    /// `<empty>`.
    pub fn default_file() -> &'static str {
        if P::embedded_network().is_some() {
            EMBEDDED_NAME
        } else {
            EMPTY
        }
    }

    /// What the option values may be: `nnue or tapered`, for the error of a bad `Evaluation`.
    fn expected() -> &'static str {
        match P::CLASSICAL_NAME {
            "tapered" => "nnue or tapered",
            "classical" => "nnue or classical",
            _ => "nnue or the classical evaluation's name",
        }
    }

    /// The options' declarations in UCI's words (`option name Evaluation type combo ...`); a protocol that
    /// words them otherwise builds its lines from [`EvalKind::name_in`] and [`default_file`](Self::default_file).
    pub fn uci_options() -> [String; 2] {
        let default = EvalKind::default_of::<P>().name_in::<P>();
        let (nnue, classical) = (EvalKind::Nnue.name_in::<P>(), EvalKind::Classical.name_in::<P>());
        [
            format!("option name Evaluation type combo default {default} var {nnue} var {classical}"),
            format!("option name EvalFile type string default {}", Self::default_file()),
        ]
    }

    /// Sets `Evaluation` to `value` (`nnue` or the classical evaluation's name, any case); the engine is then
    /// to evaluate with [`evaluation`](Self::evaluation).
    ///
    /// # Errors
    ///
    /// A value that names no evaluation (nothing changes); `nnue` while no network is loaded (the kind is
    /// kept for when `EvalFile` loads one, and the classical evaluation plays meanwhile).
    pub fn set_kind(&mut self, value: &str) -> Result<(), CommandError> {
        self.kind = EvalKind::from_name_in::<P>(value)
            .ok_or_else(|| CommandError::bad("Evaluation", Self::expected(), Some(value)))?;
        if self.kind == EvalKind::Nnue && self.network.is_none() {
            return Err(CommandError::File(Box::new(NoNetwork { classical: P::CLASSICAL_NAME })));
        }
        Ok(())
    }

    /// Sets `EvalFile` to `value`: a weights file's path, or [`EMBEDDED_NAME`], `<empty>` or nothing for the
    /// embedded network. Returns the line to report a file loaded; the engine is then to evaluate with
    /// [`evaluation`](Self::evaluation).
    ///
    /// # Errors
    ///
    /// A file that cannot be read or is not a network of this board (the loader's error; nothing changes),
    /// or the embedded network named where the game embeds none while `Evaluation` is `nnue`.
    pub fn set_file(&mut self, value: &str) -> Result<Option<String>, CommandError> {
        if names_embedded(value) || value == EMPTY {
            self.network = P::embedded_network();
            if self.network.is_none() && self.kind == EvalKind::Nnue {
                return Err(CommandError::File(Box::new(NoNetwork { classical: P::CLASSICAL_NAME })));
            }
            return Ok(None);
        }
        let network = Network::open(value).map_err(|e: NetError| CommandError::File(Box::new(e)))?;
        self.network = Some(Arc::new(network));
        Ok(Some(format!("info string network {value} loaded")))
    }

    /// Sets the option `name` to `value` if it is `Evaluation` or `EvalFile` (any case), and gives `engine`
    /// the evaluation the options then ask for: `Ok(None)` for another option, else the lines to answer (what
    /// a protocol session's `setoption` does with these two options).
    ///
    /// # Errors
    ///
    /// As [`set_kind`](Self::set_kind) and [`set_file`](Self::set_file).
    pub fn set_option(
        &mut self,
        engine: &Mutex<Engine<EnginePosition<P>>>,
        name: &str,
        value: &str,
    ) -> Result<Option<Vec<String>>, CommandError> {
        let lines = match name.to_ascii_lowercase().as_str() {
            "evaluation" => self.set_kind(value).map(|()| Vec::new()),
            "evalfile" => self.set_file(value).map(|loaded| loaded.into_iter().collect()),
            _ => return Ok(None),
        };
        // A failed setting may still change what evaluates: `nnue` is kept for a network to come.
        engine.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).set_evaluation(self.evaluation());
        lines.map(Some)
    }
}

/// A network evaluation asked for where there is no network: none embedded and no `EvalFile` given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoNetwork {
    /// The name of the evaluation the engine keeps.
    pub classical: &'static str,
}

impl fmt::Display for NoNetwork {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no network to evaluate with: none is embedded; set EvalFile to a weights file (.tbnn) \
             (the engine evaluates with {} until then)",
            self.classical
        )
    }
}

impl std::error::Error for NoNetwork {}
