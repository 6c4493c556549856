//! The run's results as tables in words, worked out once for every writer (the HTML page, the
//! Markdown and CSV tables, the terminal): the headline rates, a pivot per rate for a sweep of
//! two values, a `[balance]`'s answers at each sweep point, and what a table's percentages are
//! of with the widest interval among them.

use super::campaign::number;
use super::run::RunResult;
use super::words::{Words, axis_title, point_phrase, side_words, value_words};
use crate::rules::campaign::{Outline, intern};
use crate::stats::{Side, Tally, wilson};

/// How a rate is read from a tally: its count and what it is a share of.
pub(super) type Counted = Box<dyn Fn(&Tally) -> (u64, u64)>;

/// A headline rate: its file stem, its heading in words, and its count and base in a tally.
pub(super) struct Rate {
    pub(super) stem: &'static str,
    pub(super) title: String,
    pub(super) count: Counted,
}

/// The headline rates of this run: the duel's (not for a recovery scenario) and the healing's
/// where the ruleset has them.
pub(super) fn rates(run: &RunResult) -> Vec<Rate> {
    let sides = side_words(run);
    let recovery = Words::of(run).recovery;
    let who = Words::of(run).patients();
    let info = crate::rules::registry::info(run.scenario.ruleset);
    let mut rates = Vec::new();
    let campaign = (run.scenario.points.first()).and_then(|p| p.model.campaign());
    if let Some(outline) = campaign {
        rates.extend(campaign_rates(run, outline));
    } else if !recovery {
        rates.extend([
            Rate {
                stem: "a_win_rate",
                title: sides[0].wins(),
                count: Box::new(|t| (t.wins(Side::A), t.trials)),
            },
            Rate {
                stem: "b_win_rate",
                title: sides[1].wins(),
                count: Box::new(|t| (t.wins(Side::B), t.trials)),
            },
            Rate {
                stem: "draw_rate",
                title: "draws".to_owned(),
                count: Box::new(|t| (t.draws(), t.trials)),
            },
            Rate {
                stem: "a_dead_rate",
                title: sides[0].dies(),
                count: Box::new(|t| (t.dead[0], t.fighter_trials(0))),
            },
            Rate {
                stem: "b_dead_rate",
                title: sides[1].dies(),
                count: Box::new(|t| (t.dead[1], t.fighter_trials(1))),
            },
        ]);
    }
    rates.push(Rate {
        stem: "unhealed_rate",
        title: format!("{who} unhealed at the horizon"),
        count: Box::new(|t| {
            let r = t.recovery_pooled();
            (r.unhealed, r.patients)
        }),
    });
    if info.is_none_or(|i| i.recovery_deaths) {
        rates.push(Rate {
            stem: "recovery_death_rate",
            title: format!("{who} who die in recovery"),
            count: Box::new(|t| {
                let r = t.recovery_pooled();
                (r.deaths, r.patients)
            }),
        });
    }
    if info.is_none_or(|i| i.impairment) {
        rates.push(Rate {
            stem: "impairment_rate",
            title: format!("{who} left with lasting impairment"),
            count: Box::new(|t| {
                let r = t.recovery_pooled();
                (r.impaired, r.patients)
            }),
        });
    }
    rates
}

/// A rate as a rulebook prints it: "51.0%" (or "–" with nothing to count).
pub(super) fn percent(count: u64, of: u64) -> String {
    if of == 0 {
        return "–".to_owned();
    }
    format!("{:.1}%", 100.0 * count as f64 / of as f64)
}

/// The footnote under a table of `rates`: what they are percentages of, and the widest half
/// interval among them, so that no cell needs its own.
pub(super) fn footnote(run: &RunResult, rates: &[Rate]) -> String {
    let words = Words::of(run);
    let widest = (run.tallies.iter())
        .flat_map(|t| rates.iter().map(move |r| (r.count)(t)))
        .filter(|&(c, n)| c > 0 && n > 0)
        .map(|(c, n)| {
            let (_, lo, hi) = wilson(c, n);
            50.0 * (hi - lo)
        })
        .fold(0.0_f64, f64::max);
    let of = if words.recovery {
        "patients".to_owned()
    } else {
        format!(
            "{} (of a side's fighters for its dead, of wounded survivors for their healing)",
            words.trials()
        )
    };
    format!("Percentages of {of}; each within ±{widest:.1} points (95% interval).")
}

