"""tools/stability.py, issue 14's acceptance measure, on saves made up for the purpose."""
import json

import stability


def save(folder, lab, started, verdicts):
    doc = {"lab": lab, "preset": "quick", "started": started,
           "verdicts": [{"claim": c, "verdict": v, "measured": m} for c, v, m in verdicts]}
    (folder / f"{lab}-{started}.json").write_text(json.dumps(doc))


def test_kept_too_close_and_hard_flips(tmp_path, capsys):
    save(tmp_path, "01", "1", [("steady", "holds", "1.0×"), ("edge", "too close to call", "1.24×"), ("flip", "holds", "1.1×")])
    save(tmp_path, "01", "2", [("steady", "holds", "1.0×"), ("edge", "too close to call", "1.26×"), ("flip", "changed", "2×")])
    save(tmp_path, "01", "3", [("steady", "holds", "1.1×"), ("edge", "too close to call", "1.25×"), ("flip", "holds", "1.2×"),
                               ("new", "holds", "3×")])  # judged in one pass only: not counted
    save(tmp_path, "02", "1", [("x", "holds", "")])  # fewer saves than --last: left out
    stability.main([str(tmp_path), "--last", "3"])
    out = capsys.readouterr().out
    assert "3 claims judged in every pass" in out
    assert "kept one verdict: 2 of 3 (67%)" in out
    assert "too close to call: 3 of 9 rows (33.3%)" in out
    assert "hard flips (holds and changed/reversed, never too close): 1\n  01 flip: holds (1.1×) | changed (2×) | holds (1.2×)" in out
    assert out.endswith("too close to call in every pass:\n  01 edge: 1.24× | 1.26× | 1.25×\n")


def test_pairs_of_passes_whose_intervals_miss_each_other(tmp_path, capsys):
    def judged(value, low, high):
        return {"claim": "c", "verdict": "holds", "measured": "", "judged": {"value": value, "low": low, "high": high}}

    for started, figure in (("1", judged(1.30, 1.28, 1.33)), ("2", judged(1.24, 1.21, 1.27)), ("3", judged(1.29, 1.26, 1.31))):
        doc = {"lab": "03", "preset": "quick", "started": started, "verdicts": [figure, {"claim": "words", "verdict": "holds"}]}
        (tmp_path / f"03-{started}.json").write_text(json.dumps(doc))
    stability.main([str(tmp_path), "--last", "3"])
    out = capsys.readouterr().out
    # 1 and 2 miss each other (1.28 > 1.27), 2 and 3 do not (1.27 > 1.26), 1 and 3 overlap; the claim in words has no figure
    assert "intervals for one claim do not overlap: 1 of 3 (33.3%;" in out
    assert out.endswith("  03 c: 1.3 [1.28–1.33] | 1.24 [1.21–1.27] | 1.29 [1.26–1.31]\n")
