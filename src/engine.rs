//! The deterministic parallel runner: trials in fixed-size chunks, one generator per chunk,
//! rayon across chunks, chunk tallies merged exactly.
//!
//! Each chunk's dice are seeded from (scenario seed, point index, chunk index) by
//! [`chunk_seed`], so a chunk's trials are the same whichever thread runs it, and the merged
//! tally is the same whatever the thread count: every accumulator is an integer, so adding
//! chunk tallies in any order gives the bytes that adding them in chunk order gives. Workers
//! count into one tally each, so memory does not grow with the trial count.
//! The engine knows no ruleset: it runs anything that implements [`Ruleset`].

use crate::dice::FastDice;
use crate::log::NoLog;
use crate::rules::Ruleset;
use crate::scenario::Model;
use crate::stats::Tally;
use indicatif::ProgressBar;
use rayon::prelude::*;

/// Trials in one chunk. Part of the output's identity: changing it changes every number.
pub const CHUNK_TRIALS: u64 = 8192;

/// SplitMix64's output function: a bijective 64-bit mix.
#[inline]
pub fn mix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of one chunk's dice: `mix64(mix64(mix64(seed) ^ point) ^ chunk)`, then expanded to
/// xoshiro256++'s state by `seed_from_u64` (SplitMix64).
pub fn chunk_seed(seed: u64, point: u64, chunk: u64) -> u64 {
    mix64(mix64(mix64(seed) ^ point) ^ chunk)
}

/// Runs `trials` trials of one point and returns their merged tally.
///
/// Chunks are spread over the pool with rayon's fold and reduce: each worker counts its chunks'
/// trials straight into its own tally, and the tallies are added at the end. Every accumulator
/// is an integer, so the sum is exact and does not depend on which worker ran which chunk or in
/// what order the tallies were added: the bytes are the same as merging chunk by chunk in chunk
/// order, without a barrier between batches and with memory bounded by the number of workers.
pub fn run_point<R: Ruleset>(
    model: &R,
    seed: u64,
    point: u64,
    trials: u64,
    progress: &ProgressBar,
) -> Tally {
    let shape = model.shape();
    (0..trials.div_ceil(CHUNK_TRIALS))
        .into_par_iter()
        .fold(
            || Tally::new(shape),
            |mut tally, chunk| {
                let first = chunk * CHUNK_TRIALS;
                let n = CHUNK_TRIALS.min(trials - first);
                run_chunk_into(model, chunk_seed(seed, point, chunk), n, &mut tally);
                progress.inc(n);
                tally
            },
        )
        .reduce(
            || Tally::new(shape),
            |mut a, b| {
                a.merge(&b);
                a
            },
        )
}

/// Runs `n` trials with dice seeded by `seed` into `tally`: the unit of reproducibility.
pub fn run_chunk_into<R: Ruleset>(model: &R, seed: u64, n: u64, tally: &mut Tally) {
    let mut dice = FastDice::seed_from_u64(seed);
    for _ in 0..n {
        model.trial(&mut dice, &mut NoLog, tally);
    }
}

/// Runs one point of any ruleset (the match is the only dispatch; the loop is monomorphized).
pub fn run_model(
    model: &Model,
    seed: u64,
    point: u64,
    trials: u64,
    progress: &ProgressBar,
) -> Tally {
    crate::with_model!(model, m => run_point(m, seed, point, trials, progress))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::twin_d20::{Fighter, Healing, Rules, TwinD20};

    #[test]
    fn the_merged_tally_is_the_same_as_chunks_added_one_by_one_in_order() {
        let f = Fighter {
            attack: 12,
            defense: 6,
            toughness: 8,
            damage: 2,
            coverage: 10,
            protection: 2,
        };
        let model = TwinD20::new(
            [f, f],
            ["a".into(), "b".into()],
            Rules::default(),
            Healing::default(),
            30,
        );
        let trials = 5 * CHUNK_TRIALS + 123;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build();
        let parallel = match pool {
            Ok(pool) => pool.install(|| run_point(&model, 9, 3, trials, &ProgressBar::hidden())),
            Err(e) => panic!("{e}"),
        };
        let mut in_order = Tally::new(model.shape());
        for chunk in 0..trials.div_ceil(CHUNK_TRIALS) {
            let mut part = Tally::new(model.shape());
            let n = CHUNK_TRIALS.min(trials - chunk * CHUNK_TRIALS);
            run_chunk_into(&model, chunk_seed(9, 3, chunk), n, &mut part);
            in_order.merge(&part);
        }
        assert_eq!(parallel, in_order);
        assert_eq!(parallel.trials, trials);
    }

    #[test]
    fn chunk_seeds_differ_by_every_coordinate() {
        let base = chunk_seed(1, 0, 0);
        assert_ne!(base, chunk_seed(2, 0, 0));
        assert_ne!(base, chunk_seed(1, 1, 0));
        assert_ne!(base, chunk_seed(1, 0, 1));
        assert_ne!(chunk_seed(1, 1, 0), chunk_seed(1, 0, 1));
        assert_eq!(base, chunk_seed(1, 0, 0));
    }
}
