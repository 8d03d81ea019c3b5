"""Bad input: a one-line error naming the value and what is allowed, a non-zero exit, no result row,
no file left behind. Every case runs against both languages."""
import os
import signal
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import ENV, HOME, mpirun, needs_mpi, rows, run_snippet, survivors

LANGUAGES = ["java", "c"]

BAD_FLAGS = [  # (flags, text the error must contain)
    (["--keep=1"], "--keep takes no value"),  # C took it, Java refused it: one rule now
    (["--file-size", "0"], "--file-size 0: must be between 1 and 64g"),
    (["--file-size", "-5"], "--file-size -5: not a size"),
    (["--file-size", "lots"], "--file-size lots: not a size"),
    (["--file-size", "1.5m"], "--file-size 1.5m: not a size"),
    (["--file-size", "65g"], "--file-size 65g: must be between 1 and 64g"),
    (["--op-size", "0"], "--op-size 0: must be between 1 and 64m"),
    (["--op-size", "-1"], "--op-size -1: not a size"),
    (["--op-size", "128m"], "--op-size 128m: must be between 1 and 64m"),
    (["--file-size", "4k", "--op-size", "8k"], "--op-size 8192 is larger than --file-size 4096"),
    (["--repeat", "0"], "--repeat 0: must be a whole number between 1 and 1000"),
    (["--repeat", "many"], "--repeat many: must be a whole number between 1 and 1000"),
    (["--op", "append"], "--op append: must be one of read, write"),
    (["--pattern", "zigzag"], "--pattern zigzag: must be one of seq, rand"),
    (["--cache", "hot"], "--cache hot: must be one of warm, cold"),
    (["--strategy", "magic"], "--strategy magic: must be one of raw, o-direct"),
    (["--strategy", "o-direct", "--op-size", "1000"], "--op-size 1000 and --file-size 1048576: direct I/O moves whole blocks "
                                                      "(--op-size a multiple of 4096, --file-size a multiple of --op-size)"),
    (["--strategy", "o-direct", "--op-size", "64k", "--file-size", "100000"], "--op-size 65536 and --file-size 100000: direct I/O"),
    (["--buffer-size", "4k"], "--buffer-size is not used by raw_io"),
    (["--bogus", "1"], "unknown flag --bogus (allowed:"),
    (["--file-size"], "--file-size needs a value"),
    (["stray"], "unexpected argument 'stray'"),
]


BUFFERING_BAD_FLAGS = [  # the buffering snippet's own flag and rules, and the harness's rules on buffers
    (["--strategy", "direct", "--buffer-size", "0"], "--buffer-size 0: must be between 1 and 1g"),
    (["--strategy", "direct", "--buffer-size", "-1"], "--buffer-size -1: not a size"),
    (["--strategy", "direct", "--buffer-size", "2g"], "--buffer-size 2g: must be between 1 and 1g"),
    (["--strategy", "direct", "--buffer-size", "lots"], "--buffer-size lots: not a size"),
    (["--strategy", "direct", "--buffer-size", "1k", "--op-size", "4k"], "--op-size 4096 is larger than --buffer-size 1024"),
    (["--strategy", "direct", "--buffer-size", "1000", "--op-size", "3"], "--buffer-size 1000 is not a multiple of --op-size 3"),
    (["--strategy", "direct", "--buffer-size", "1k", "--op-size", "2"], "--op-size 2: buffering moves one byte per operation"),
    (["--strategy", "stream", "--pattern", "rand"], "--strategy stream works only with --pattern seq"),
    (["--strategy", "direct"], "--strategy direct needs --buffer-size"),
    (["--strategy", "mmap"], "--strategy mmap: must be one of stream, direct"),
    (["--bogus", "1"], "unknown flag --bogus (allowed: --strategy --op --pattern --cache --file-size --op-size --repeat "
                       "--warmup --seed --file --keep --buffer-size)"),
]


TYPED_BAD_FLAGS = [  # (flags, language or None for both, text the error must contain)
    (["--strategy", "encode", "--op-size", "6"], "java", "--op-size 6 and --file-size 1048576 must be multiples of 4"),
    (["--strategy", "big", "--op-size", "6"], "c", "--op-size 6 and --file-size 1048576 must be multiples of 4"),
    (["--strategy", "encode", "--op-size", "4k", "--file-size", "4098"], "java", "must be multiples of 4"),
    (["--strategy", "encode", "--op-size", "4k", "--pattern", "rand"], "java", "--pattern rand: typed_arrays moves its blocks in order"),
    (["--strategy", "big", "--op-size", "4k", "--pattern", "rand"], "c", "--pattern rand: typed_arrays moves its blocks in order"),
    (["--strategy", "encode", "--op-size", "4k", "--buffer-size", "8k"], "java", "--buffer-size is used only by --strategy data-buffered"),
    (["--strategy", "big", "--op-size", "4k", "--buffer-size", "8k"], "c", "--buffer-size is used only by Java's --strategy data-buffered"),
    (["--strategy", "big", "--op-size", "4k"], "java", "--strategy big: must be one of data, data-buffered, data-bytearray, encode"),
    (["--strategy", "varhandle", "--op-size", "4k"], "c", "--strategy varhandle: must be one of big, native"),
    (["--strategy", "encode", "--op-size", "4k", "--type", "float"], "java", "--type float: must be one of int, double"),
    (["--strategy", "big", "--op-size", "4k", "--type", "float"], "c", "--type float: must be one of int, double"),
    (["--strategy", "encode", "--op-size", "12", "--type", "double"], "java", "must be multiples of 8 (whole doubles)"),
    (["--strategy", "big", "--op-size", "12", "--type", "double"], "c", "must be multiples of 8 (whole doubles)"),
    (["--strategy", "encode", "--op-size", "4k", "--file-size", "0"], "java", "--file-size 0: must be between 1 and 64g"),
]


