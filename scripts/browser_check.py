"""Checks report pages as a reader sees them, in headless Chromium driven by Playwright.

Each report.html is opened on screen in a 1280 px window and again with print media at the
printable width of an A4 page (what Chromium's print uses), then printed to an A4 PDF. A page
fails when any element is wider than the page or its container (a table that needs horizontal
scrolling, a `pre` cut at the right edge, a caption running past its figure), when a chart is
missing (a figure with no drawn SVG, a linked chart file that is not there, an image that did not
load), or when a print heading is left at the foot of a page. It prints one line per page and
view, the printed page count, and exits 1 if anything failed.

    python3 scripts/browser_check.py [--shots DIR] REPORT.html ...

With --shots, the screen screenshot (whole page) and the PDF of each report are written to DIR
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

LINKS = "() => [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href'))"


def page_count(pdf: bytes) -> int:
    """Pages of a PDF Chromium wrote (its page objects are plain, not in object streams)."""
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def check(browser, report: Path, shots: Path | None) -> tuple[list[str], int]:
    problems = []
    url = report.resolve().as_uri()
    folder = report.parent
    page = browser.new_page(viewport={"width": SCREEN_WIDTH, "height": 900})
    page.goto(url)
    for p in page.evaluate(FIND_PROBLEMS):
        problems.append(f"screen {SCREEN_WIDTH} px: {p}")
    for href in page.evaluate(LINKS):
        if re.match(r"^[a-z]+:", href) or href.startswith("#"):
            continue
        if not (folder / href).exists():
            problems.append(f"a link to {href}, which is not there")
    label = report.parent.name
    if shots:
        page.screenshot(path=str(shots / f"{label}-screen.png"), full_page=True)
    page.close()
    page = browser.new_page(viewport={"width": PRINT_WIDTH, "height": 1000})
    page.emulate_media(media="print")
    page.goto(url)
    for p in page.evaluate(FIND_PROBLEMS):
        problems.append(f"print (A4, {PRINT_WIDTH} px): {p}")
    pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    page.close()
    if shots:
        (shots / f"{label}.pdf").write_bytes(pdf)
    return problems, page_count(pdf)


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
            problems, pages = check(browser, report, args.shots)
            status = "ok" if not problems else "FAILED"
            print(f"{status}: {report} ({pages} A4 pages printed)")
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
