"""The two harnesses are one protocol in two languages (COURSE.md): their flag tables must not drift. Read
from the sources: each harness's flag table (Harness.FLAGS, flags[] in harness.c), row for row, and the
limits the tables name."""
import re

from conftest import HOME

JAVA = (HOME / "java-snippets/Harness.java").read_text()
C = (HOME / "c-snippets/harness.c").read_text()


def section(text, start, end):
    return text[text.index(start):text.index(end, text.index(start))]


def split_cells(text):
    """The cells of one table row, split at the commas outside parentheses."""
    cells, depth, cell = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            cells.append(cell.strip())
            cell = ""
        else:
            cell += ch
    return cells + [cell.strip()]


def normal(cell):
    """A cell as both languages mean it: null/NULL is None, a list is its items, the largest long is one name."""
    if cell in ("null", "NULL"):
        return None
    if cell in ("Long.MAX_VALUE", "INT64_MAX"):
        return "the largest 64-bit integer"
    listed = re.fullmatch(r"(?:List\.of|LIST)\((.*)\)", cell, re.S)
    if listed:
        return re.findall(r'"([^"]*)"', listed.group(1))
    return cell.removeprefix("Kind.")


def java_table():
    table = section(JAVA, "static final List<Flag> FLAGS = List.of(", ");\n")
    return [[normal(c) for c in split_cells(row)] for row in re.findall(r"new Flag\((.*?)\)(?=,\s*new Flag|\);|$)", table + ");", re.S)]


def c_table():
    table = section(C, "static const struct flag flags[] = {", "};\n")
    found = [split_cells(row) for row in re.findall(r"\{(\"--.*?)\},", table, re.S)]
    for row in found:  # C's last cell says where the value goes: the field named after the flag
        field = row[0].strip('"').removeprefix("--").replace("-", "_")
        assert re.sub(r"\s+", " ", row[-1]) == f"offsetof(struct options, {field})", row
    return [[normal(c) for c in row[:-1]] for row in found]


def test_both_harnesses_declare_one_flag_table():
    """Name, kind, default, range, allowed values and the snippets that take it: row for row the same."""
    java, c = java_table(), c_table()
    assert len(java) == 17 and java == c


def test_every_snippet_a_flag_names_is_one():
    """A snippet named in a flag's used-by column but run under another name would never take the flag."""
    used_by = {name for row in c_table() if row[-1] for name in row[-1]}
    java = set(re.findall(r'Harness\.run\("([a-z_]+)"', "".join(p.read_text() for p in (HOME / "java-snippets").glob("*.java"))))
    c = set(re.findall(r'harness_run\("([a-z_]+)"', "".join(p.read_text() for p in (HOME / "c-snippets").glob("*.c"))))
    assert used_by <= java and used_by - {"typed_ffm"} <= c  # typed_ffm alone has no C twin: the FFM API is Java's


def limit(text):
    """The value of a limit as either language writes it: 256, 64L << 30, (INT64_C(64) << 30)."""
    m = re.fullmatch(r"\(?(?:INT64_C\()?(\d+)L?\)?(?:\s*<<\s*(\d+))?\)?", text.strip())
    assert m, text
    return int(m.group(1)) << int(m.group(2) or 0)


def test_the_limits_are_the_same():
    for name in ("MAX_FILE_SIZE", "MAX_OP_SIZE", "MAX_BUFFER_SIZE", "MAX_MARGIN", "MAX_THREADS", "MAX_PROCS"):
        java = re.search(rf"static final \w+ {name} = ([^;]+);", JAVA).group(1)
        c = re.search(rf"^#define {name} (.+)$", C, re.M).group(1)
        assert limit(java) == limit(c), name
