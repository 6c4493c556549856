//! duelsim: a Monte Carlo balance tool for tabletop combat rules.
//!
//! Data flows one way: a scenario file ([`scenario`]) is validated and compiled into flat
//! models of a ruleset ([`rules`]); the [`engine`] runs chunks of trials through them on every
//! core with dice from [`dice`], counting into mergeable [`stats`]; [`report`] writes the
//! tables. [`commands`] ties them together for the `duelsim` binary. Nothing downstream reaches
//! back upstream.

pub mod commands;
pub mod dice;
pub mod engine;
pub mod exact;
pub mod folder_lock;
pub mod journal;
pub mod log;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod stats;
