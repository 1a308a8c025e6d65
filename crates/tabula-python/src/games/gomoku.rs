//! `tabula.gomoku`: Gomoku under freestyle, standard and renju rules, its engine (threats first, then
//! alpha-beta) and its threat-space search (VCF and VCT) alone.

use crate::position::{game_classes, Thinking};
use pyo3::prelude::*;
use tabula_gomoku::{ThreatKind, ThreatSolver as Threats};
use tabula_protocol::front::EngineConfig;

/// The module's docstring.
pub const DOC: &str = "Gomoku under freestyle, standard and renju rules (`rule`; `size` for the board), its engine (threats first, then alpha-beta) and its threat-space search (VCF and VCT) alone.";

/// The game.
pub type Rules = tabula_gomoku::Board;

game_classes!("tabula.gomoku", Rules, crate::analysis::by_think::<Rules>);

/// Gomoku's threat-space search: a forced win by continuous fours (VCF) or by fours and threes (VCT), with a
/// cache of its own. The GIL is released while it searches.
#[pyclass(frozen, module = "tabula.gomoku")]
pub struct ThreatSolver {
    thinking: Thinking<Threats>,
}

#[pymethods]
impl ThreatSolver {
    /// A solver with a cache of `cache_mib` MiB.
    #[new]
    #[pyo3(signature = (cache_mib = 16))]
    fn new(cache_mib: usize) -> Self {
        let config = EngineConfig { hash_mib: cache_mib.max(1), ..EngineConfig::default() };
        ThreatSolver { thinking: Thinking::new(config, |c| Threats::new(c.hash_mib)) }
    }

    /// A forced win for the side to move: by continuous fours (`kind="vcf"`, within `depth` attacking moves, 16
    /// by default) or by fours and threes (`"vct"`, 10 by default), within `nodes` nodes. The line (attacker and
    /// defender alternating, ending in five), or `None` if none was found.
    #[pyo3(signature = (position, kind = "vcf", *, depth = None, nodes = 1_000_000))]
    fn solve(
        &self,
        py: Python<'_>,
        position: PyRef<'_, Position>,
        kind: &str,
        depth: Option<u32>,
        nodes: u64,
    ) -> PyResult<Option<Vec<String>>> {
        let (kind, default_depth) = match kind {
            "vcf" => (ThreatKind::Vcf, 16),
            "vct" => (ThreatKind::Vct, 10),
            other => return Err(crate::errors::Error::new_err(format!("no threat search `{other}`: vcf or vct"))),
        };
        let board = position.get().game.clone();
        drop(position);
        self.thinking.run(py, false, move |threats| {
            let line = threats.solve(&board, kind, depth.unwrap_or(default_depth), nodes)?;
            Some(crate::analysis::coordinates(&board, &line))
        })
    }

    /// Nodes the last search took.
    #[getter]
    fn nodes(&self) -> u64 {
        self.thinking.engine.lock().unwrap_or_else(|e| e.into_inner()).nodes()
    }

    /// Whether the last search ran out of nodes before it could decide (then `None` proves nothing).
    #[getter]
    fn aborted(&self) -> bool {
        self.thinking.engine.lock().unwrap_or_else(|e| e.into_inner()).aborted()
    }
}
