//! What a chart shows, worked out from the finished tallies before anything is drawn: the
//! [`Chart`] with its [`Plot`] and [`Series`], and the limits, sizes and helpers that every
//! family of charts shares.

/// A value with its 95% interval: (value, lo, hi).
pub(super) type Rate = (f64, f64, f64);

/// The most series one line chart shows.
pub(super) const MAX_SERIES: usize = 8;
/// The most rows one bar chart or heatmap shows.
pub(super) const MAX_ROWS: usize = 40;
pub(super) const WIDTH: u32 = 1000;
/// Panels a row of small multiples holds.
pub(super) const PANEL_COLUMNS: usize = 2;
/// The widest a chart may be drawn: across an A4 page's text (186 mm) its smallest text (17 px,
/// drawn at 13.7) prints at 7 pt.
pub(super) const MAX_WIDTH: u32 = 1020;
/// The tallest chart one A4 page holds below its caption, printed across the text's width
/// (186 mm for the chart's [`WIDTH`], 269 mm of page): small multiples taller than this are
/// drawn as several charts, a page's worth of panel rows each.
pub(super) const PAGE_HEIGHT: u32 = 1300;
/// The height of a small multiple's plot, above its legend.
pub(super) const PANEL_PLOT_HEIGHT: u32 = 400;

/// What a mark's colour means. A meaning has one colour in every chart and report (the README
/// lists them): a side and its wins, a draw, each way a wounded fighter ends; points of an
/// ordered value (skill 35 to 95, the number of brigands) take a sequential scale, light to
/// dark, and points of an unordered one (armour, weapon) categorical colours that no outcome
/// uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ink {
    /// Side a (0) or b (1), and its wins.
    Side(usize),
    /// A drawn fight.
    Draw,
    /// Whole, with no lasting impairment.
    Whole,
    /// Whole, with a lasting impairment.
    WholeImpaired,
    /// Still wounded at the horizon.
    Unhealed,
    /// Died in recovery, of the cause named ([`DEATHS`] by index; 0 for any or other causes).
    Died(usize),
    /// The `at`-th of `of` values of an ordered value, lowest first.
    Ordered { at: usize, of: usize },
    /// The k-th value of an unordered value.
    Category(usize),
    /// A reference drawn for orientation (a target, the ends of a range): grey, no markers.
    Reference,
    /// What a search found: black, a span with its ends marked, no markers.
    Answer,
}

/// The causes of death in recovery the rulesets count, by the tallies' names, with their words
/// (index 0: any cause, or the causes not counted apart).
pub(super) const DEATHS: [&str; 6] = [
    "other",
    "blood_loss",
    "extended_shock",
    "infection",
    "grim_wound",
    "before_help",
];

/// The ink of a death in recovery from the tallies' name of its cause (`died_infection`).
pub(super) fn death_ink(name: &str) -> Ink {
    let cause = name.strip_prefix("died_").unwrap_or(name);
    Ink::Died(DEATHS.iter().position(|d| *d == cause).unwrap_or(0))
}

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Look {
    /// A line through the points, with its band if it has one.
    Line,
    /// A staircase (a cumulative count that changes on whole values).
    Step,
    /// A discrete distribution: a bar over each whole value (filled when it is the only
    /// series, else its outline), never a line between whole numbers.
    Bins,
    /// Points with their intervals as whiskers and no line between them: values measured
    /// apart, with nothing known between them (a balance search's probes).
    Points,
    /// A thin grey line for orientation, without markers.
    Reference,
    /// An interval drawn as a thick span with its ends marked (an answer on its target line).
    Span,
}

/// A line with an optional 95% band.
#[derive(Debug, Clone)]
pub(super) struct Series {
    pub(super) label: String,
    pub(super) points: Vec<(f64, f64)>,
    pub(super) band: Option<Vec<(f64, f64, f64)>>,
    pub(super) look: Look,
    pub(super) ink: Ink,
    /// How many cases each point's share (in %) is of, when the points are shares: what tells
    /// a real difference between two curves from noise. 0 when unknown.
    pub(super) cases: u64,
}

impl Series {
    /// A series drawn as `look` in `ink`, without a band.
    pub(super) fn new(label: String, points: Vec<(f64, f64)>, look: Look, ink: Ink) -> Series {
        Series {
            label,
            points,
            band: None,
            look,
            ink,
            cases: 0,
        }
    }
}