/// One headline rate of a sweep of two values as a rulebook prints it: rows the first swept
/// value, columns the second, each cell the rate ("–" where the point did not finish); and the
/// same as CSV with each cell's 95% interval.
pub(super) struct Pivot {
    pub(super) head: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
    /// Each cell's rate with its 95% interval (rate, lo, hi), row by row; `None` where the
    /// point did not finish.
    pub(super) cells: Vec<Vec<Option<(f64, f64, f64)>>>,
}

/// The two swept values of a pivot in words: (rows, columns).
pub(super) fn pivot_titles(run: &RunResult) -> (String, String) {
    let s = run.scenario;
    let names = s.points[0].model.names();
    let swept = s.swept_values();
    (
        axis_title(&swept[0].0, names, s.ruleset),
        axis_title(&swept[1].0, names, s.ruleset),
    )
}

/// A pivot per headline rate ([`rates`], in their order) for a sweep of exactly two values; not
/// for a `[balance]`'s values run, which differ from one sweep point to the next.
pub(super) fn pivots(run: &RunResult) -> Option<Vec<Pivot>> {
    let s = run.scenario;
    let first = s.points.first()?;
    if first.swept.len() != 2 || run.balance.is_some() {
        return None;
    }
    let names = first.model.names();
    let finished = s.points.iter().zip(&run.tallies);
    let swept = s.swept_values();
    let (row_key, row_values) = &swept[0];
    let (column_key, column_values) = &swept[1];
    let (row_title, column_title) = pivot_titles(run);
    let words = |k: &str, v: &String| value_words(k, v, names, s.ruleset);
    let pivot = |rate: &Rate| {
        let mut rows = Vec::new();
        let mut cells = Vec::new();
        for rv in row_values {
            let mut row = vec![words(row_key, rv)];
            let mut rates = Vec::new();
            for cv in column_values {
                let found = finished
                    .clone()
                    .find(|(p, _)| p.swept[0].1 == *rv && p.swept[1].1 == *cv);
                match found {
                    Some((_, t)) => {
                        let (c, n) = (rate.count)(t);
                        row.push(percent(c, n));
                        rates.push(Some(wilson(c, n)));
                    }
                    None => {
                        row.push("–".to_owned());
                        rates.push(None);
                    }
                }
            }
            rows.push(row);
            cells.push(rates);
        }
        let mut head = vec![format!("{row_title} \\ {column_title}")];
        head.extend(column_values.iter().map(|v| words(column_key, v)));
        Pivot { head, rows, cells }
    };
    Some(rates(run).iter().map(pivot).collect())
}

/// The answers of a `[balance]` with a `[sweep]` as a table in words.
pub(super) struct BalanceTable {
    /// The column heads.
    pub(super) head: Vec<String>,
    /// A row per sweep point: its values, the value found, and the searched rate at the values
    /// around it.
    pub(super) rows: Vec<Vec<String>>,
    /// How many leading columns are the point's values.
    pub(super) keys: usize,
    /// A sentence to say under it (a split search's fewer halvings), or nothing.
    pub(super) note: String,
}

