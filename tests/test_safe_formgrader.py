"""Formgrader's pages safe to open on learners' work (tools/safe_formgrader.py), checked without a browser: what the
cleaning keeps and drops of a hand-in, and which inline scripts the page's policy lets run. tests/test_hub.py opens
a hostile hand-in in Formgrader in Chromium."""
import base64
import hashlib

import nbformat

import safe_formgrader

SCRIPTS = "<script>alert(1)</script><img src=x onerror=\"alert(2)\"><svg onload=\"alert(3)\"></svg>"


def hand_in():
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell("x")
    code.outputs = [nbformat.v4.new_output("display_data", data={"text/html": f"<table><tr><td>1</td></tr></table>{SCRIPTS}", "text/plain": "t"}),
                    nbformat.v4.new_output("display_data", data={"application/javascript": "alert(4)", "image/svg+xml": "<svg/>",
                                                                  "text/markdown": f"**bold** {SCRIPTS}"})]
    nb.cells = [nbformat.v4.new_markdown_cell(f"# Answer\n\nMine, [out](https://example.org) [in](javascript:alert(5)) {SCRIPTS}"),
                nbformat.v4.new_raw_cell(SCRIPTS, metadata={"raw_mimetype": "text/html"}), code]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    return nb


def test_a_hand_in_keeps_what_it_says_and_loses_its_script():
    nb, _ = safe_formgrader.Cleaned().preprocess(hand_in(), {})
    markdown, raw, code = nb.cells
    assert "<h1>Answer" in markdown.source and '<a href="https://example.org">out</a>' in markdown.source
    assert "javascript:" not in markdown.source and "onerror" not in markdown.source
    for html in (markdown.source, raw.source, code.outputs[0].data["text/html"], code.outputs[1].data["text/html"]):
        assert "<script" not in html and "<svg" not in html and "onerror" not in html, html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, "what was tried is shown as text"
    assert "<table><tbody><tr><td>1</td></tr></tbody></table>" in code.outputs[0].data["text/html"]
    assert "<strong>bold</strong>" in code.outputs[1].data["text/html"]
    assert set(code.outputs[1].data) == {"text/html"}, "no JavaScript or SVG output, the markdown made HTML"
    assert "widgets" not in nb.metadata


def digest(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_page_s_own_inline_scripts_run_and_a_hand_in_s_do_not():
    page = ('<html><head><script src="/static/a.js"></script><script>var submission_id = "1";</script></head><body>'
            '<div class="container" id="notebook-container"><script>alert(1)</script></div></body></html>').encode()
    policy = safe_formgrader.policy(page)
    assert digest('var submission_id = "1";') in policy
    assert digest("alert(1)") not in policy
    assert "script-src 'self' 'unsafe-hashes'" in policy and "'unsafe-inline'" not in policy.split("style-src")[0]
    assert digest("toggle_name(true);") in policy, "nbgrader's own event handlers, by their text"
    assert safe_formgrader.policy(b"").count("sha256-") == len(safe_formgrader.OWN_HANDLERS), "a page sent in parts: no inline script"