/// What a `[balance]` search found at one sweep point, as its chart draws it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Answered {
    /// The value with its interval (value, lo, hi).
    At(f64, f64, f64),
    /// Not reachable in the range: the crossing lies above its upper end.
    Above,
    /// Not reachable in the range: the crossing lies below its lower end.
    Below,
    /// Not reachable in the range, and the rate is the same at both ends.
    Unknown,
    /// A whole number between two neighbours: the rate crosses the target from `lo` to `hi`
    /// (`hi = lo + 1`), drawn as a span between them, never as a point at the half.
    Between(f64, f64),
}

/// One line of an answers chart: its label and the answer at each x.
#[derive(Debug, Clone)]
pub(super) struct AnswerSeries {
    pub(super) label: String,
    pub(super) ink: Ink,
    pub(super) points: Vec<(f64, Answered)>,
}

/// What one chart shows, independent of the backend.
#[derive(Debug, Clone)]
pub(super) enum Plot {
    Lines {
        /// What the series labels are (drawn above the legend).
        legend_title: String,
        x_label: String,
        y_label: String,
        x_range: (f64, f64),
        y_range: (f64, f64),
        series: Vec<Series>,
        integer_x: bool,
    },
    Bars {
        x_label: String,
        y_label: String,
        rows: Vec<(String, f64, f64, f64)>,
    },
    /// Differences with their intervals around a zero line (a forest plot), in percentage points.
    Forest {
        x_label: String,
        rows: Vec<(String, f64, f64, f64)>,
    },
    /// Shares that make up a whole, one stacked bar per row (percentages summing to 100), with
    /// the segments' names for the legend.
    Stacked {
        x_label: String,
        y_label: String,
        segments: Vec<(String, Ink)>,
        rows: Vec<(String, Vec<f64>)>,
    },
    /// Small multiples: line charts side by side, two to a row, each with its title (a swept
    /// value that all its curves share).
    Panels { panels: Vec<(String, Plot)> },
    /// The value a `[balance]` found at each sweep point against the first swept value, a line
    /// per value of the others, each value's interval a whisker.
    Answers {
        /// What the lines' labels are.
        legend_title: String,
        x_label: String,
        y_label: String,
        /// The names of the x positions 0, 1, ... when the first swept value is not a number;
        /// empty when it is (its values are the positions).
        categories: Vec<String>,
        x_range: (f64, f64),
        y_range: (f64, f64),
        /// The range searched: its ends are drawn, and a point out of reach sits on one.
        range: (f64, f64),
        series: Vec<AnswerSeries>,
        integer_x: bool,
    },
    Heatmap {
        x_label: String,
        y_label: String,
        columns: Vec<String>,
        rows: Vec<String>,
        /// Cell values with their 95% intervals (value, lo, hi), row by row; `None` for no data.
        cells: Vec<Vec<Option<Rate>>>,
        /// How a cell's value is written.
        percent: bool,
        /// How values map to colours.
        scale: Scale,
    },
}

/// A heatmap's colour scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Scale {
    /// Around 0.5 (win rates): side a's colour above, side b's below.
    Diverging,
    /// From 0 to `top`, the highest value of the whole chart (so that the parts of a split
    /// heatmap share one scale).
    Sequential { top: f64 },
}

impl Scale {
    /// A sequential scale up to the highest of `cells`.
    pub(super) fn sequential(cells: &[Vec<Option<Rate>>]) -> Scale {
        let top = (cells.iter().flatten().flatten()).fold(1e-12_f64, |m, &(v, _, _)| m.max(v));
        Scale::Sequential { top }
    }
}

#[derive(Debug, Clone)]
pub(super) struct Chart {
    pub(super) name: String,
    pub(super) title: String,
    pub(super) caption: String,
    pub(super) plot: Plot,
    pub(super) width: u32,
    pub(super) height: u32,
}

/// At most `n` indexes spread evenly over `0..len`, first and last included.
pub(super) fn spread(len: usize, n: usize) -> Vec<usize> {
    if len <= n {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..n).map(|i| i * (len - 1) / (n - 1)).collect();
    v.dedup();
    v
}

pub(super) fn percent(x: f64) -> f64 {
    100.0 * x
}

pub(super) fn bar_height(rows: usize) -> u32 {
    (170 + 34 * rows as u32).max(320)
}

/// A region of the drawing (backend pixels: left, top, right, bottom) and what hovering it says.
pub(super) type Hover = (i32, i32, i32, i32, String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_keeps_the_ends_and_at_most_n() {
        assert_eq!(spread(3, 8), [0, 1, 2]);
        let s = spread(22, 8);
        assert_eq!(s.len(), 8);
        assert_eq!((s[0], s[7]), (0, 21));
    }
}