@pytest.mark.parametrize("flags,expected", [
    (["--op-size", "6"], "--op-size 6 and --file-size 1048576 must be multiples of 4 (whole ints)"),
    (["--op-size", "4k", "--pattern", "rand"], "--pattern rand: typed_ffm moves its blocks in order"),
    (["--op-size", "4k", "--type", "float"], "--type float: must be one of int, double"),
    (["--op-size", "4k", "--strategy", "jni"], "--strategy jni: must be one of ffm, ffm-native, ffm-heap"),
])
def test_typed_ffm_bad_flags(commands, tmp_path, flags, expected):
    check_usage_error(commands, "typed_ffm", "java", tmp_path / "x.dat", flags, expected)


@pytest.mark.parametrize("flags,language,expected", TYPED_BAD_FLAGS, ids=[" ".join(f) for f, _, _ in TYPED_BAD_FLAGS])
def test_typed_arrays_bad_flags(commands, tmp_path, flags, language, expected):
    check_usage_error(commands, "typed_arrays", language, tmp_path / "x.dat", flags, expected)


TEXT_BAD_FLAGS = [  # (flags, language, text the error must contain)
    (["--op", "write"], None, "--op write: text_lines only reads (allowed: read)"),
    (["--pattern", "rand"], None, "--pattern rand: lines are read in order (allowed: seq)"),
    (["--text", "ebcdic"], None, "--text ebcdic: must be one of lf, crlf, cr, mixed, utf8"),
    (["--strategy", "files-lines", "--buffer-size", "8k"], "java", "--buffer-size is not used by --strategy files-lines"),
    (["--strategy", "scanf"], "c", "--strategy scanf: must be one of fgets, getline"),
]




