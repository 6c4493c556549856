//! The deterministic parallel runner: trials in fixed-size chunks, one generator per chunk,
//! rayon across chunks, chunk tallies merged in chunk order.
//!
//! Each chunk's dice are seeded from (scenario seed, point index, chunk index) by
//! [`chunk_seed`], so a chunk's trials are the same whichever thread runs it, and the merged
//! tally is the same whatever the thread count. Chunks run in batches of a few per thread and
//! each batch is merged before the next starts, so memory does not grow with the trial count.
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

/// Chunks per thread in one batch: big enough to keep threads busy, small enough to bound memory.
const CHUNKS_PER_THREAD_IN_BATCH: usize = 16;

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
pub fn run_point<R: Ruleset>(
    model: &R,
    seed: u64,
    point: u64,
    trials: u64,
    progress: &ProgressBar,
) -> Tally {
    let chunks = trials.div_ceil(CHUNK_TRIALS);
    let batch = (rayon::current_num_threads() * CHUNKS_PER_THREAD_IN_BATCH) as u64;
    let mut total = Tally::new(model.shape());
    let mut start = 0;
    while start < chunks {
        let end = (start + batch).min(chunks);
        let parts: Vec<Tally> = (start..end)
            .into_par_iter()
            .map(|chunk| {
                let first = chunk * CHUNK_TRIALS;
                let n = CHUNK_TRIALS.min(trials - first);
                let tally = run_chunk(model, chunk_seed(seed, point, chunk), n);
                progress.inc(n);
                tally
            })
            .collect();
        for part in &parts {
            total.merge(part);
        }
        start = end;
    }
    total
}

/// Runs `n` trials with dice seeded by `seed`: the unit of work and of reproducibility.
pub fn run_chunk<R: Ruleset>(model: &R, seed: u64, n: u64) -> Tally {
    let mut dice = FastDice::seed_from_u64(seed);
    let mut tally = Tally::new(model.shape());
    for _ in 0..n {
        model.trial(&mut dice, &mut NoLog, &mut tally);
    }
    tally
}

/// Runs one point of any ruleset (the match is the only dispatch; the loop is monomorphized).
pub fn run_model(
    model: &Model,
    seed: u64,
    point: u64,
    trials: u64,
    progress: &ProgressBar,
) -> Tally {
    match model {
        Model::TwinD20(m) => run_point(m, seed, point, trials, progress),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