/// The answers of a `[balance]` with a `[sweep]` as a table in words; `None` for any other run.
pub(super) fn balance_table(run: &RunResult) -> Option<BalanceTable> {
    use crate::scenario::balance::Found;
    let marks = run.balance.as_ref().filter(|m| !m.points.is_empty())?;
    let s = run.scenario;
    let first = s.points.first()?;
    let names = first.model.names();
    let (path, _) = first.swept.last()?;
    let title = axis_title(path, names, s.ruleset);
    let mut head: Vec<String> = marks.points[0]
        .swept
        .iter()
        .map(|(k, _)| axis_title(k, names, s.ruleset))
        .collect();
    let keys = head.len();
    head.push(format!("{title} that {}", marks.goal));
    head.push(format!(
        "{} (95% interval), at the values around it",
        marks.rate
    ));
    let pct = |r: (f64, f64, f64)| {
        format!(
            "{:.1}% [{:.1}, {:.1}]",
            100.0 * r.0,
            100.0 * r.1,
            100.0 * r.2
        )
    };
    let (from, to) = marks.range;
    let mut notes: Vec<String> = Vec::new();
    let rows = marks
        .points
        .iter()
        .map(|point| {
            let mut row: Vec<String> = point
                .swept
                .iter()
                .map(|(k, v)| value_words(k, v, names, s.ruleset))
                .collect();
            let (value, rates) = match point.answer.found {
                Found::At(at, f) => (format!("{at}"), format!("{} at {at}", pct(f))),
                Found::Between([(lo, f_lo), (hi, f_hi)]) => (
                    format!("{lo}–{hi}"),
                    format!("{} at {lo}, {} at {hi}", pct(f_lo), pct(f_hi)),
                ),
                Found::Interpolated {
                    at: (at, at_lo, at_hi),
                    around: [(lo, f_lo), (hi, f_hi)],
                } => (
                    format!("{at:.2} [{at_lo:.2}, {at_hi:.2}]"),
                    format!("{} at {lo}, {} at {hi}", pct(f_lo), pct(f_hi)),
                ),
                Found::Unreachable([(lo, f_lo), (hi, f_hi)]) => {
                    let side = match crate::scenario::balance::beyond(f_lo.0, f_hi.0, marks.target)
                    {
                        Some(true) => format!(" (it lies above {to})"),
                        Some(false) => format!(" (it lies below {from})"),
                        None => String::new(),
                    };
                    (
                        format!("not reachable from {from} to {to}{side}"),
                        format!("{} at {lo}, {} at {hi}", pct(f_lo), pct(f_hi)),
                    )
                }
            };
            if let Some(note) = &point.answer.note
                && !notes.contains(note)
            {
                notes.push(note.clone());
            }
            row.push(value);
            row.push(rates);
            row
        })
        .collect();
    let note = if notes.is_empty() {
        String::new()
    } else {
        format!(" The search was {}.", notes.join("; "))
    };
    Some(BalanceTable {
        head,
        rows,
        keys,
        note,
    })
}
/// The differences of a `[compare]` or `[weights]` run from its baseline on the same dice,
/// worked out once for the page and the Markdown table: the points by the size of their
/// difference in side a's wins, largest first, the baseline first of all.
pub(super) struct Differences {
    /// The baseline's index among the points.
    pub(super) base: usize,
    /// The column heads: what changes, then each difference.
    pub(super) head: Vec<String>,
    /// A row per point: what changes, in words, and each difference with its 95% interval
    /// (wins and draws in percentage points, rounds and deaths per trial); `None` for the
    /// baseline's own row.
    pub(super) rows: Vec<DifferenceRow>,
}

/// A rate or difference with its 95% interval: (value, lo, hi).
pub(super) type Interval = (f64, f64, f64);

/// One row of [`Differences`]: the point's index, what changes, each difference (`None` for
/// the baseline's own row).
pub(super) type DifferenceRow = (usize, String, Vec<Option<Interval>>);

/// The paired differences each row of [`Differences`] gives: (index in the paired tally, scale).
const DIFFERENCES: [(usize, f64); 5] = [(0, 100.0), (1, 100.0), (2, 100.0), (5, 1.0), (6, 1.0)];

/// The differences from the baseline; `None` for a run without one.
pub(super) fn differences(run: &RunResult) -> Option<Differences> {
    let base = run.scenario.baseline?;
    let sides = side_words(run);
    let size = |i: usize| {
        (i != base)
            .then(|| run.tallies[i].paired.delta(0))
            .flatten()
            .map_or(f64::INFINITY, |(d, _, _)| d.abs())
    };
    let mut order: Vec<usize> = (0..run.tallies.len()).collect();
    order.sort_by(|&a, &b| size(b).total_cmp(&size(a)));
    let rows: Vec<_> = (order.into_iter())
        .map(|i| {
            let t = &run.tallies[i];
            let cells: Vec<Option<Interval>> = (DIFFERENCES.iter())
                .map(|&(k, scale)| {
                    let (d, lo, hi) = t.paired.delta(k).filter(|_| i != base)?;
                    Some((scale * d, scale * lo, scale * hi))
                })
                .collect();
            (i, point_phrase(run, i), cells)
        })
        .collect();
    let mut head = vec![
        "what changes".to_owned(),
        sides[0].wins(),
        sides[1].wins(),
        "draws".to_owned(),
        "rounds".to_owned(),
        format!("deaths in recovery per {}", Words::of(run).trial()),
    ];
    // A difference that is exactly none at every point (no draws, no deaths) is left out;
    // side a's wins, which the sentences read, always stay.
    let mut rows = rows;
    for k in (1..DIFFERENCES.len()).rev() {
        let none = (rows.iter()).all(|(_, _, cells)| {
            cells[k].is_none_or(|(d, lo, hi)| d == 0.0 && lo == 0.0 && hi == 0.0)
        });
        if none {
            head.remove(k + 1);
            for (_, _, cells) in &mut rows {
                cells.remove(k);
            }
        }
    }
    Some(Differences { base, head, rows })
}

