"""The rendered book, opened page by page in headless Chromium.

Run after ``make book`` (``make check-book`` does both the set-up and the run). For
every page: MathJax typeset every formula without error and no raw TeX is left in the
prose, every image loaded and has alt text, no cell shows an error or stderr output,
every internal link points to an existing page and anchor, the page requests nothing
from the network (every request other than a local file is refused and reported: MathJax
is served by the book itself, from ``_static/mathjax``), launch links (Binder, Colab)
appear for the repository given at build time (``$BOOK_REPOSITORY_URL``) and for no
other, and the claims ledger shows every claim of ``stumplib.claims.IDS`` holding. A
full-page screenshot of each page is saved to ``_build/screenshots``.
"""

import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from stumplib import claims

ROOT = Path(__file__).resolve().parents[2]
HTML = Path(os.environ.get("BOOK_HTML", ROOT / "_build" / "html"))
SHOTS = Path(os.environ.get("BOOK_SCREENSHOTS", ROOT / "_build" / "screenshots"))
MATHJAX = HTML / "_static" / "mathjax" / "tex-mml-chtml.js"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
RAW_TEX = re.compile(r"\\[a-zA-Z]+|\\[()\[\]]|\$")
LAUNCH = yaml.safe_load((ROOT / "_config.yml").read_text())["launch_buttons"]
REPOSITORY = os.environ.get("BOOK_REPOSITORY_URL", "").strip().rstrip("/")
BRANCH = os.environ.get("BOOK_REPOSITORY_BRANCH") or "main"
PAGES = sorted(p.relative_to(HTML).as_posix() for p in (HTML / "book").glob("*.html"))

# Everything the page shows as prose: the body without code, outputs, typeset math and scripts.
PROSE_JS = """() => {
  const body = document.querySelector('article') || document.body;
  const copy = body.cloneNode(true);
  copy.querySelectorAll('pre, code, mjx-container, script, style, .cell_output, .highlight')
      .forEach(e => e.remove());
  return copy.innerText;
}"""
IMAGES_JS = """() => Array.from(document.images).map(i => (
  {src: i.getAttribute('src'), ok: i.complete && i.naturalWidth > 0, alt: i.getAttribute('alt')}))"""
LEDGER_JS = """() => Array.from(document.querySelectorAll('table.claims-ledger tbody tr')).map(
  r => Array.from(r.cells).map(c => c.innerText.trim()))"""  # id + chapter, statement, result


def test_book_is_built():
    assert PAGES, f"no pages under {HTML / 'book'}: run `make book` first"
    assert MATHJAX.exists(), f"the book carries no MathJax at {MATHJAX}"


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


def offline(problems):
    """A route handler: local files load; every other request is refused and reported."""
    def route(route):
        url = route.request.url
        if url.startswith(("file://", "data:")):
            return route.continue_()
        problems.append(f"network request: {url}")
        return route.abort()
    return route


def open_page(browser, page_name):
    page = browser.new_page(viewport={"width": 1200, "height": 900}, device_scale_factor=1)
    problems = []
    page.on("pageerror", lambda exc: problems.append(f"JavaScript error: {exc}"))
    page.route("**/*", offline(problems))
    page.goto((HTML / page_name).as_uri(), wait_until="load")
    if page.query_selector("mjx-container, .math") is not None:
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
        page.evaluate("() => MathJax.startup.promise")
    return page, problems


def math_problems(page):
    problems = []
    if page.query_selector_all(".math") and not page.query_selector_all("mjx-container"):
        problems.append("MathJax typeset nothing")
    errors = page.query_selector_all("mjx-merror, [data-mjx-error]")
    problems += [f"MathJax error: {e.get_attribute('data-mjx-error') or e.inner_text()}"
                 for e in errors]
    raw = sorted(set(RAW_TEX.findall(page.evaluate(PROSE_JS))))
    if raw:
        problems.append(f"raw TeX left in the prose: {raw[:10]}")
    return problems


def image_problems(page):
    problems = []
    for image in page.evaluate(IMAGES_JS):
        if not image["ok"]:
            problems.append(f"image did not load: {image['src']}")
        alt = (image["alt"] or "").strip()
        if not alt or alt.endswith((".png", ".svg", ".jpg")):
            problems.append(f"image without alt text (alt={alt!r}): {image['src']}")
    return problems


def output_problems(page):
    bad = page.query_selector_all(".cell_output .error, .cell_output .traceback, "
                                  ".cell_output .stderr, .cell_output .output.error")
    return [f"error output in a cell: {b.inner_text()[:200]!r}" for b in bad]


class _Anchors(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        self.ids.update(v for k, v in attrs if k in ("id", "name") and v)


def _anchors(path, cache={}):
    if path not in cache:
        parser = _Anchors()
        parser.feed(path.read_text(encoding="utf-8"))
        cache[path] = parser.ids
    return cache[path]


def page_links(page):
    return set(page.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))"))


def link_problems(hrefs, page_name):
    problems = []
    for href in hrefs:
        parts = urlsplit(href)
        if parts.scheme or href.startswith(("mailto:", "javascript:")):
            continue
        target = (HTML / page_name).parent / unquote(parts.path) if parts.path else HTML / page_name
        target = target.resolve()
        if not target.exists():
            problems.append(f"broken link: {href}")
        elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _anchors(target):
            problems.append(f"link to a missing anchor: {href}")
    return problems


def launch_problems(hrefs, page_name):
    """Launch and repository links exist for $BOOK_REPOSITORY_URL only, and point at it.

    With the address of a GitHub repository, a chapter page (a notebook of the repository)
    links to Binder and Colab for that notebook on $BOOK_REPOSITORY_BRANCH, and to the
    repository and its issues; without an address, no page links to a launch service.
    """
    services = (LAUNCH["binderhub_url"], LAUNCH["colab_url"])
    launch = {h for h in hrefs if h.startswith(services)}
    if not REPOSITORY:
        return [f"launch link, but no repository address was given: {h}" for h in sorted(launch)]
    problems = [f"no link to the repository {REPOSITORY}"] if REPOSITORY not in hrefs else []
    notebook = Path(page_name).with_suffix(".ipynb")
    if (ROOT / notebook).exists() and REPOSITORY.startswith("https://github.com/"):
        owner, repo = REPOSITORY.split("/")[-2:]
        expected = {
            f"{services[0]}/v2/gh/{owner}/{repo}/{BRANCH}?urlpath=lab/tree/{notebook}",
            f"{services[1]}/github/{owner}/{repo}/blob/{BRANCH}/{notebook}",
        }
        problems += [f"missing launch link {e} (found {sorted(launch)})" for e in expected - launch]
    return problems


def ledger_problems(page):
    rows = page.evaluate(LEDGER_JS)
    problems = [f"claim check does not hold: {r}" for r in rows if r[2].split()[0] != "holds"]
    missing = set(claims.IDS) - {r[0].split()[0] for r in rows}
    if missing:
        problems.append(f"claims missing from the ledger: {sorted(missing)}")
    return problems


@pytest.mark.parametrize("page_name", PAGES)
def test_page(browser, page_name):
    page, problems = open_page(browser, page_name)
    problems += math_problems(page) + image_problems(page) + output_problems(page)
    hrefs = page_links(page)
    problems += link_problems(hrefs, page_name) + launch_problems(hrefs, page_name)
    if page_name.endswith("claims-ledger.html"):
        problems += ledger_problems(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / (Path(page_name).stem + ".png")), full_page=True)
    page.close()
    assert not problems, f"{page_name}:\n" + "\n".join(problems)
