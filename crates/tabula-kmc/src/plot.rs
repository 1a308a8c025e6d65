//! An SVG plot of a run: energy (top) and cumulative recall rate (bottom) against simulated time.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::plot::{plot_svg, Sample};
//!
//! let samples: Vec<Sample> =
//!     (0..50).map(|i| Sample { time: i as f64 * 1e-9, energy: -(i as f64).sqrt(), recall_rate: i as f64 / 60.0 }).collect();
//! let path = std::env::temp_dir().join("tabula-kmc-plot-doctest.svg");
//! plot_svg(&path, "bcc Fe–Cu, 773 K", &samples).unwrap();
//! assert!(std::fs::read_to_string(&path).unwrap().contains("<svg"));
//! ```

use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;
use std::path::Path;

/// One point of the plot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Simulated time in s.
    pub time: f64,
    /// Energy in eV.
    pub energy: f64,
    /// Recalls per lookup so far.
    pub recall_rate: f64,
}

/// The plot could not be drawn or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot draw the plot: {0}")]
pub struct PlotError(pub String);

pub(crate) fn range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if !lo.is_finite() {
        return 0.0..1.0;
    }
    let pad = ((hi - lo) * 0.05).max(1e-9 * hi.abs().max(1.0));
    lo - pad..hi + pad
}

/// Draws `samples` into an SVG file at `path`.
///
/// # Errors
///
/// A [`PlotError`] if drawing or writing fails.
pub fn plot_svg(path: &Path, title: &str, samples: &[Sample]) -> Result<(), PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError(e.to_string());
    let root = SVGBackend::new(path, (900, 700)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let root = root.titled(title, ("sans-serif", 20)).map_err(|e| err(&e))?;
    let (top, bottom) = root.split_vertically(350);
    let times = range(samples.iter().map(|s| s.time));
    let energies = range(samples.iter().map(|s| s.energy));
    panel(&top, times.clone(), energies, "energy (eV)", samples.iter().map(|s| (s.time, s.energy)), &BLUE)?;
    panel(&bottom, times, 0.0..1.0, "recall rate", samples.iter().map(|s| (s.time, s.recall_rate)), &RED)?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// One panel of the plot, on `area`: `points` in `color`, simulated time across (over `times`), the quantity
/// `label` up (over `values`).
fn panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    times: Range<f64>,
    values: Range<f64>,
    label: &str,
    points: impl Iterator<Item = (f64, f64)>,
    color: &RGBColor,
) -> Result<(), PlotError> {
    let err = |e: &dyn std::fmt::Display| PlotError(e.to_string());
    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(80)
        .build_cartesian_2d(times, values)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc(label)
        .x_label_formatter(&|t| format!("{t:.2e}"))
        .draw()
        .map_err(|e| err(&e))?;
    chart.draw_series(LineSeries::new(points, color)).map_err(|e| err(&e))?;
    Ok(())
}
