//! `summary.csv` (one row per point) and `distributions.csv` (long format: point, metric, bin,
//! count). Numbers are written with fixed decimals so equal tallies give equal bytes; an
//! estimate that does not exist (a mean of nothing) is an empty cell.

use super::run::Export;
use super::run::RunResult;
use crate::stats::{ExtraKind, Histogram, PAIRED, RecoveryTally, Side, Tally, wilson};
use anyhow::Result;

/// `summary.csv`.
pub struct Summary;

/// `distributions.csv`.
pub struct Distributions;

fn number(x: f64) -> String {
    format!("{x:.6}")
}

fn optional(x: Option<f64>) -> String {
    x.map(number).unwrap_or_default()
}

fn optional_int(x: Option<u32>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

/// Appends `<name>_rate, <name>_lo, <name>_hi` for `successes` out of `n`.
fn push_rate(header: &mut Vec<String>, row: &mut Vec<String>, name: &str, successes: u64, n: u64) {
    let (rate, lo, hi) = wilson(successes, n);
    header.extend([
        format!("{name}_rate"),
        format!("{name}_lo"),
        format!("{name}_hi"),
    ]);
    if n == 0 {
        row.extend([String::new(), String::new(), String::new()]);
    } else {
        row.extend([number(rate), number(lo), number(hi)]);
    }
}

fn push(header: &mut Vec<String>, row: &mut Vec<String>, name: &str, value: String) {
    header.push(name.to_owned());
    row.push(value);
}

/// A text cell a spreadsheet will show rather than run: text starting with `=`, `+`, `-`, `@`,
/// a tab or a carriage return is a formula to Excel, LibreOffice and Google Sheets, so such a
/// cell gets a leading `'`, as OWASP's advice on CSV injection says. A number (`-5`, `+1.5`)
/// stays a number.
pub fn text_cell(text: &str) -> String {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if formula && text.trim().parse::<f64>().is_err() {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

/// The header and cells of one summary row; `duel` false (a recovery scenario, which runs no
/// duel) leaves out the duel's columns, which would mean nothing there.
pub fn summary_row(
    swept: &[(String, String)],
    point: usize,
    t: &Tally,
    duel: bool,
) -> (Vec<String>, Vec<String>) {
    let (mut h, mut r) = (Vec::new(), Vec::new());
    push(&mut h, &mut r, "point", point.to_string());
    for (name, value) in swept {
        push(&mut h, &mut r, &text_cell(name), text_cell(value));
    }
    push(&mut h, &mut r, "trials", t.trials.to_string());
    if duel {
        push_rate(&mut h, &mut r, "a_win", t.wins(Side::A), t.trials);
        push_rate(&mut h, &mut r, "b_win", t.wins(Side::B), t.trials);
        push_rate(&mut h, &mut r, "draw", t.draws(), t.trials);
        push_rate(&mut h, &mut r, "a_dead", t.dead[0], t.fighter_trials(0));
        push_rate(&mut h, &mut r, "b_dead", t.dead[1], t.fighter_trials(1));
        push(&mut h, &mut r, "rounds_mean", optional(t.rounds.mean()));
        push(
            &mut h,
            &mut r,
            "rounds_se",
            optional(t.rounds.standard_error()),
        );
        push(
            &mut h,
            &mut r,
            "rounds_p50",
            optional_int(t.rounds.quantile(0.5)),
        );
        push(
            &mut h,
            &mut r,
            "rounds_p90",
            optional_int(t.rounds.quantile(0.9)),
        );
        let hits = t.hit_damage_pooled();
        push(&mut h, &mut r, "hits", hits.count().to_string());
        push(&mut h, &mut r, "damage_per_hit_mean", optional(hits.mean()));
        push(
            &mut h,
            &mut r,
            "damage_per_hit_se",
            optional(hits.standard_error()),
        );
        for (side, by) in ["a", "b"].iter().zip(&t.hit_damage) {
            push(
                &mut h,
                &mut r,
                &format!("{side}_hits"),
                by.count().to_string(),
            );
            push(
                &mut h,
                &mut r,
                &format!("{side}_damage_per_hit_mean"),
                optional(by.mean()),
            );
        }
    }
    let pooled = t.recovery_pooled();
    push_recovery(&mut h, &mut r, "", &pooled);
    for (extra, &count) in t.extras.iter().zip(&t.extra) {
        // Counts per duel (how fights end, injuries dealt) mean nothing without a duel.
        if !duel
            && matches!(
                extra.kind,
                ExtraKind::ShareOfTrials | ExtraKind::ShareOfSide(_) | ExtraKind::MeanPerTrial
            )
        {
            continue;
        }
        match extra.kind {
            ExtraKind::ShareOfTrials => push_rate(&mut h, &mut r, extra.name, count, t.trials),
            ExtraKind::ShareOfSide(side) => push_rate(
                &mut h,
                &mut r,
                extra.name,
                count,
                t.fighter_trials(side.index()),
            ),
            ExtraKind::ShareOfPatients => {
                push_rate(&mut h, &mut r, extra.name, count, pooled.patients)
            }
            ExtraKind::MeanPerTrial => {
                let mean = (t.trials > 0).then(|| count as f64 / t.trials as f64);
                push(
                    &mut h,
                    &mut r,
                    &format!("{}_mean", extra.name),
                    optional(mean),
                );
            }
            ExtraKind::ShareOf(over) => {
                let over = t.extra.get(over).copied().unwrap_or(0);
                push_rate(&mut h, &mut r, extra.name, count, over)
            }
            ExtraKind::MeanOf(over) => {
                let over = t.extra.get(over).copied().unwrap_or(0);
                let mean = (over > 0).then(|| count as f64 / over as f64);
                push(
                    &mut h,
                    &mut r,
                    &format!("{}_mean", extra.name),
                    optional(mean),
                );
            }
            ExtraKind::MeanPerPatient => {
                let mean = (pooled.patients > 0).then(|| count as f64 / pooled.patients as f64);
                push(
                    &mut h,
                    &mut r,
                    &format!("{}_mean", extra.name),
                    optional(mean),
                );
            }
        }
    }
    // Each side's wounded survivors; a recovery scenario has one patient, already above.
    let sides = if duel { 2 } else { 0 };
    for (side, rec) in ["a_", "b_"].iter().zip(&t.recovery).take(sides) {
        push(
            &mut h,
            &mut r,
            &format!("{side}patients"),
            rec.patients.to_string(),
        );
        push(
            &mut h,
            &mut r,
            &format!("{side}recovery_days_mean"),
            optional(rec.days_to_whole.mean()),
        );
    }
    (h, r)
}

fn push_recovery(h: &mut Vec<String>, r: &mut Vec<String>, prefix: &str, rec: &RecoveryTally) {
    let days: &Histogram = &rec.days_to_whole;
    push(h, r, &format!("{prefix}patients"), rec.patients.to_string());
    push(
        h,
        r,
        &format!("{prefix}recovery_days_mean"),
        optional(days.mean()),
    );
    push(
        h,
        r,
        &format!("{prefix}recovery_days_se"),
        optional(days.standard_error()),
    );
    push(
        h,
        r,
        &format!("{prefix}recovery_days_p50"),
        optional_int(days.quantile(0.5)),
    );
    push(
        h,
        r,
        &format!("{prefix}recovery_days_p90"),
        optional_int(days.quantile(0.9)),
    );
    push_rate(
        h,
        r,
        &format!("{prefix}unhealed"),
        rec.unhealed,
        rec.patients,
    );
    push_rate(
        h,
        r,
        &format!("{prefix}recovery_death"),
        rec.deaths,
        rec.patients,
    );
    push_rate(
        h,
        r,
        &format!("{prefix}impairment"),
        rec.impaired,
        rec.patients,
    );
    push(
        h,
        r,
        &format!("{prefix}impairment_mean"),
        optional(rec.impairment.mean()),
    );
}

impl Export for Summary {
    fn file_name(&self) -> &'static str {
        "summary.csv"
    }

    fn render(&self, run: &RunResult) -> Result<Vec<u8>> {
        let mut out = csv::Writer::from_writer(Vec::new());
        let duel = !run
            .scenario
            .points
            .first()
            .is_some_and(|p| p.model.is_recovery());
        for (i, (point, tally)) in run.scenario.points.iter().zip(&run.tallies).enumerate() {
            let (mut header, mut row) = summary_row(&point.swept, i, tally, duel);
            if run.scenario.baseline.is_some() {
                push_deltas(&mut header, &mut row, tally);
            }
            if i == 0 {
                out.write_record(&header)?;
            }
            out.write_record(&row)?;
        }
        Ok(out.into_inner()?)
    }
}

/// Appends, for each [`PAIRED`] outcome, `<name>_delta, _delta_lo, _delta_hi`: the mean
/// difference from the baseline on the same dice with its 95% interval (the baseline's own row:
/// exactly 0), then `a_win_crn_gain`: how many times fewer trials the common dice needed for
/// this a-win difference than independent runs would (empty for the baseline).
pub fn push_deltas(h: &mut Vec<String>, r: &mut Vec<String>, t: &Tally) {
    for (i, name) in PAIRED.iter().enumerate() {
        h.extend([
            format!("{name}_delta"),
            format!("{name}_delta_lo"),
            format!("{name}_delta_hi"),
        ]);
        let (d, lo, hi) = t.paired.delta(i).unwrap_or((0.0, 0.0, 0.0));
        r.extend([number(d), number(lo), number(hi)]);
    }
    h.extend([
        "recovery_days_delta".to_owned(),
        "recovery_days_delta_lo".to_owned(),
        "recovery_days_delta_hi".to_owned(),
    ]);
    match t.paired.ratio_delta() {
        Some((d, lo, hi)) => r.extend([number(d), number(lo), number(hi)]),
        None if t.paired.pairs == 0 => r.extend([number(0.0), number(0.0), number(0.0)]),
        None => r.extend([String::new(), String::new(), String::new()]),
    }
    push(h, r, "a_win_crn_gain", optional(crn_gain(t)));
}

/// Independent runs' variance of the a-win difference over the common dice's: the trials saved
/// by comparing on the same dice. The baseline's win rate is the point's less the difference.
pub fn crn_gain(t: &Tally) -> Option<f64> {
    let pairs = t.paired.pairs;
    let paired = t.paired.variance(0);
    if pairs < 2 || paired <= 0.0 {
        return None;
    }
    let p = t.ends[0] as f64 / pairs as f64;
    let b = p - t.paired.sum[0] as f64 / pairs as f64;
    Some((p * (1.0 - p) + b * (1.0 - b)) / paired)
}

/// `weights.csv`, for a `[weights]` scenario: one row per step, its differences from the base
/// and the a-win difference relative to the first entry's (as scale factors are normalised).
pub fn weights(run: &RunResult) -> Result<Option<Vec<u8>>> {
    let points = &run.scenario.points;
    let weighted = points
        .first()
        .is_some_and(|p| p.swept.first().is_some_and(|(k, _)| k == "weights"));
    if !weighted || run.scenario.baseline != Some(0) {
        return Ok(None);
    }
    let mut out = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["step".to_owned(), "trials".to_owned()];
    for name in PAIRED {
        header.extend([
            format!("{name}_delta"),
            format!("{name}_delta_lo"),
            format!("{name}_delta_hi"),
        ]);
    }
    header.extend([
        "recovery_days_delta".to_owned(),
        "recovery_days_delta_lo".to_owned(),
        "recovery_days_delta_hi".to_owned(),
        "a_win_relative".to_owned(),
    ]);
    out.write_record(&header)?;
    let first = run
        .tallies
        .get(1)
        .and_then(|t| t.paired.delta(0))
        .map(|d| d.0);
    for (point, tally) in points.iter().zip(&run.tallies).skip(1) {
        let mut row = vec![
            point
                .swept
                .first()
                .map(|(_, v)| text_cell(v))
                .unwrap_or_default(),
            tally.trials.to_string(),
        ];
        for i in 0..PAIRED.len() {
            let (d, lo, hi) = tally.paired.delta(i).unwrap_or((0.0, 0.0, 0.0));
            row.extend([number(d), number(lo), number(hi)]);
        }
        match tally.paired.ratio_delta() {
            Some((d, lo, hi)) => row.extend([number(d), number(lo), number(hi)]),
            None => row.extend([String::new(), String::new(), String::new()]),
        }
        let relative = match (tally.paired.delta(0), first) {
            (Some((d, _, _)), Some(f)) if f != 0.0 => Some(d / f),
            _ => None,
        };
        row.push(optional(relative));
        out.write_record(&row)?;
    }
    Ok(Some(out.into_inner()?))
}

/// The histograms of one tally, by metric name.
pub fn distributions(t: &Tally) -> Vec<(&'static str, Histogram)> {
    let pooled = t.recovery_pooled();
    vec![
        ("rounds", t.rounds.clone()),
        ("hit_damage", t.hit_damage_pooled()),
        ("hit_damage_a", t.hit_damage[0].clone()),
        ("hit_damage_b", t.hit_damage[1].clone()),
        ("recovery_days", pooled.days_to_whole.clone()),
        ("recovery_days_a", t.recovery[0].days_to_whole.clone()),
        ("recovery_days_b", t.recovery[1].days_to_whole.clone()),
        ("impairment", pooled.impairment),
    ]
}

impl Export for Distributions {
    fn file_name(&self) -> &'static str {
        "distributions.csv"
    }

    fn render(&self, run: &RunResult) -> Result<Vec<u8>> {
        let mut out = csv::Writer::from_writer(Vec::new());
        out.write_record(["point", "metric", "bin", "count"])?;
        for (point, tally) in run.tallies.iter().enumerate() {
            for (metric, histogram) in distributions(tally) {
                for (bin, &count) in histogram.bins().iter().enumerate() {
                    if count > 0 {
                        out.write_record([
                            point.to_string(),
                            metric.to_owned(),
                            bin.to_string(),
                            count.to_string(),
                        ])?;
                    }
                }
            }
        }
        Ok(out.into_inner()?)
    }
}

/// `fighters.csv`: each fighter's own figures, tidy: point, side, fighter (by name), metric,
/// value and its 95% Wilson interval (empty for a mean). Rates are over the trials (out of the
/// fight, dead, wounded) or over the fighter's patients (recovery deaths, unhealed,
/// impairment); `days_to_whole_mean` is over those who became whole.
pub struct Fighters;

impl Export for Fighters {
    fn file_name(&self) -> &'static str {
        "fighters.csv"
    }

    fn render(&self, run: &RunResult) -> Result<Vec<u8>> {
        let mut out = csv::Writer::from_writer(Vec::new());
        out.write_record(["point", "side", "fighter", "metric", "value", "lo", "hi"])?;
        for (point, tally) in run.tallies.iter().enumerate() {
            // A recovery point has one patient and no fight: its figures are summary.csv's.
            let Some(p) = run
                .scenario
                .points
                .get(point)
                .filter(|p| !p.model.is_recovery())
            else {
                continue;
            };
            let names = p.model.fighter_names();
            let a_side = tally.sides[0] as usize;
            for i in 0..a_side + tally.sides[1] as usize {
                let f = &tally.fighter(i);
                let side = if i < a_side { "a" } else { "b" };
                let name = text_cell(names.get(i).copied().unwrap_or(side));
                let rates = [
                    ("out_rate", f.out, tally.trials),
                    ("dead_rate", f.dead, tally.trials),
                    ("wounded_rate", f.patients, tally.trials),
                    ("recovery_death_rate", f.deaths, f.patients),
                    ("unhealed_rate", f.unhealed, f.patients),
                    ("impairment_rate", f.impaired, f.patients),
                ];
                for (metric, count, n) in rates {
                    let (rate, lo, hi) = wilson(count, n);
                    let cells = if n == 0 {
                        [String::new(), String::new(), String::new()]
                    } else {
                        [number(rate), number(lo), number(hi)]
                    };
                    out.write_record(
                        [
                            point.to_string(),
                            side.to_owned(),
                            name.clone(),
                            metric.to_owned(),
                        ]
                        .into_iter()
                        .chain(cells),
                    )?;
                }
                let mean = if f.healed == 0 {
                    String::new()
                } else {
                    number(f.healed_days as f64 / f.healed as f64)
                };
                out.write_record([
                    point.to_string(),
                    side.to_owned(),
                    name.clone(),
                    "days_to_whole_mean".to_owned(),
                    mean,
                    String::new(),
                    String::new(),
                ])?;
            }
        }
        Ok(out.into_inner()?)
    }
}

/// A CSV field, quoted when it needs to be.
pub(crate) fn csv_field(text: &str) -> String {
    let text = text_cell(text);
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_cell_that_a_spreadsheet_would_run_is_quoted_and_numbers_stay_numbers() {
        for formula in [
            "=HYPERLINK(\"x\")",
            "+cmd",
            "-2+3",
            "@SUM(A1)",
            "\tx",
            "\rx",
        ] {
            assert_eq!(text_cell(formula), format!("'{formula}"), "{formula}");
        }
        for plain in ["-5", "+1.5", "-0.25", "broadsword", "a.weapon", "1e6", ""] {
            assert_eq!(text_cell(plain), plain, "{plain}");
        }
    }
}
