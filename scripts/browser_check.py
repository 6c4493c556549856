"""Checks report pages as a reader sees them, in headless Chromium driven by Playwright.

Each report.html is opened on screen in a 1280 px window and again with print media at the
printable width of an A4 page (what Chromium's print uses), then printed to an A4 PDF. A page
fails when any element is wider than the page or its container (a table that needs horizontal
scrolling, a `pre` cut at the right edge, a caption running past its figure), when a chart is
missing (a figure with no drawn SVG, a linked chart file that is not there, an image that did not
load), or when a print heading is left at the foot of a page. It looks inside every chart too:
its text must print at 7 pt or more on A4 (font size x rendered width / viewBox width) and
show at 11 px or more on screen, and no text of a chart may overlap other text or be cut at
the chart's edge. A report must open as a rulebook page: a headline sentence and the chart
that answers it before the first table, both on the first screen at 1280 px, and no table
may have a `point` column. Its results (all that comes before the appendix) must print on at
most RESULT_PAGES pages (fewer for the scenarios RESULT_PAGES_OF names). It prints one line
per report with the printed page counts, and exits 1 if anything failed.

    python3 scripts/browser_check.py [--shots DIR] REPORT.html ...

With --shots, the screen screenshot (whole page and first screen) and the PDF of each report are
written to DIR
for a person to look at. Run through scripts/browser-check, which installs what this needs.
"""

import argparse
import os
import re
import sys
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

SCREEN_WIDTH = 1280
# A4 is 210 mm wide; report.html's @page margins are 12 mm each side: 186 mm at 96 px an inch.
PRINT_WIDTH = round(186 / 25.4 * 96)

# Every element of the page that is wider than the window or than its own box (content that
# spills or scrolls), and every figure whose chart is missing. Elements inside an SVG are the
# chart's own drawing and are left out; so are elements that are not rendered (closed details).
FIND_PROBLEMS = r"""
() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const text = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 50);
    return text ? `${s} "${text}"` : s;
  };
  if (document.documentElement.scrollWidth > width + 1) {
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
  }
  const reported = new Set();
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline') continue;
    const inside = [...reported].some((p) => p.contains(el));
    if (inside) continue;
    if (r.right > width + 1) {
      problems.push(`${name(el)} reaches ${Math.round(r.right)} px, past the ${width} px page`);
      reported.add(el);
    } else if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)} holds ${el.scrollWidth} px in ${el.clientWidth} px (${style.overflowX === 'visible' ? 'spills over' : 'scrolls'})`);
      reported.add(el);
    }
  }
  for (const fig of document.querySelectorAll('figure')) {
    const svg = fig.querySelector('svg');
    if (!svg) { problems.push(`${name(fig)} has no chart`); continue; }
    const r = svg.getBoundingClientRect();
    if (r.width < 50 || r.height < 50) problems.push(`${name(fig)}: its chart is ${Math.round(r.width)}x${Math.round(r.height)} px`);
  }
  for (const img of document.querySelectorAll('img')) {
    if (!img.complete || img.naturalWidth === 0) problems.push(`image ${img.getAttribute('src')} did not load`);
  }
  return problems;
}
"""

