"""The two harnesses are one protocol in two languages (COURSE.md): the same rooms, file for file, and their flag
tables must not drift. Read from the sources: each harness's rooms (java-snippets/harness/, c-snippets/harness/), its
flag table (Flags.FLAGS, flags[] in flags.c), row for row, and the limits the tables name."""
import re

from conftest import HOME

JAVA_ROOMS = {path.stem.lower(): path.read_text() for path in sorted((HOME / "java-snippets/harness").glob("*.java"))}
C_ROOMS = {path.stem: path.read_text() for path in sorted((HOME / "c-snippets/harness").glob("*.c"))}
C_HEADERS = {path.name: path.read_text() for path in sorted((HOME / "c-snippets/harness").glob("*.h"))}
# the room of each Java class: its file's class, and the classes Data.java holds beside Data
ROOM_CLASS = {room: room.capitalize() for room in JAVA_ROOMS}


def test_both_harnesses_have_the_same_rooms_each_about_400_lines_at_most():
    """A room in one language is a room in the other, by the same name (Flags.java, flags.c), and none is a building."""
    assert set(JAVA_ROOMS) == set(C_ROOMS) and len(JAVA_ROOMS) >= 6, (sorted(JAVA_ROOMS), sorted(C_ROOMS))
    sizes = {name: text.count("\n") for name, text in [*JAVA_ROOMS.items(), *C_ROOMS.items(), *C_HEADERS.items()]}
    assert max(sizes.values()) <= 420, sizes


def test_a_snippet_names_one_file_of_the_harness():
    """Java snippets name harness/Harness.java (which brings the other rooms), C snippets include harness/harness.h."""
    for path in (HOME / "java-snippets").glob("*.java"):
        if "Harness.run(" in path.read_text():  # a snippet (helpers such as Mpi.java come in with one)
            assert re.search(r"^//SOURCES harness/Harness\.java\b", path.read_text(), re.M), path.name
            assert not re.search(r"^//SOURCES.*harness/(?!Harness\.java)", path.read_text(), re.M), path.name
    for path in (HOME / "c-snippets").glob("*.c"):
        includes = re.findall(r'^#include "([^"]+)"', path.read_text(), re.M)
        assert includes in ([], ["harness/harness.h"]), (path.name, includes)
    rooms = set(re.search(r"^//SOURCES (.*)$", JAVA_ROOMS["harness"], re.M).group(1).split())
    assert rooms == {p.name for p in (HOME / "java-snippets/harness").glob("*.java")} - {"Harness.java"}


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
    table = section(JAVA_ROOMS["flags"], "static final List<Flag> FLAGS = List.of(", ");\n")
    return [[normal(c) for c in split_cells(row)] for row in re.findall(r"new Flag\((.*?)\)(?=,\s*new Flag|\);|$)", table + ");", re.S)]


def c_table():
    table = section(C_ROOMS["flags"], "static const struct flag flags[] = {", "};\n")
    found = [split_cells(row) for row in re.findall(r"\{(\"--.*?)\},", table, re.S)]
    for row in found:  # C's last cell says where the value goes: the field named after the flag
        field = row[0].strip('"').removeprefix("--").replace("-", "_")
        assert re.sub(r"\s+", " ", row[-1]) == f"offsetof(struct options, {field})", row
    return [[normal(c) for c in row[:-1]] for row in found]


def test_both_harnesses_declare_one_flag_table():
    """Name, kind, default, range, allowed values and the snippets that take it: row for row the same."""
    java, c = java_table(), c_table()
    assert len(java) == 18 and java == c


def test_every_snippet_a_flag_names_is_one():
    """A snippet named in a flag's used-by column but run under another name would never take the flag."""
    used_by = {name for row in c_table() if row[-1] for name in row[-1]}
    java = set(re.findall(r'Harness\.run\("([a-z_]+)"', "".join(p.read_text() for p in (HOME / "java-snippets").glob("*.java"))))
    c = set(re.findall(r'harness_run\("([a-z_]+)"', "".join(p.read_text() for p in (HOME / "c-snippets").glob("*.c"))))
    assert used_by <= java and used_by - {"typed_ffm"} <= c  # typed_ffm alone has no C twin: the FFM API is Java's


# ---- each snippet's table of ways ------------------------------------------------------------------------------

JAVA_WAY = r'new Harness\.Way<>\("([^"]+)", (Harness\.ANY|"[a-z]+"), (Harness\.ANY|"[a-z]+"), (\w+)::(\w+)\)'
C_WAY = r'\{"([^"]+)", (ANY|"[a-z]+"), (ANY|"[a-z]+"), \{\.(?:whole|share|part) = (\w+)\}\}'
EVERY = {"op": ("read", "write"), "pattern": ("seq", "rand")}