JNI_OPS_BAD_FLAGS = [
    ([], "jni_ops needs --buffer-size (the study used 4k)"),
    (["--buffer-size", "1k", "--op-size", "4k"], "--op-size 4096 is larger than --buffer-size 1024"),
    (["--buffer-size", "4k", "--op-size", "3"], "--buffer-size 4096 is not a multiple of --op-size 3"),
    (["--buffer-size", "4k", "--pattern", "rand"], "--pattern rand: jni_ops moves its operations in order"),
    (["--buffer-size", "0"], "--buffer-size 0: must be between 1 and 1g"),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("flags,expected", JNI_OPS_BAD_FLAGS, ids=[" ".join(f) or "no buffer" for f, _ in JNI_OPS_BAD_FLAGS])
def test_jni_ops_bad_flags(commands, tmp_path, language, flags, expected):
    check_usage_error(commands, "jni_ops", language, tmp_path / "x.dat", flags, expected)


def check_usage_error(commands, snippet, language, file, flags, expected):
    """A bad flag: status 2, then everything check_failed asks of a failed run."""
    result = run_snippet(commands(snippet, language), ["--file", str(file)] + flags)
    assert result.returncode == 2
    check_failed(result, expected, file.parent, snippet)


def check_failed(result, expected_text, folder, snippet="raw_io"):
    assert result.returncode != 0
    assert result.stdout == "", "no result row may be printed"
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{snippet}: ")
    assert expected_text in lines[0]
    assert list(folder.iterdir()) == [], "no file may be left behind"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("flags,expected", BAD_FLAGS, ids=[" ".join(f) for f, _ in BAD_FLAGS])
def test_bad_flags(commands, tmp_path, language, flags, expected):
    check_usage_error(commands, "raw_io", language, tmp_path / "x.dat", flags, expected)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("flags,expected", BUFFERING_BAD_FLAGS, ids=[" ".join(f) for f, _ in BUFFERING_BAD_FLAGS])
def test_buffering_bad_flags(commands, tmp_path, language, flags, expected):
    check_usage_error(commands, "buffering", language, tmp_path / "x.dat", flags, expected)


@pytest.mark.parametrize("language", LANGUAGES)
def test_buffer_larger_than_memory_allows(commands, tmp_path, language):
    """A buffer must fit in what the process may use: Java's heap limit, C's share of RAM or `ulimit -v`."""
    cmd = commands("buffering", language)
    if language == "java":  # the heap limit is the JVM's; the child is started with -Xmx64m
        result = run_snippet(cmd, ["--strategy", "direct", "--buffer-size", "512m", "--file", str(tmp_path / "x.dat")],
                             env_extra={"JDK_JAVA_OPTIONS": "-Xmx64m"})
    else:
        script = f"ulimit -v 300000; exec {' '.join(cmd)} --strategy direct --buffer-size 512m --file {tmp_path / 'x.dat'}"
        result = subprocess.run(["bash", "-c", script], env=ENV, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    result.stderr = "\n".join(l for l in result.stderr.splitlines() if not l.startswith("NOTE: Picked up"))
    check_failed(result, "--buffer-size 512m: larger than memory allows here (at most", tmp_path, "buffering")


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_operation_larger_than_memory_allows(commands, tmp_path, language):
    """An operation's array must fit too: Java ended in an OutOfMemoryError's stack trace, C in one line; now both say it."""
    cmd = commands("raw_io", language) + ["--op", "read", "--file-size", "64m", "--op-size", "64m", "--file", str(tmp_path / "x.dat")]
    if language == "java":  # a 64 MB heap allows 32 MB
        result = run_snippet(cmd, [], env_extra={"JDK_JAVA_OPTIONS": "-Xmx64m"})
    else:  # about 98 MB of address space allows about 48 MB
        result = subprocess.run(["bash", "-c", "ulimit -v 100000; exec \"$@\"", "bash", *cmd], env=ENV, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    result.stderr = "\n".join(l for l in result.stderr.splitlines() if not l.startswith("NOTE: Picked up"))
    check_failed(result, "--op-size 64m: larger than memory allows here (at most", tmp_path)


@pytest.mark.parametrize("language", LANGUAGES)
def test_missing_scratch_folder(commands, tmp_path, language):
    result = run_snippet(commands("raw_io", language), ["--file", str(tmp_path / "nowhere" / "x.dat")])
    check_failed(result, f"scratch folder {tmp_path / 'nowhere'} does not exist", tmp_path)


@pytest.mark.parametrize("language", LANGUAGES)
def test_read_only_scratch_folder(commands, language):
    # in /tmp, where every user may reach them: pytest's own temporary folders are private to their owner, and the course
    # may lie under a folder other users may not enter (a 0700 mktemp -d, /root)
    folder = Path(tempfile.mkdtemp(dir="/tmp", prefix="course-read-only-"))
    programs = Path(tempfile.mkdtemp(dir="/tmp", prefix="course-read-only-bin-"))
    cmd = list(commands("raw_io", language))
    try:
        programs.chmod(0o755)
        if language == "c":  # the program, where nobody (below) can run it
            cmd[0] = program = str(shutil.copy(cmd[0], programs / "raw_io"))
        else:  # the snippet's classes, where nobody can read them (the JDK lies where every user may run it)
            at = cmd.index("-cp") + 1
            jars = [str(shutil.copy(jar, programs / f"{i}-{Path(jar).name}")) for i, jar in enumerate(cmd[at].split(":"))]
            cmd[at], program = ":".join(jars), jars[0]
        folder.chmod(0o555)
        if os.getuid() == 0:  # root writes anywhere: run as nobody so the permission applies
            nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            if subprocess.run(nobody + ["test", "-r", program]).returncode != 0 and os.environ.get("CI") != "true":
                pytest.skip(f"as root this runs the snippet as nobody, who cannot read {program} here")
            cmd = nobody + cmd
        result = run_snippet(cmd, ["--op", "write", "--file", str(folder / "x.dat")])
        check_failed(result, f"scratch folder {folder} is not writable", folder)
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)
        shutil.rmtree(programs)


SNIPPET_RULES = [  # (snippet, flags, error): each lab 10 snippet's own rules on its flags
    ("file_copy", [], "--op read: file_copy writes a copy (allowed: write)"),
    ("file_copy", ["--op", "write", "--pattern", "rand"], "--pattern rand: file_copy copies in order (allowed: seq)"),
    ("mapped_file", ["--op", "write"], "--op write: mapped_file reads (allowed: read; lab 07 measures mapped writes)"),
    ("mapped_file", ["--pattern", "rand"], "--pattern rand: mapped_file maps the file in order (allowed: seq)"),
    ("small_reads", ["--op", "write"], "--op write: small_reads reads (allowed: read)"),
    ("small_reads", ["--strategy", "platform", "--depth", "4"], "--depth 4: a platform worker reads one block at a time (allowed: 1;"),
    ("small_reads", ["--depth", "0"], "--depth 0"),
    ("small_reads", ["--depth", "257"], "--depth 257"),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("snippet,flags,expected", SNIPPET_RULES, ids=[f"{s} {' '.join(f) or 'no op'}" for s, f, _ in SNIPPET_RULES])
def test_snippet_rules(commands, tmp_path, language, snippet, flags, expected):
    check_usage_error(commands, snippet, language, tmp_path / "x.dat", flags, expected)


def test_small_reads_io_uring_says_where_it_cannot_run(tmp_path):
    """Built without liburing, the io-uring strategy refuses before any run: status 3 (the kit's sweeps skip that
    part of the lab), one line saying what to install, and nothing left behind."""
    binary = tmp_path / "small_reads"
    subprocess.run(["gcc", "-O2", "-pthread", "-o", str(binary), str(HOME / "c-snippets/small_reads.c"), *map(str, sorted((HOME / "c-snippets/harness").glob("*.c")))], check=True)
    folder = tmp_path / "scratch"
    folder.mkdir()
    result = run_snippet([str(binary)], ["--strategy", "io-uring", "--file", str(folder / "x.dat")])
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr == "small_reads: this program was built without liburing (setup/setup.sh says what to install for it; the next run builds it with it)\n"
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_file_copy_never_overwrites_a_file_where_its_source_goes(commands, tmp_path, language):
    precious = tmp_path / "x.dat.source"
    precious.write_text("keep me")
    result = run_snippet(commands("file_copy", language), ["--op", "write", "--file", str(tmp_path / "x.dat")])
    assert result.returncode == 2 and result.stderr.strip() == \
        f"file_copy: --file {tmp_path / 'x.dat'}: {precious} already exists (file_copy makes its source there and overwrites nothing)"
    assert precious.read_text() == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == ["x.dat.source"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_existing_file_is_never_overwritten(commands, tmp_path, language):
    precious = tmp_path / "precious.dat"
    precious.write_text("keep me")
    result = run_snippet(commands("raw_io", language), ["--op", "write", "--file", str(precious)])
    assert result.returncode == 2 and "already exists" in result.stderr
    assert precious.read_text() == "keep me"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_link_is_never_followed(commands, tmp_path, language):
    """A --file that is a link, even to nowhere, is refused: nothing is written where it points."""
    target = tmp_path / "elsewhere" / "target.dat"
    target.parent.mkdir()
    link = tmp_path / "link.dat"
    link.symlink_to(target)
    result = run_snippet(commands("raw_io", language), ["--op", "read", "--file", str(link)])
    assert result.returncode == 2 and f"--file {link} already exists" in result.stderr, result.stderr
    assert not target.exists() and link.is_symlink()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_path_that_is_not_utf8_is_refused_in_both_languages(commands, tmp_path, language):
    """The JVM cannot open a name that is not UTF-8 (it reads U+FFFD in its place), so the twins refuse
    it alike, in one line, where Java would otherwise say its existing folder "does not exist"."""
    folder = os.path.join(bytes(tmp_path), b"caf\xe9")
    os.mkdir(folder)
    result = subprocess.run(commands("raw_io", language) + ["--op", "write", "--file-size", "4k", "--file", os.path.join(folder, b"x.dat")],
                            env=ENV, capture_output=True, timeout=120)
    [line] = result.stderr.strip().splitlines()
    assert result.returncode == 2 and line.startswith(b"raw_io: --file ") \
        and line.endswith(b"x.dat is not valid UTF-8 (both languages take UTF-8 file names: Java can open no other)"), line
    assert os.listdir(folder) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_over_long_path_is_refused_whole(commands, tmp_path, language):
    """Cut to 4,095 characters, victim/////…/keep.txt.dat would name victim/keep.txt, a file the run never made."""
    victim = tmp_path / "victim"
    victim.mkdir()
    keep = victim / "keep.txt"
    keep.write_text("keep me")
    prefix = f"{victim}/"
    path = prefix + "/" * (4095 - len(prefix) - len("keep.txt")) + "keep.txt.dat"
    result = run_snippet(commands("raw_io", language), ["--op", "read", "--file", path])
    assert result.returncode == 2 and f"--file: a path of {len(path)} bytes is too long (at most 4095)" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert keep.read_text() == "keep me" and sorted(p.name for p in victim.iterdir()) == ["keep.txt"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_path_is_measured_in_bytes_as_the_kernel_does(commands, tmp_path, language):
    """4,000 characters of which 1,000 take two bytes each in UTF-8: 5,000 bytes, over the kernel's 4,095 in both languages
    (Java had counted UTF-16 characters and let it through)."""
    path = f"{tmp_path}/" + "é" * 1000 + "/" * (4000 - len(f"{tmp_path}/") - 1000 - len("x.dat")) + "x.dat"
    result = run_snippet(commands("raw_io", language), ["--op", "read", "--file", path])
    size = len(path.encode())
    assert result.returncode == 2 and f"--file: a path of {size} bytes is too long (at most 4095)" in result.stderr, result.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_io_error_is_said_in_the_same_words_in_both_languages(commands, tmp_path, language):
    """The kernel refuses a file name of 300 bytes (its limit is 255): Java says it as C's strerror does."""
    path = tmp_path / ("n" * 300 + ".dat")
    result = run_snippet(commands("raw_io", language), ["--op", "write", "--file-size", "4k", "--file", str(path)])
    assert result.returncode == 1, result.stderr
    check_failed(result, f"I/O error on {path}: File name too long", tmp_path)
    assert result.stderr.strip().endswith(": File name too long"), result.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_not_enough_free_space(commands, tmp_path, language):
    result = run_snippet(commands("raw_io", language), ["--file", str(tmp_path / "x.dat")],
                         env_extra={"COURSE_SCRATCH_MARGIN": "100000g"})
    check_failed(result, f"not enough free space in {tmp_path}: the run needs 1m plus a margin of 100000g", tmp_path)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_empty_margin_counts_as_unset(commands, tmp_path, language):
    result = run_snippet(commands("raw_io", language), ["--op", "write", "--file-size", "64k", "--file", str(tmp_path / "x.dat")],
                         env_extra={"COURSE_SCRATCH_MARGIN": ""})
    assert result.returncode == 0, result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_file_size_limit(commands, tmp_path, language):
    """`ulimit -f` stops a write with EFBIG: reported, and the partial file removed."""
    cmd = " ".join(commands("raw_io", language))
    script = f"ulimit -f 64; exec {cmd} --op write --file-size 1m --op-size 4k --file {tmp_path / 'x.dat'}"
    result = subprocess.run(["bash", "-c", script], env=ENV, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().splitlines()[-1] == f"raw_io: I/O error on {tmp_path / 'x.dat'}: File too large"
    assert list(tmp_path.iterdir()) == []


def being_written(path):
    """Whether a run has begun writing path: the harness makes the file, then removes it for the strategy to make anew,
    so it may vanish between two looks."""
    try:
        return path.stat().st_size > 0
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_removes_file(commands, tmp_path, language, sig):
    """A run stopped half-way (Ctrl-C, or the kit's SIGTERM) removes the file it was writing."""
    target = tmp_path / "x.dat"
    proc = subprocess.Popen(commands("raw_io", language) + ["--op", "write", "--file-size", "64m", "--repeat", "1",
                            "--warmup", "0", "--file", str(target)], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            # as a terminal's Ctrl-C finds it: `make test` started in the background would hand SIGINT down ignored
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.time() + 60
        while not being_written(target) and time.time() < deadline:
            time.sleep(0.05)
        assert target.exists(), "the run never started writing"
        proc.send_signal(sig)
        proc.wait(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode != 0
    assert rows(proc.stdout.read().decode()) == []
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_stopped_copy_removes_its_source_and_its_copy(commands, tmp_path, language):
    """Stopped with the kit's SIGTERM while copying, file_copy removes both files it made."""
    proc = subprocess.Popen(commands("file_copy", language) + ["--strategy", "loop", "--op", "write", "--file-size", "64m",
                            "--op-size", "1", "--repeat", "1", "--warmup", "0", "--file", str(tmp_path / "x.dat")],
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 60
        while not being_written(tmp_path / "x.dat") and time.time() < deadline:
            time.sleep(0.05)
        assert (tmp_path / "x.dat.source").exists(), "the copy never started"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode != 0
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_reader_that_stops_early_leaves_no_file(commands, tmp_path, language):
    """Piped into `head -1`, a snippet loses its reader half-way (C dies of SIGPIPE): its file is removed all the same."""
    cmd = " ".join(commands("raw_io", language))
    script = f"{cmd} --op read --file-size 1m --op-size 4k --repeat 500 --warmup 0 --file {tmp_path / 'x.dat'} | head -1"
    result = subprocess.run(["bash", "-c", script], env=ENV, capture_output=True, text=True, timeout=120)
    assert len(rows(result.stdout)) == 1
    assert list(tmp_path.iterdir()) == []


def cut_short_after_the_first_run(proc, target):
    """Truncates target once proc has printed its first run's record: the file is whole and its readers
    are at work with runs to go, however loaded the machine (waiting for the file's size raced its writer)."""
    first = proc.stdout.readline()
    assert first.startswith("{"), (first, proc.stderr.read() if not first else "")
    os.truncate(target, 1000)


def test_a_warning_of_the_jvm_never_mixes_with_the_run_records(commands, tmp_path):
    """Unified logging writes the JVM's warnings to stdout, where the run records go (a JVM in another PID namespace
    holding the same pid's hsperfdata file made one in CI): a Java snippet keeps them on stderr. Large pages asked
    for where none are configured give such a warning at will."""
    out = run_snippet(commands("raw_io", "java"), ["--op", "read", "--file-size", "64k", "--op-size", "4k", "--repeat", "2",
                      "--file", str(tmp_path / "x.dat")], {"JDK_JAVA_OPTIONS": "-XX:+UseLargePages"})
    if "UseLargePages disabled" not in out.stdout + out.stderr:
        pytest.skip("this machine has large pages: the JVM gives no warning to test with")
    assert out.returncode == 0, out.stderr
    assert "UseLargePages disabled" in out.stderr and "warning" not in out.stdout, out.stdout
    assert len(rows(out.stdout)) == 2


def test_a_file_cut_short_under_a_reader(commands, tmp_path):
    """Another program truncates the file while readInt is reading it: one line, the file removed."""
    target = tmp_path / "x.dat"
    proc = subprocess.Popen(commands("typed_arrays", "java") + ["--strategy", "data", "--op", "read", "--file-size", "4m",
                            "--op-size", "64k", "--repeat", "20", "--warmup", "0", "--file", str(target)],
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cut_short_after_the_first_run(proc, target)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1
    assert err.strip().splitlines()[-1] == f"typed_arrays: I/O error on {target}: file ended early"
    assert list(tmp_path.iterdir()) == []


SHARED_FILE_BAD_FLAGS = [  # (flags, language or None for both, text the error must contain)
    (["--threads", "0"], None, "--threads 0: must be a whole number between 1 and 256"),
    (["--threads", "-1"], None, "--threads -1: must be a whole number between 1 and 256"),
    (["--threads", "5", "--file-size", "16k", "--op-size", "4k"], None,
     "--threads 5 is more than the file's 4 blocks of --op-size 4k (each thread needs at least one block of its own)"),
    (["--lock", "file"], None, "--lock file: must be one of none, region"),
    (["--op-size", "6"], None, "--op-size 6 and --file-size 1048576 must be multiples of 4 (whole ints)"),
    (["--op-size", "4k", "--pattern", "rand"], None, "--pattern rand: each thread moves its share in order"),
    (["--strategy", "mapped", "--op-size", "4k", "--file-size", "60g"], "java", "--file-size 64424509440: too large to map here"),
    (["--strategy", "mmap", "--op-size", "4k", "--file-size", "60g"], "c", "--file-size 64424509440: too large to map here"),
    (["--op-size", "4k", "--file-size", "40g"], None, "--file-size 42949672960: the shared array would not fit"),
    (["--strategy", "mmap", "--op-size", "4k"], "java", "--strategy mmap: must be one of view-heap, view-direct, mapped, bulk, raf"),
    (["--strategy", "mapped", "--op-size", "4k"], "c", "--strategy mapped: must be one of pwrite, mmap"),
]


# Run alone (MPI's singleton start), an MPI snippet checks its flags as any other
MPI_FILE_BAD_FLAGS = [
    (["--procs", "0"], None, "--procs 0: must be a whole number between 1 and 256"),
    (["--procs", "-1"], None, "--procs -1: must be a whole number between 1 and 256"),
    (["--procs", "2"], None, "--procs 2, but mpirun started 1 process (start it with mpirun -np 2)"),
    (["--op-size", "3000"], None, "--op-size 3000 does not divide --file-size 1048576"),
    (["--op-size", "6", "--file-size", "60"], None, "--op-size 6 and --file-size 60 must be multiples of 4"),
    (["--op-size", "4k", "--pattern", "rand"], None, "--pattern rand: each process moves its share in order"),
    (["--op-size", "4k", "--file-size", "8k", "--procs", "3"], None, "--procs 3 is more than the file's 2 blocks of --op-size 4k"),
    (["--op-size", "4k", "--threads", "2"], None, "--threads is not used by mpi_file"),
    (["--strategy", "collective", "--op-size", "4k"], "java", "--strategy collective: must be one of view-heap, view-direct, mapped, bulk, streams"),
    (["--strategy", "mapped", "--op-size", "4k"], "c", "--strategy mapped: must be one of posix, independent, collective"),
]

# (snippet, scratch file, flags, language or None for both, text the error must contain)
BAD_FLAGS_BY_SNIPPET = [("text_lines", "x.txt", *case) for case in TEXT_BAD_FLAGS] + \
                       [("shared_file", "x.dat", *case) for case in SHARED_FILE_BAD_FLAGS] + \
                       [pytest.param("mpi_file", "x.dat", *case, marks=needs_mpi) for case in MPI_FILE_BAD_FLAGS]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("snippet,name,flags,only,expected", BAD_FLAGS_BY_SNIPPET,
                         ids=[f"{s} {' '.join(f)}" for s, _, f, _, _ in (getattr(c, "values", c) for c in BAD_FLAGS_BY_SNIPPET)])
def test_snippet_bad_flags(commands, tmp_path, language, snippet, name, flags, only, expected):
    if only and only != language:
        pytest.skip(f"{only} only")
    check_usage_error(commands, snippet, language, tmp_path / name, flags, expected)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("snippet,flags,flag,value", [("raw_io", [], "--text", "lf"), ("raw_io", [], "--type", "int"),
                                                     ("typed_arrays", ["--op-size", "4k"], "--threads", "2"),
                                                     ("typed_arrays", ["--op-size", "4k"], "--lock", "region"),
                                                     ("shared_file", ["--op-size", "4k"], "--procs", "2")])
def test_extra_flags_only_where_used(commands, tmp_path, language, snippet, flags, flag, value):
    result = run_snippet(commands(snippet, language), ["--file", str(tmp_path / "x.dat")] + flags + [flag, value])
    check_failed(result, f"{flag} is not used by {snippet}", tmp_path, snippet)


@pytest.mark.parametrize("language,strategy", [("java", "view-direct"), ("java", "mapped"), ("c", "pwrite"), ("c", "mmap")])
def test_a_shared_file_cut_short_under_its_readers(commands, tmp_path, language, strategy):
    """Another program truncates the file while four threads read it: one line, the file removed.
    Mapped readers must see it too (past the end, a mapping would fault or grow the file)."""
    target = tmp_path / "x.dat"
    proc = subprocess.Popen(commands("shared_file", language) + ["--strategy", strategy, "--op", "read", "--threads", "4",
                            "--file-size", "64m", "--op-size", "4k", "--repeat", "100", "--warmup", "0", "--file", str(target)],
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cut_short_after_the_first_run(proc, target)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert err.strip().splitlines()[-1] == f"shared_file: I/O error on {target}: file ended early"
    assert list(tmp_path.iterdir()) == []


@needs_mpi
@pytest.mark.parametrize("language", LANGUAGES)
def test_mpi_processes_without_a_file_share_one_default_file(commands, tmp_path, language):
    """Run by hand without --file, every process of the job names the same file (process 0's id), not one each."""
    result = run_snippet(mpirun(2) + commands("mpi_file", language), ["--procs", "2", "--op", "write", "--file-size", "64k",
                         "--op-size", "16k", "--repeat", "1", "--warmup", "0", "--keep"], env_extra={"COURSE_SCRATCH": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    files = [p.name for p in tmp_path.iterdir()]
    assert len(files) == 1 and files[0].startswith("mpi_file-") and files[0].endswith(".dat"), files
    assert (tmp_path / files[0]).stat().st_size == 64 << 10


@needs_mpi
@pytest.mark.parametrize("language", LANGUAGES)
def test_mpi_processes_report_a_bad_flag_once(commands, tmp_path, language):
    """Every process finds the fault; all stop with status 2, and one line says it."""
    result = run_snippet(mpirun(3) + commands("mpi_file", language), ["--procs", "3", "--op-size", "3000",
                         "--file", str(tmp_path / "x.dat")])
    assert result.returncode == 2
    check_failed(result, "--op-size 3000 does not divide --file-size 1048576", tmp_path, "mpi_file")


@needs_mpi
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("op", ["write", "read"])
def test_mpi_scratch_that_is_not_shared(commands, tmp_path, language, op):
    """Two nodes whose scratch paths are their own disks (here: two folders, one per process, through an
    MPMD launch): process 1 cannot see the file process 0 made. One line, status 2, nothing left behind."""
    node0, node1 = tmp_path / "node0", tmp_path / "node1"
    node0.mkdir()
    node1.mkdir()
    flags = ["--procs", "2", "--op", op, "--op-size", "4k", "--file-size", "64k"]
    one = mpirun(1)[:-2]  # mpirun and its options, without -np
    cmd = one + ["-np", "1"] + commands("mpi_file", language) + flags + ["--file", str(node0 / "x.dat")] + \
        [":", "-np", "1"] + commands("mpi_file", language) + flags + ["--file", str(node1 / "x.dat")]
    result = run_snippet(cmd, [])
    assert result.returncode == 2, result.stderr
    check_failed(result, f"--file {node1 / 'x.dat'}: process 1 (on ", node1, "mpi_file")
    assert "cannot see the file process 0 made; the scratch folder must be on a file system every process shares" in result.stderr
    assert list(node0.iterdir()) == [], "process 0 removes the file it made"


@needs_mpi
@pytest.mark.parametrize("language,strategy", [("java", "view-direct"), ("java", "mapped"), ("c", "independent")])
def test_mpi_file_cut_short_under_its_readers(commands, tmp_path, language, strategy):
    """Another program truncates the file while four MPI processes read it: whichever processes hit the
    end say so in one line (the same line), the job ends with status 1, no process is left, no file."""
    target = tmp_path / "x.dat"
    proc = subprocess.Popen(mpirun(4) + commands("mpi_file", language) + [
        "--procs", "4", "--strategy", strategy, "--op", "read", "--file-size", "64m", "--op-size", "4k",
        "--repeat", "100", "--warmup", "0", "--file", str(target)], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cut_short_after_the_first_run(proc, target)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert set(err.strip().splitlines()) == {f"mpi_file: I/O error on {target}: file ended early"}, err
    assert list(tmp_path.iterdir()) == []
    assert survivors(lambda line: str(target) in line) == [], "a process outlived the job"


HUB_BAD_SETTINGS = [  # (variable, value, the line make hub says)
    ("HUB_PORT", "80", "hub: HUB_PORT=80: a port from 1024 to 65530 (the hub takes the next few too)"),
    ("HUB_EXCHANGE", "nfs", "hub: HUB_EXCHANGE=nfs: files (nbgrader's exchange folder) or ngshare (the exchange as a hub service)"),
    ("HUB_MEMORY", "lots", "hub: HUB_MEMORY=lots: a size in megabytes or gigabytes (1536m, 4g)"),
    ("HUB_MEMORY", "100m", "hub: HUB_MEMORY=100m: at least 512m (a JupyterLab and the course kernel need about 400 MB)"),
    ("HUB_TASKS", "10", "hub: HUB_TASKS=10: a whole number, 128 or more (a JupyterLab and a kernel start about 100)"),
    ("HUB_IDLE_MINUTES", "soon", "hub: HUB_IDLE_MINUTES=soon: a number of minutes, 0.25 or more (60, 90, 0.5)"),
    ("HUB_IDLE_MINUTES", "0.1", "hub: HUB_IDLE_MINUTES=0.1: a number of minutes, 0.25 or more (60, 90, 0.5)"),
    ("HUB_ANSWERS", "maybe", "hub: HUB_ANSWERS=maybe: on or off"),
    ("INSTRUCTORS", "no-such-user-here", "hub: INSTRUCTORS=no-such-user-here: no-such-user-here is not a user of this machine "
                                         "(make the Unix users first: adduser no-such-user-here)"),
    ("HUB_HOME", "relative/hub", "hub: HUB_HOME=relative/hub: name the hub's folder by its absolute path"),
    ("HUB_LOGIN", "ldap", "hub: HUB_LOGIN=ldap: pam (the server's users) or lti (launched from the LMS)"),
    ("HUB_LOGIN", "lti", "hub: HUB_LOGIN=lti needs what the LMS gave when you registered the course as an LTI 1.3 tool; "
                         "missing: LTI_ISSUER, LTI_CLIENT_ID, LTI_AUTHORIZE_URL, LTI_JWKS_URL, LTI_DEPLOYMENT_ID"),
    ("LTI_JWKS_URL", "keys.json", "hub: LTI_JWKS_URL=keys.json: an https:// URL, as the LMS gives it (its keys sign who logs "
                                  "in: never fetched over plain HTTP)"),
    ("LTI_JWKS_URL", "http://lms.example.edu/keys", "hub: LTI_JWKS_URL=http://lms.example.edu/keys: an https:// URL, as the LMS "
                                                    "gives it (its keys sign who logs in: never fetched over plain HTTP)"),
    ("HUB_IP", "0.0.0.0", "hub: HUB_IP=0.0.0.0: the login page carries Unix passwords, so beyond the loopback the hub speaks TLS: "
                          "HUB_TLS_CERT and HUB_TLS_KEY (a certificate and its key), or HUB_TLS_PROXY=yes where a TLS proxy in "
                          "front of it ends TLS; or HUB_IP=127.0.0.1 behind a TLS proxy on this server"),
    ("HUB_TLS_CERT", "hub.pem", "hub: HUB_TLS_CERT=hub.pem: the absolute path of a PEM file that exists"),
    ("HUB_TLS_PROXY", "maybe", "hub: HUB_TLS_PROXY=maybe: yes (a TLS proxy in front of the hub ends TLS) or no"),
    ("HUB_HANDIN_SIZE", "huge", "hub: HUB_HANDIN_SIZE=huge: a size in megabytes or gigabytes (1536m, 4g)"),
    ("HUB_PRESET", "huge", "hub: HUB_PRESET=huge: a preset of the labs (smoke, quick, paper)"),
    ("HUB_COURSES", "Java IO", "hub: HUB_COURSES=Java IO: Java is not a course id: lower-case letters, digits and dashes, at most 22 "
                               "(formgrade-<id> is a Unix group)"),
]


@pytest.mark.parametrize("variable, value, expected", HUB_BAD_SETTINGS)
def test_a_bad_hub_setting_is_one_line_and_sets_up_nothing(tmp_path, variable, value, expected):
    env = {**ENV, "HUB_HOME": str(tmp_path / "hub"), variable: value}
    out = subprocess.run([str(HOME / ".venv/bin/python"), "-m", "hub", "install"], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stderr) == (1, expected + "\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("learners", ["0", "many", "201"])
def test_a_class_demo_of_no_size_is_refused_in_one_line(learners):
    out = subprocess.run([str(HOME / ".venv/bin/python"), "-m", "hub.demo", "--learners", learners], env=ENV,
                         capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stderr) == (1, f"hub-demo: LEARNERS={learners}: a whole number from 1 to 200\n")


def test_the_hub_s_teacher_names_one_lab(tmp_path):
    out = subprocess.run([str(HOME / ".venv/bin/python"), "-m", "hub", "release", "99-nope"],
                         env=dict(ENV, HUB_HOME=str(tmp_path)), capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and len(out.stderr.splitlines()) == 1
    assert out.stderr.startswith("hub: release: name one lab: LAB=99-nope is not one of 00-start-here, 01-raw-io")


@pytest.mark.parametrize("args, expected", [
    (["backup", "HOMES=maybe"], "hub: backup: HOMES=maybe: HOMES=yes backs up each learner's java-io-course too; else leave it unset"),
    (["restore"], "hub: restore: name one archive, ARCHIVE=<a make hub-backup archive>"),
])
def test_a_hub_backup_or_restore_named_wrongly_is_one_line(tmp_path, args, expected):
    out = subprocess.run([str(HOME / ".venv/bin/python"), "-m", "hub", *args], env=dict(ENV, HUB_HOME=str(tmp_path)),
                         capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stderr) == (1, expected + "\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="make hub-restore runs as root")
@pytest.mark.parametrize("planted", ["a link", "a path out", "not a part"])
def test_a_restore_takes_only_a_backup_s_folders_and_files(tmp_path, planted):
    """An archive that holds a link, a name that climbs out, or anything outside a backup's parts is refused whole, in
    one line, before anything is written: restore runs as root."""
    import io
    import json
    import tarfile
    home = tmp_path / "hub"
    (home / "state").mkdir(parents=True)
    (home / "state/settings.json").write_text(json.dumps({"home": str(home), "courses": ["java-file-io"], "instructors": [], "learners": []}))
    archive = tmp_path / "evil.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        entry = tarfile.TarInfo({"a link": "exchange/inbound", "a path out": "exchange/../../escaped", "not a part": "etc/cron.d/x"}[planted])
        if planted == "a link":
            entry.type, entry.linkname = tarfile.SYMTYPE, "/root"
            tar.addfile(entry)
        else:
            entry.size = 2
            tar.addfile(entry, io.BytesIO(b"x\n"))
    before = sorted(tmp_path.rglob("*"))
    out = subprocess.run([str(HOME / ".venv/bin/python"), "-m", "hub", "restore", str(archive)], env=dict(ENV, HUB_HOME=str(home)),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and len(out.stderr.splitlines()) == 1, out.stderr
    assert out.stderr.startswith("hub: restore: ") and "is not a folder or a file of a hub's backup: not restored" in out.stderr
    assert sorted(tmp_path.rglob("*")) == before, "nothing written"


@pytest.mark.parametrize("roster, said", [
    ("Name,Email\nann,ann@example.org\n", "its first line must name a login column (login, username, sis login id, login id, user name, user), and may name a role column (role, roles); it names Name, Email"),
    ("Username,Roles\nAnn Smith,Student\n", "line 2: login 'Ann Smith' is not a name this server can give an account"),
    ("Username,Roles\nann,Guest\n", "line 2: role 'guest' of ann is none of student, learner, teacher"),
    ("Username,Roles\nann,Student\nann,Teacher\n", "line 3: ann is listed twice"),
    ("Username,Roles\nroot,Student\n", "line 2: root is an account of this server's own"),
    ("Username,Roles\n", "it lists nobody"),
])
def test_a_bad_roster_is_refused_whole_in_one_line_naming_the_row(tmp_path, roster, said):
    """make hub-people reads and checks the whole roster before it changes anything (hub/people.py)."""
    from hub.people import Refused, read_roster
    from hub.settings import Settings
    path = tmp_path / "class.csv"
    path.write_text(roster)
    with pytest.raises(Refused) as refused:
        read_roster(path, Settings())
    assert str(refused.value).startswith(f"ROSTER={path}") and said in str(refused.value) and "\n" not in str(refused.value), refused.value


def test_a_roster_without_roles_is_a_class_of_learners(tmp_path):
    """A gradebook's export lists students alone, without a role column: each row a learner (instructors untouched)."""
    from hub.people import read_roster
    from hub.settings import Settings
    path = tmp_path / "grades.csv"
    path.write_text("\ufeffStudent,ID,SIS User ID,SIS Login ID,Section\nAnn Lee,11,,ann,A\nBo Chen,12,,bo,A\n", encoding="utf-8")
    assert read_roster(path, Settings()) == {"ann": "learners", "bo": "learners"}