/// A cell of a results table before it is written: a rate (count of a base), or a mean of
/// some cases.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Cell {
    Rate(u64, u64),
    Mean(Option<f64>, u64),
}

/// Each fighter of a fight of sides of several, by name: how often it is out of the fight,
/// dies, is wounded, and how its wounds heal.
pub(super) struct Fighters {
    /// The column heads after the point's values and the fighter's name.
    pub(super) head: Vec<String>,
    /// A row per point and fighter: the point's index, the fighter's name and its cells.
    pub(super) rows: Vec<(usize, String, Vec<Cell>)>,
}

/// Each fighter of every point; `None` for duels and recovery scenarios.
pub(super) fn fighters(run: &RunResult) -> Option<Fighters> {
    let words = Words::of(run);
    if !words.skirmish || words.recovery {
        return None;
    }
    let info = crate::rules::registry::info(run.scenario.ruleset);
    let recovery_deaths = info.is_none_or(|i| i.recovery_deaths);
    let impairment = info.is_none_or(|i| i.impairment);
    let mut head: Vec<String> = [
        "out of the fight",
        "dies",
        "wounded survivor",
        "days to whole (mean)",
        "unhealed at the horizon",
    ]
    .map(str::to_owned)
    .to_vec();
    if recovery_deaths {
        head.push("dies in recovery".to_owned());
    }
    if impairment {
        head.push("lasting impairment".to_owned());
    }
    let mut rows = Vec::new();
    for (k, (p, t)) in run.scenario.points.iter().zip(&run.tallies).enumerate() {
        for (i, name) in p.model.fighter_names().iter().enumerate() {
            let f = t.fighter(i);
            let mut cells = vec![
                Cell::Rate(f.out, t.trials),
                Cell::Rate(f.dead, t.trials),
                Cell::Rate(f.patients, t.trials),
                Cell::Mean(
                    (f.healed > 0).then(|| f.healed_days as f64 / f.healed as f64),
                    f.healed,
                ),
                Cell::Rate(f.unhealed, f.patients),
            ];
            if recovery_deaths {
                cells.push(Cell::Rate(f.deaths, f.patients));
            }
            if impairment {
                cells.push(Cell::Rate(f.impaired, f.patients));
            }
            rows.push((k, name.to_string(), cells));
        }
    }
    Some(Fighters { head, rows })
}

/// The campaign's headline rates: coming through, beaten, turning back; how many of the party
/// survive; where it suffers deaths and defeats, encounter by encounter.
fn campaign_rates(run: &RunResult, outline: &Outline) -> Vec<Rate> {
    let sides = side_words(run);
    let c = outline.columns;
    let p = outline.party;
    let mut rates = vec![
        Rate {
            stem: "a_win_rate",
            title: sides[0].wins(),
            count: Box::new(|t| (t.wins(Side::A), t.trials)),
        },
        Rate {
            stem: "b_win_rate",
            title: "the party is beaten".to_owned(),
            count: Box::new(|t| (t.wins(Side::B), t.trials)),
        },
        Rate {
            stem: "draw_rate",
            title: if outline.turn_back_below > 1 {
                "the party turns back, or its last fight is drawn".to_owned()
            } else {
                "its last fight is drawn".to_owned()
            },
            count: Box::new(|t| (t.draws(), t.trials)),
        },
    ];
    for alive in (0..=p).rev() {
        let title = match (p, p - alive) {
            (1, 0) => format!("{} lives", sides[0].name),
            (1, _) => format!("{} dies", sides[0].name),
            (_, 0) => "all of the party live".to_owned(),
            (_, lost) if lost == p => "every one of the party dies".to_owned(),
            (_, lost) => format!("the party loses {}", number(lost)),
        };
        let column = c.survivors(alive);
        rates.push(Rate {
            stem: intern(format!("survivors{alive}_rate")),
            title,
            count: Box::new(move |t: &Tally| (t.extra[column], t.trials)),
        });
    }
    for e in 0..outline.encounters.len() {
        let name = &outline.encounters[e].0;
        let (death, beaten) = (c.of(e, 4), c.of(e, 6));
        rates.push(Rate {
            stem: intern(format!("encounter{}_death_rate", e + 1)),
            title: format!("{name}: a death in the party"),
            count: Box::new(move |t: &Tally| (t.extra[death], t.trials)),
        });
        rates.push(Rate {
            stem: intern(format!("encounter{}_beaten_rate", e + 1)),
            title: format!("{name}: the party is beaten"),
            count: Box::new(move |t: &Tally| (t.extra[beaten], t.trials)),
        });
    }
    rates
}
