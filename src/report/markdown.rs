//! Markdown tables to paste into a rulebook: cells escaped, numbers right-aligned.

/// A Markdown cell: markup a renderer would run (`<script>`, `<img onerror>`) written as
/// text, pipes escaped, lines joined.
fn cell(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// A Markdown table of `head` and `rows`, the first `left` columns left-aligned, the rest right.
pub(crate) fn markdown(head: &[String], rows: &[Vec<String>], left: usize) -> String {
    let mut out = String::new();
    let line = |cells: &[String]| {
        format!(
            "| {} |\n",
            cells
                .iter()
                .map(|c| cell(c))
                .collect::<Vec<_>>()
                .join(" | ")
        )
    };
    out.push_str(&line(head));
    let rule: Vec<String> = (0..head.len())
        .map(|c| if c < left { "---" } else { "---:" }.to_owned())
        .collect();
    out.push_str(&line(&rule));
    for row in rows {
        out.push_str(&line(row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_carries_no_markup_a_renderer_would_run() {
        let table = markdown(
            &["name".to_owned()],
            &[vec![
                "<script>alert(1)</script> & <img onerror=x>".to_owned(),
            ]],
            1,
        );
        assert!(!table.contains('<') && !table.contains('>'), "{table}");
        assert!(
            table.contains("&lt;script&gt;") && table.contains("&amp;"),
            "{table}"
        );
    }
}
