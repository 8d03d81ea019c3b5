"""The two harnesses are one protocol in two languages (COURSE.md): their flag tables must not drift. Read
from the sources, in order: the flags each parser knows, the flags only some snippets take, the list an
unknown flag's message offers, and the limits they check against."""
import re

from conftest import HOME

JAVA = (HOME / "java-snippets/Harness.java").read_text()
C = (HOME / "c-snippets/harness.c").read_text()


def section(text, start, end):
    return text[text.index(start):text.index(end, text.index(start))]


def java_flags():
    parse = section(JAVA, "static Options parse(", "if (opSize > fileSize)")
    return re.findall(r'flag\.equals\("(--[a-z-]+)"\)|case "(--[a-z-]+)"', parse)


def c_flags():
    parse = section(C, "for (int i = 1; i < argc && !error; i++)", "if (error) return error;")
    return re.findall(r'strcmp\(flag, "(--[a-z-]+)"\) == 0', parse)


def test_both_parsers_know_the_same_flags_in_the_same_order():
    java = [a or b for a, b in java_flags()]
    assert len(java) >= 16 and java == c_flags()


def test_the_flags_only_some_snippets_take_are_one_list_in_both():
    java = re.search(r'SNIPPET_FLAGS = List\.of\(([^)]*)\)', JAVA).group(1)
    c = re.search(r'snippet_flags\[\] = \{([^}]*)\}', C).group(1)
    assert re.findall(r'"(--[a-z-]+)"', java) == re.findall(r'"(--[a-z-]+)"', c)


def test_an_unknown_flag_is_offered_the_same_list():
    java = re.search(r'"unknown flag " \+ flag \+ " \(allowed: ([^"]*)"\s*\+\s*"([^"]*)"', JAVA)
    c = re.search(r'"unknown flag %s \(allowed: ([^"]*)"\s*"([^"]*)"', C)
    assert (java.group(1) + java.group(2)).split() == (c.group(1) + c.group(2)).split()


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