def ways(text, row):
    """A snippet's table as {(strategy, op, pattern): rows serving it}, every ANY spelled out; and its strategies in order."""
    served, names = {}, []
    for m in re.finditer(row, text):
        strategy, op, pattern = m.group(1), m.group(2).strip('"'), m.group(3).strip('"')
        names += [strategy] if strategy not in names else []
        for o in EVERY["op"] if "ANY" in op else [op]:
            for p in EVERY["pattern"] if "ANY" in pattern else [pattern]:
                served[(strategy, o, p)] = served.get((strategy, o, p), 0) + 1
    return served, names


def snippets(folder, run):
    """Each snippet of a folder by the name it runs under, and its text."""
    found = {}
    for path in (HOME / folder).glob("*.[cj]*"):
        m = re.search(run, path.read_text())
        if m:
            found[m.group(1)] = path.read_text()
    return found


JAVA_SNIPPETS = snippets("java-snippets", r'Harness\.run\("([a-z_]+)", WAYS, args')
C_SNIPPETS = snippets("c-snippets", r'harness_run\("([a-z_]+)", ways, argc, argv')


def test_every_snippet_runs_from_its_table_of_ways():
    """Each snippet declares its strategies once, in one form (the harness dispatches from it, lab.code finds code by
    it): no list of names beside it, no two rows serving the same flags."""
    assert len(JAVA_SNIPPETS) == 11 and set(C_SNIPPETS) == set(JAVA_SNIPPETS) - {"typed_ffm"}
    for name, text in [*JAVA_SNIPPETS.items(), *C_SNIPPETS.items()]:
        java = "Harness.run(" in text
        served, names = ways(text, JAVA_WAY if java else C_WAY)
        table = re.search(r"static final List<Harness\.Way<[\w.]+>> WAYS = List\.of\((.*?)\);\n" if java
                          else r"static const struct way ways\[\] = \{(.*?)\n\};\n", text, re.S).group(1)
        rows = [line.strip() for line in table.strip().splitlines()]
        assert len(rows) == len(re.findall(JAVA_WAY if java else C_WAY, table)) + (0 if java else 1), f"{name}: one row per line"
        assert names and all(count == 1 for count in served.values()), f"{name}: two rows serve {served}"
        assert not re.search(r"STRATEGIES|strategies\[\]|o\.strategy\(\) \+ \" \" \+ o\.op", text), f"{name}: a list of names or a dispatch beside the table"


def test_twins_serve_the_same_flags():
    """Twins serve the same operations and patterns, and a strategy both name serves the same ones in both."""
    for name, c_text in C_SNIPPETS.items():
        java, java_names = ways(JAVA_SNIPPETS[name], JAVA_WAY)
        c, c_names = ways(c_text, C_WAY)
        assert {k[1:] for k in java} == {k[1:] for k in c}, name
        for strategy in set(java_names) & set(c_names):
            assert {k for k in java if k[0] == strategy} == {k for k in c if k[0] == strategy}, f"{name} {strategy}"


def limit(text):
    """The value of a limit as either language writes it: 256, 64L << 30, (INT64_C(64) << 30)."""
    m = re.fullmatch(r"\(?(?:INT64_C\()?(\d+)L?\)?(?:\s*<<\s*(\d+))?\)?", text.strip())
    assert m, text
    return int(m.group(1)) << int(m.group(2) or 0)


def test_the_limits_are_the_same():
    for name in ("MAX_FILE_SIZE", "MAX_OP_SIZE", "MAX_BUFFER_SIZE", "MAX_MARGIN", "MAX_THREADS", "MAX_DEPTH", "MAX_PROCS"):
        java = re.search(rf"static final \w+ {name} = ([^;]+);", "".join(JAVA_ROOMS.values())).group(1)
        c = re.search(rf"^#define {name} (.+)$", C_HEADERS["rooms.h"], re.M).group(1)
        assert limit(java) == limit(c), name


# ---- names and order -----------------------------------------------------------------------------------------

