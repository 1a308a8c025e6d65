//! Lattice kinetic Monte Carlo of alloys, with Zobrist-key recall of states already computed.
//!
//! In a kinetic Monte Carlo (KMC) run of an alloy with a vacancy, the same configurations come back again and
//! again. Mason, Hudson & Sutton ("Fast recall of state-history in kinetic Monte Carlo simulations utilizing the
//! Zobrist key", Comput. Phys. Commun. 165 (2005) 37–48) recognise them by a Zobrist key and reuse what was
//! computed for them. This crate does the same on sc, bcc and fcc lattices with pair energies per neighbour
//! shell or an embedded-atom potential read from a standard potential file, and vacancy-exchange events chosen by
//! the residence-time (BKL) algorithm.
//!
//! - [`lattice`]: periodic cubic supercells and neighbour shells.
//! - [`energy`]: pair energies, exact integer energies, ΔE of an exchange.
//! - [`potential`]: EAM / Finnis–Sinclair potential files (LAMMPS `eam`, `eam/alloy`, `eam/fs`) with LAMMPS's
//!   interpolation; [`eam`]: such a potential read on the lattice, with exact local ΔE; [`analytic`]: published
//!   analytic potentials written as such files.
//! - [`keys`] and [`occupation`]: the (site, species) keys and the occupation whose mutator XORs them.
//! - [`cache`]: the bounded recall cache with its replacement policy, verify mode and counters.
//! - [`kmc`]: the model and the BKL loop.
//! - [`config`]: the TOML config and its validation; [`example_config`] is a commented example.
//! - [`io`] and [`plot`]: extended XYZ frames, the CSV log, the SVG plot; [`structure`]: any extended XYZ
//!   structure placed on its lattice, and its energy with a potential (`tabula kmc energy`).
//! - [`run()`]: a whole run with its outputs and [`Summary`]; [`compare_recall`]: the recall experiment.
//! - [`ensemble`]: a study of configurations × temperatures × seeds, one trajectory at a time (a shard of a
//!   cluster job), and its table of means with their errors and plot.
//!
//! # Examples
//!
//! ```
//! use tabula_kmc::lattice::{Lattice, LatticeKind};
//!
//! let fcc = Lattice::new(LatticeKind::Fcc, 3, 2).unwrap();
//! assert_eq!((fcc.sites(), fcc.coordination(0)), (108, 12));
//! ```
#![deny(missing_docs)]

pub mod analytic;
pub mod cache;
pub mod config;
pub mod eam;
pub mod energy;
pub mod ensemble;
pub mod io;
pub mod keys;
pub mod kmc;
pub mod lattice;
pub mod occupation;
pub mod plot;
pub mod potential;
pub mod run;
pub mod structure;

pub use config::{example_config, Config, ConfigError};
pub use run::{compare_recall, run, Error, RecallComparison, Summary};

/// A species number: atoms `0..n`, then the vacancy as species `n`.
pub type Species = u8;

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
