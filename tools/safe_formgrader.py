"""Formgrader's pages safe to open on learners' work (the teacher's make teach and make formgrade, and the course hub's
Formgrader: setup/jupyterlab/teacher/jupyter_server_config.py loads both parts).

Formgrader shows each hand-in as HTML, in the teacher's browser, with the rights of the server it runs in (on the hub, a
Jupyter server as the grader account, on the hub's one web origin: a script there could start a kernel as the grader
and rewrite the gradebook). Two walls, each enough alone:
- Cleaned: a preprocessor of nbconvert's exporter that cleans, with bleach (nbconvert's own cleaner) and an allowlist
  of markup, each markdown and raw cell and each output before the page is made: what a hand-in says and shows stays
  (paragraphs, headings, lists, tables, images as data, links out), while script, event handlers, javascript: links,
  SVG, styles and ids go; a disallowed tag is shown as text, so the teacher sees what was tried. Outputs keep only
  text, images and cleaned HTML. Not nbconvert's own sanitize_html: nbgrader's submission template renders markdown
  cells without it, and its cleaner shows every <p>, heading and image as escaped text.
- A Content-Security-Policy on Formgrader's pages that runs the page's own scripts alone: its files ('self'), and the
  inline scripts of nbgrader's templates by their hashes, taken from the page before the notebook's place in it (a
  hand-in's own inline script, event handler or javascript: link runs nowhere). Jupyter Server takes one fixed policy
  (tornado_settings' headers), and nbgrader's templates hold inline scripts that change with each page, so the policy
  is made for each page as it leaves (a tornado output transform)."""
import base64
import hashlib
import re

import bleach
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.preprocessors import Preprocessor
from tornado.web import OutputTransform

PAGES = "/formgrader"  # Formgrader's own pages, under the server's base URL
NOTEBOOK = 'id="notebook-container"'  # where nbgrader's submission page puts the hand-in: no script after it is the page's
INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
# nbgrader's templates' own event handlers (formgrade_macros.html.j2, gradebook_notebook_submissions.tpl), by their text
OWN_HANDLERS = ("toggle_name(true);", "toggle_name(false);", "toggleAllNames()")


TAGS = {"a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "del", "details", "div", "dl", "dt", "em",
        "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "ol", "p", "pre",
        "q", "s", "samp", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th",
        "thead", "tr", "u", "ul", "var"}
SHOWN = ("text/plain", "image/png", "image/jpeg", "image/gif", "text/html")  # outputs kept (text/html cleaned)


def allowed(tag, name, value):
    """Which attributes stay: layout and accessibility ones, links out, and images carried in the notebook itself."""
    if name in ("class", "title", "role", "colspan", "rowspan", "scope", "align", "open", "alt", "width", "height") or name.startswith("aria-"):
        return True
    if tag == "a" and name == "href":
        return value.startswith(("http://", "https://", "mailto:", "#"))
    return tag == "img" and name == "src" and value.startswith(("data:image/png", "data:image/jpeg", "data:image/gif"))


CLEANER = bleach.sanitizer.Cleaner(tags=TAGS, attributes=allowed, protocols={"http", "https", "mailto", "data"}, strip=False)


def markdown_html(source, attachments):
    """Markdown as nbconvert renders it (math kept for MathJax, attachments embedded)."""
    return MarkdownWithMath(renderer=IPythonRenderer(escape=False, attachments=attachments)).render(source)


class Cleaned(Preprocessor):
    """Each markdown and raw cell replaced by its cleaned HTML, each output by its text, images and cleaned HTML; the
    notebook's widget state (rendered into the page as a script element) dropped."""

    def preprocess(self, nb, resources):
        nb.metadata.pop("widgets", None)
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown":
            cell.source = CLEANER.clean(markdown_html(cell.source, cell.get("attachments", {})))
            cell.pop("attachments", None)
        elif cell.cell_type == "raw":
            cell.source = CLEANER.clean(cell.source)
        for output in cell.get("outputs", []):
            if "data" in output:
                data = output["data"]
                if "text/markdown" in data and "text/html" not in data:
                    data["text/html"] = markdown_html(data["text/markdown"], {})
                output["data"] = {mime: CLEANER.clean(value) if mime == "text/html" else value
                                  for mime, value in data.items() if mime in SHOWN}
                output["metadata"] = {}
        return cell, resources


def digest(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text).digest()).decode() + "'"


def policy(page):
    """The Content-Security-Policy of one Formgrader page (its bytes, whole)."""
    own = page.split(NOTEBOOK.encode(), 1)[0]
    scripts = sorted({digest(found.group(1)) for found in INLINE_SCRIPT.finditer(own)})
    handlers = [digest(text.encode()) for text in OWN_HANDLERS]
    return ("default-src 'self'; "
            f"script-src 'self' 'unsafe-hashes' {' '.join(scripts + handlers)}; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
            "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'")


class OwnScriptsOnly(OutputTransform):
    """Sets each Formgrader page's policy as it leaves; a page sent in parts gets the policy of no inline script."""

    def __init__(self, request):
        super().__init__(request)
        self.formgrader = PAGES in request.path

    def transform_first_chunk(self, status_code, headers, chunk, finishing):
        if self.formgrader and headers.get("Content-Type", "").startswith("text/html"):
            headers["Content-Security-Policy"] = policy(chunk if finishing else b"")
        return status_code, headers, chunk


def _load_jupyter_server_extension(server):
    server.web_app.transforms.insert(0, OwnScriptsOnly)  # first: it reads the page before any compression