# The one rule for C names: a name harness.h or rooms.h declares is its Java twin's in snake_case, after the prefix of
# the Java class that holds it (Options' methods count as Harness's): harness_ for Harness, workers_ for Workers, and
# so on, a room's prefix its file's name. Static helpers in a room follow it without a prefix (one_of is Flags.oneOf).
PREFIXES = {f"{room}_": java_class for room, java_class in ROOM_CLASS.items()} | {"text_": "Text", "prng_": "Prng"}
# Kept in one language on purpose, each with why.
C_ONLY = {
    "harness_buffer": "page-aligned memory for a buffer (see harness.h); the JVM places Java's arrays",
    "harness_page_aligned": "as harness_buffer, for the rooms (data.c's arrays too)",
    "harness_use_ints": "Java's use(int[], ...) is an overload of use",
    "harness_use_doubles": "Java's use(double[], ...) is an overload of use",
    "harness_io_fail": "Java throws an IOException, which run() reports in the same words",
    "harness_io_fail_because": "as harness_io_fail",
    "harness_unsupported": "Java throws a Harness.Unsupported, which run() reports in the same words, with the same status",
    "harness_write_fully": "Java's writes move everything they are handed",
    "harness_message": "Java's checks throw their message in a UsageError; C's return it in this one buffer",
    "harness_now_ns": "Java's clock is System.nanoTime",
    "harness_timeval_ns": "getrusage's times, which Java reads as cpuTimes",
    "workers_timed": "Java's ownNs is an array that knows its length",
    "space_resident_pct": "Java asks the C helper (COURSE_EVICT), which evicts and measures in one call: space_evict",
    "space_created": "Java keeps the run's file's identity alone (createdKey) beside Options' path",
    "space_copy_source": "as space_created (Java: sourceKey)",
    "space_sigbus_message": "C's answer to a mapped page gone (SIGBUS), made before any I/O; Java gets an InternalError",
    "space_on_signal": "C removes its file on SIGINT, SIGTERM, SIGHUP and SIGPIPE itself; the JVM runs Harness.run's shutdown hook",
    "space_on_sigbus": "as space_sigbus_message",
    "output_fail_once": "C's threads may fail at once, and only the first may report (Java: the first exception to reach run)",
    "data_source": "Java hands out the array and an index into it: Data.source, Data.offset",
}


def camel(snake):
    head, *rest = snake.split("_")
    return head + "".join(word.capitalize() for word in rest)


def java_twin(c_name, room_class="Harness"):
    """(class, name) of the Java twin of a C name, by the rule: a name without a prefix is its room's."""
    for prefix, java_class in PREFIXES.items():
        if c_name.startswith(prefix):
            return java_class, camel(c_name[len(prefix):])
    return room_class, camel(c_name)


def java_classes(text):
    """Each top-level class of a Java room and its text."""
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"^final class (\w+)", text, re.M)]
    return {name: text[at:(starts[i + 1][0] if i + 1 < len(starts) else len(text))] for i, (at, name) in enumerate(starts)}


def java_declarations(text, methods_only=False):
    """(class, name) of every method (and, unless methods_only, field and Options component) a Java room declares, in
    order: class members at four spaces, methods of its nested records at eight."""
    member = r"^    (?:(?:static|final|private|public)\s+)*[\w<>\[\]][\w<>\[\].,? ]*?\s(\w+)\s*(\(|=|;)"
    nested = r"^        [\w<>\[\]]+\s+(\w+)\([^)]*\)\s*(\{)"
    found = []
    for java_class, body in java_classes(text).items():
        for m in sorted(list(re.finditer(member, body, re.M)) + list(re.finditer(nested, body, re.M)), key=lambda m: m.start()):
            if m.group(2) == "(" or m.group(2) == "{" or not methods_only:
                found.append((java_class, m.group(1)))
        options = re.search(r"record Options\(([^)]*)\)", body)
        if options and not methods_only:
            found += [(java_class, component.split()[-1]) for component in options.group(1).split(",")]
    return found


def test_every_name_the_c_headers_declare_has_its_java_twin_by_the_one_rule():
    prefixes = "|".join(p.rstrip("_") for p in PREFIXES)
    names = [name for header in C_HEADERS.values()
             for name in re.findall(rf"^(?:extern\s+)?[\w\s*]*?\(?\*?\b((?:{prefixes})_\w+)\)?\s*[(;\[]", header, re.M)]
    assert len(names) >= 60, names
    declared = {declaration for text in JAVA_ROOMS.values() for declaration in java_declarations(text)}
    missing = [f"{name} (Java: {'.'.join(java_twin(name))})" for name in names if name not in C_ONLY and java_twin(name) not in declared]
    assert missing == []
    assert set(C_ONLY) <= set(names), "C_ONLY names something the headers no longer declare"


def test_each_room_defines_what_it_shares_with_its_twin_in_one_order():
    """Read side by side, a room's two files meet the same functions in the same order."""
    shared = 0
    for room, c_text in C_ROOMS.items():
        c_order = [java_twin(name, ROOM_CLASS[room]) for name in re.findall(r"^[a-z][\w *]*?\b(\w+)\([^;{}]*\)\s*\{", c_text, re.M)]
        java_order = java_declarations(JAVA_ROOMS[room], methods_only=True)
        common = set(c_order) & set(java_order)
        assert len(common) >= 2, (room, sorted(common))
        shared += len(common)

        def first_seen(order):
            seen = []
            for name in order:
                if name in common and name not in seen:
                    seen.append(name)
            return seen

        assert first_seen(c_order) == first_seen(java_order), room
    assert shared >= 50, shared