# Inside every chart: the printed (or shown) size of each text, as font size x rendered width /
# viewBox width; texts that overlap (their boxes share more than a sliver) and texts that reach
# past the chart's edge. Texts with nothing visible (empty, or transparent hover titles) are
# left out. Returns one entry per chart: its id, the sizes in CSS px, and its problems.
CHART_TEXT = r"""
() => {
  const charts = [];
  for (const fig of document.querySelectorAll('figure')) {
    const svg = fig.querySelector('svg');
    if (!svg) continue;
    const box = svg.getBoundingClientRect();
    const vb = svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width
      ? svg.viewBox.baseVal.width : parseFloat(svg.getAttribute('width'));
    const scale = box.width / vb;
    const sizes = [];
    const problems = [];
    const boxes = [];
    for (const t of svg.querySelectorAll('text')) {
      const words = (t.textContent || '').trim();
      if (!words) continue;
      const size = parseFloat(getComputedStyle(t).fontSize);
      sizes.push(size * scale);
      const r = t.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // The glyphs' box: a text's line box has room above and below its letters.
      const pad = 0.18 * size * scale;
      const b = { l: r.left, r: r.right, t: r.top + pad, b: r.bottom - pad, words };
      if (b.l < box.left - 1 || b.r > box.right + 1 || b.t < box.top - 1 || b.b > box.bottom + 1) {
        problems.push(`"${words.slice(0, 40)}" is cut at the chart's edge`);
      }
      for (const o of boxes) {
        const w = Math.min(b.r, o.r) - Math.max(b.l, o.l);
        const h = Math.min(b.b, o.b) - Math.max(b.t, o.t);
        if (w > 1.5 && h > 1.5) {
          problems.push(`"${words.slice(0, 30)}" overlaps "${o.words.slice(0, 30)}"`);
        }
      }
      boxes.push(b);
    }
    sizes.sort((a, b) => a - b);
    // A figure printed on a landscape page of its own (the exact grid) is laid out wider there
    // than on this portrait-width view: its sizes are scaled in Python.
    // (The page is named on the figure or on the section that holds it.)
    let landscape = false;
    for (let el = fig; el; el = el.parentElement) {
      if (getComputedStyle(el).page === 'landscape') { landscape = true; break; }
    }
    charts.push({ id: fig.id || '(figure)', sizes, problems, landscape, shown: box.width,
                  aspect: box.height / box.width });
  }
  return charts;
}
"""

# The rulebook page: where the headline sentence, the first chart and the first table are, and
# every table heading that is only `point`.
OPENING = r"""
() => {
  const top = (el) => el ? el.getBoundingClientRect().top + window.scrollY : null;
  const headline = document.querySelector('.headline');
  const figure = document.querySelector('figure');
  const table = document.querySelector('table');
  const points = [...document.querySelectorAll('th')]
    .filter((th) => th.textContent.trim().toLowerCase() === 'point').length;
  return {
    headline: top(headline),
    headlineText: headline ? headline.textContent.trim() : '',
    figure: top(figure),
    figureBottom: figure ? top(figure) + figure.querySelector('svg').getBoundingClientRect().height : null,
    table: top(table),
    points,
  };
}
"""

# A landscape A4 page's width inside 12 mm margins, and the height the exact grid may take
# under the title and headline on the same page.
LANDSCAPE_WIDTH = 273 / 25.4 * 96
LANDSCAPE_HEIGHT = 135 / 25.4 * 96
# What a person sees of the page before scrolling.
FIRST_SCREEN = 900
# The smallest chart text, printed on A4 (pt) and on screen at 1280 px (CSS px).
MIN_PRINT_PT = 7.0
MIN_SCREEN_PX = 11.0
# The most A4 pages the results (all before the appendix) may take, and fewer for these.
RESULT_PAGES = 6
# An exact report: its title, headline and grid on a landscape page, then each direction's
# outcomes.
EXACT_PAGES = 8
RESULT_PAGES_OF = {
    "twin-d20-weapon-armour-matrix": 4,
    "zone-d100-melee-skill-range": 4,
    "d6-pool-critical-damage-table": 4,
}


