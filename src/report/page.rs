//! The HTML pieces every report page shares (`report.html` and the exact tables' page): its
//! head and style, a chart as a figure, and tables that fit the page.
//!
//! Tables: a table too wide for a 1280 px window or a printed A4 page is
//! written as several tables, each repeating the row keys (the point and its swept values) with
//! as many of the other columns as fit, so nothing needs horizontal scrolling or is cut off in
//! print. Widths are estimated from the cells' text, in characters.

use super::charts::Rendered;
use maud::{Markup, PreEscaped, html};

/// The most characters of text a table row may hold, cell padding included: about 1,000 px of
/// the report's table font on screen, and the width of an A4 page's text in print.
const ROW_BUDGET: usize = 124;

/// Characters of padding and border a cell adds.
const CELL_PADDING: usize = 2;

/// A table of cells written by templates (escaped where they hold text); the first `keys`
/// cells of every row identify it and are repeated in every part.
#[derive(Debug, Default, Clone)]
pub(crate) struct HtmlTable {
    /// Header cells.
    pub head: Vec<Markup>,
    /// Rows of cells, each as long as `head`.
    pub rows: Vec<Vec<Markup>>,
    /// Leading columns repeated in every part (the row keys).
    pub keys: usize,
    /// The key cells are row headers (`th`), as in a grid.
    pub key_headers: bool,
}

/// The width of some HTML cell text, in characters: its longest line (`<br>` breaks lines), with
/// tags left out and each entity counted as one character.
fn text_width(html: &str) -> usize {
    html.split("<br>")
        .map(|line| {
            let mut width = 0;
            let mut in_tag = false;
            let mut in_entity = false;
            for c in line.chars() {
                match c {
                    '<' => in_tag = true,
                    '>' if in_tag => in_tag = false,
                    _ if in_tag => {}
                    '&' => {
                        in_entity = true;
                        width += 1;
                    }
                    ';' if in_entity => in_entity = false,
                    _ if in_entity => {}
                    _ => width += 1,
                }
            }
            width
        })
        .max()
        .unwrap_or(0)
}

/// A header's width: it wraps between words, so its longest word, or a third of it for a long
/// header (three lines at most).
fn header_width(html: &str) -> usize {
    let longest_word = html
        .split(['<', ' '])
        .map(|w| text_width(w.rsplit('>').next().unwrap_or(w)))
        .max()
        .unwrap_or(0);
    longest_word.max(text_width(html).div_ceil(3))
}

impl HtmlTable {
    /// Each column's estimated width in characters, padding included.
    fn widths(&self) -> Vec<usize> {
        (0..self.head.len())
            .map(|c| {
                let cells = self
                    .rows
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(|cell| text_width(&cell.0))
                    .max()
                    .unwrap_or(0);
                cells.max(header_width(&self.head[c].0)) + CELL_PADDING
            })
            .collect()
    }

    /// The column ranges of each part: the keys, then as many further columns as fit the row
    /// budget (at least one a part).
    pub(crate) fn parts(&self) -> Vec<std::ops::Range<usize>> {
        let widths = self.widths();
        let keys = self.keys.min(widths.len());
        let fixed: usize = widths[..keys].iter().sum();
        let mut parts = Vec::new();
        let mut start = keys;
        while start < widths.len() {
            let mut end = start + 1;
            let mut used = fixed + widths[start];
            while end < widths.len() && used + widths[end] <= ROW_BUDGET {
                used += widths[end];
                end += 1;
            }
            parts.push(start..end);
            start = end;
        }
        if parts.is_empty() {
            parts.push(keys..keys);
        }
        parts
    }