def median(values: list[float]) -> float:
    return values[len(values) // 2] if values else 0.0


def chart_problems(page, where: str, least: float, unit: str, to_unit: float) -> list[str]:
    """Each chart whose text is smaller than `least` (median and smallest, in `unit`), and
    every overlap or cut text inside a chart."""
    problems = []
    for chart in page.evaluate(CHART_TEXT):
        scale = 1.0
        if chart["landscape"] and unit == "pt":
            # Across a landscape page's width, at most its height (report.html's GRID_PRINT).
            width = min(LANDSCAPE_WIDTH, LANDSCAPE_HEIGHT / max(chart["aspect"], 1e-9))
            scale = width / chart["shown"]
        sizes = [s * to_unit * scale for s in chart["sizes"]]
        if sizes and median(sizes) < least:
            problems.append(f"{where}: chart {chart['id']}: its text is {median(sizes):.1f} {unit} "
                            f"(median; smallest {sizes[0]:.1f}), under {least:g} {unit}")
        elif sizes and sizes[0] < least - 0.05:
            problems.append(f"{where}: chart {chart['id']}: its smallest text is "
                            f"{sizes[0]:.1f} {unit}, under {least:g} {unit}")
        for p in chart["problems"][:4]:
            problems.append(f"{where}: chart {chart['id']}: {p}")
    return problems


def opening_problems(page) -> list[str]:
    """Whether the page opens as a rulebook page: headline and answering chart first."""
    o = page.evaluate(OPENING)
    problems = []
    if o["headline"] is None:
        problems.append("no headline sentence (.headline)")
    elif o["headline"] > FIRST_SCREEN:
        problems.append(f"the headline starts at {o['headline']:.0f} px, below the first screen")
    if o["figure"] is not None:
        if o["table"] is not None and o["figure"] > o["table"]:
            problems.append("the first table comes before the answering chart")
        elif o["figure"] > FIRST_SCREEN - 150:
            problems.append(f"the answering chart starts at {o['figure']:.0f} px, off the first screen")
    if o["points"]:
        problems.append(f"{o['points']} table(s) have a `point` column")
    return problems


LINKS = "() => [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href'))"


def page_count(pdf: bytes) -> int:
    """Pages of a PDF Chromium wrote (its page objects are plain, not in object streams)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def check(browser, report: Path, shots: Path | None) -> tuple[list[str], int, int]:
    problems = []
    url = report.resolve().as_uri()
    folder = report.parent
    page = browser.new_page(viewport={"width": SCREEN_WIDTH, "height": FIRST_SCREEN})
    page.goto(url)
    for p in page.evaluate(FIND_PROBLEMS):
        problems.append(f"screen {SCREEN_WIDTH} px: {p}")
    problems += chart_problems(page, f"screen {SCREEN_WIDTH} px", MIN_SCREEN_PX, "px", 1.0)
    problems += [f"screen {SCREEN_WIDTH} px: {p}" for p in opening_problems(page)]
    for href in page.evaluate(LINKS):
        if re.match(r"^[a-z]+:", href) or href.startswith("#"):
            continue
        if not (folder / href).exists():
            problems.append(f"a link to {href}, which is not there")
    label = report.parent.name
    if shots:
        page.screenshot(path=str(shots / f"{label}-screen.png"), full_page=True)
        page.set_viewport_size({"width": SCREEN_WIDTH, "height": FIRST_SCREEN})
        page.screenshot(path=str(shots / f"{label}-first-screen.png"))
    page.close()
    page = browser.new_page(viewport={"width": PRINT_WIDTH, "height": 1000})
    page.emulate_media(media="print")
    page.goto(url)
    for p in page.evaluate(FIND_PROBLEMS):
        problems.append(f"print (A4, {PRINT_WIDTH} px): {p}")
    # CSS px to pt: 72 / 96.
    problems += chart_problems(page, "print (A4)", MIN_PRINT_PT, "pt", 0.75)
    pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    # The results alone: the page printed again without its appendix.
    page.evaluate("() => document.querySelectorAll('.appendix').forEach((a) => a.remove())")
    results = page_count(page.pdf(format="A4", prefer_css_page_size=True, print_background=True))
    page.close()
    most = RESULT_PAGES_OF.get(label, EXACT_PAGES if label.endswith("-exact") else RESULT_PAGES)
    if results > most:
        problems.append(f"print (A4): the results take {results} pages, more than {most}")
    if shots:
        (shots / f"{label}.pdf").write_bytes(pdf)
    return problems, page_count(pdf), results


def launch(p, chromium: str, attempts: int = 3):
    """Chromium, launched headless. A launch that crashes (Debian's Chromium has died with
    SIGSEGV at start, on a run that passed whole when started again) is tried again, up to
    `attempts` times in all: a crash at launch says nothing about the reports."""
    for _ in range(attempts - 1):
        try:
            return p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        except PlaywrightError as crash:
            first_line = str(crash).splitlines()[0] if str(crash) else type(crash).__name__
            print(f"browser check: Chromium did not start ({first_line}); trying again",
                  file=sys.stderr)
    return p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=Path, help="write screenshots and PDFs here")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("reports", nargs="+", type=Path)
    args = parser.parse_args()
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    failed = 0
    with sync_playwright() as p:
        browser = launch(p, args.chromium)
        for report in args.reports:
            problems, pages, results = check(browser, report, args.shots)
            status = "ok" if not problems else "FAILED"
            print(f"{status}: {report} ({pages} A4 pages printed, results on {results})")
            for problem in problems[:12]:
                print(f"    {problem}")
            if len(problems) > 12:
                print(f"    ... and {len(problems) - 12} more")
            failed += bool(problems)
        browser.close()
    print(f"browser check: {len(args.reports) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