    /// The table, in as many parts as it takes.
    pub(crate) fn markup(&self) -> Markup {
        html! {
            @for part in self.parts() {
                table {
                    // A header row in `thead`: printed, a table that runs over a page repeats
                    // it at the top of the next.
                    thead {
                        tr {
                            @for c in (0..self.keys).chain(part.clone()) {
                                th { (self.head[c]) }
                            }
                        }
                    }
                    tbody {
                        @for row in &self.rows {
                            tr {
                                @for (c, cell) in row.iter().enumerate() {
                                    @if c < self.keys {
                                        @if self.key_headers { th { (cell) } } @else { td { (cell) } }
                                    } @else if part.contains(&c) {
                                        td.n { (cell) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

pub(crate) const STYLE: &str = "
body { font-family: 'DejaVu Sans', Verdana, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; padding-bottom: 0.2rem; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.85rem; max-width: 100%; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; vertical-align: top; text-align: left; overflow-wrap: break-word; }
th { background: #f2f2f2; }
td.n { text-align: right; white-space: nowrap; }
small { color: #555; }
p.headline { font-size: 1.25rem; line-height: 1.4; margin: 1rem 0; max-width: 62rem; }
figure { margin: 1.5rem 0; } figure svg { box-sizing: border-box; max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9rem; color: #444; max-width: 60rem; }
pre { background: #f7f7f7; padding: 0.8rem; font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; }
code { background: #f3f3f3; padding: 0 0.2rem; overflow-wrap: anywhere; }
.over { background: #fff4d6; }
p.facts { font-size: 0.85rem; color: #444; }
details.cells { margin: -0.8rem 0 1.5rem; font-size: 0.9rem; }
@media print {
  @page { size: A4; margin: 14mm 12mm; }
  body { max-width: none; margin: 0; padding: 0; font-size: 9pt; }
  h1 { font-size: 16pt; } h2 { font-size: 12.5pt; margin-top: 1.2rem; } h3 { font-size: 10.5pt; margin: 0.8rem 0 0.3rem; }
  p { margin: 0.4rem 0; }
  table { font-size: 7pt; margin: 0.4rem 0; }
  th, td { padding: 0.08rem 0.25rem; }
  th { font-weight: 600; }
  td.n small { font-size: 6.5pt; }
  tr, figure, pre { break-inside: avoid; page-break-inside: avoid; }
  pre { font-size: 7pt; padding: 0.4rem; }
  p.headline { font-size: 11.5pt; margin: 0.5rem 0 0.6rem; }
  /* Every chart across the text's width: a chart is drawn 1000 px wide with text of 15 px or
     more, so it prints at 7.9 pt or more; charts are drawn no taller than a page holds. */
  figure { margin: 0.2rem 0 0.4rem; }
  figure svg { width: 100%; height: auto; }
  figcaption { font-size: 7.5pt; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; break-inside: avoid; }
  /* A heading reserves room for what follows: at the foot of a page it moves to the next. */
  h2::after, h3::after { content: \"\"; display: block; height: 40mm; margin-bottom: -40mm; }
  .appendix { break-before: page; page-break-before: always; }
  details.cells, figcaption .links { display: none; }
}
";

/// A page's `head`: its title and the report's style, with `extra_style` after it.
pub(crate) fn page_head(title: &str, extra_style: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            title { (title) }
            style { (PreEscaped(STYLE)) (PreEscaped(extra_style)) }
        }
    }
}

/// A chart as a figure: its SVG inline, its caption, links to its files.
pub(crate) fn figure(c: &Rendered) -> Markup {
    let svg = c
        .svg
        .trim_start_matches(|ch: char| ch != '<')
        .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        .trim();
    let class = match (c.tall, c.wide) {
        (true, _) => Some("tall"),
        (false, true) => Some("wide"),
        (false, false) => None,
    };
    html! {
        figure id=(c.name) class=[class] aria-label=(c.title) {
            // The SVG is drawn by duelsim's own charts, its text escaped there.
            (PreEscaped(svg))
            figcaption {
                (c.caption) " "
                span.links {
                    a href={ "charts/" (c.name) ".svg" } { "SVG" }
                    " · "
                    a href={ "charts/" (c.name) ".png" } { "PNG" }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_row_is_a_thead_that_print_repeats_on_every_page() {
        let table = HtmlTable {
            head: vec![html! { "point" }, html! { "wins" }],
            rows: vec![vec![html! { "0" }, html! { "51%" }]; 3],
            keys: 1,
            key_headers: false,
        };
        let html = table.markup().into_string();
        assert!(
            html.starts_with(
                "<table><thead><tr><th>point</th><th>wins</th></tr></thead><tbody><tr>"
            ),
            "{html}"
        );
        assert_eq!(html.matches("<thead>").count(), 1);
    }

    #[test]
    fn widths_read_text_not_markup() {
        assert_eq!(text_width("83.1%<br><small>83.1–83.8</small>"), 9);
        assert_eq!(text_width("a &amp; b"), 5);
        assert_eq!(header_width("Swordsman's melee ML<br><small>x</small>"), 11);
    }

    #[test]
    fn a_wide_table_is_split_keeping_its_keys_and_every_column_once() {
        let head: Vec<Markup> = (0..30).map(|i| html! { "column " (i) }).collect();
        let table = HtmlTable {
            rows: vec![head.iter().map(|_| html! { "12.3%" }).collect()],
            head,
            keys: 2,
            key_headers: false,
        };
        let parts = table.parts();
        assert!(parts.len() > 1, "{parts:?}");
        let widths = table.widths();
        let mut next = 2;
        for p in &parts {
            assert_eq!(p.start, next);
            next = p.end;
            let row: usize =
                widths[..2].iter().sum::<usize>() + widths[p.clone()].iter().sum::<usize>();
            assert!(row <= ROW_BUDGET, "{p:?}: {row}");
        }
        assert_eq!(next, 30);
        let h = table.markup().into_string();
        assert_eq!(h.matches("<table>").count(), parts.len());
        assert_eq!(h.matches("<th>column 0</th>").count(), parts.len());
        assert_eq!(h.matches("<th>column 29</th>").count(), 1);
    }
}
