/* Unit tests for the C harness (c-snippets/harness/): flag parsing, the deterministic data, SplitMix64, the
 * operation counts and the small I/O helpers. No framework: CHECK counts passes and failures,
 * prints every failure as file:line, and main ends with exactly one line "N passed, N failed".
 * Build: gcc -Wall -Wextra -Werror -pthread tests/c/test_harness.c with every .c file of c-snippets/harness/
 * (tests/c/run_c_tests.sh does this twice, plainly and under ASan/UBSan). */
#define _GNU_SOURCE
#include "harness/harness.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

static int passed, failed;

static int check(int ok, const char *file, int line, const char *what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("%s:%d: FAILED: %s\n", file, line, what);
    }
    return ok;
}

/* CHECK(cond): the one assertion; the typed variants only add the values to the failure line. */
#define CHECK(cond) check(!!(cond), __FILE__, __LINE__, #cond)

#define CHECK_EQ(a, b)                                                                                  \
    do {                                                                                                \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                                \
        if (!CHECK(a_ == b_))                                                                           \
            printf("    %s = %" PRIu64 " (0x%" PRIx64 "), expected %" PRIu64 " (0x%" PRIx64 ")\n", #a, a_, \
                   a_, b_, b_);                                                                         \
    } while (0)

#define CHECK_STR(a, b)                                                                                 \
    do {                                                                                                \
        const char *a_ = (a), *b_ = (b);                                                                \
        if (!CHECK(a_ && b_ && strcmp(a_, b_) == 0))                                                    \
            printf("    %s = \"%s\", expected \"%s\"\n", #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");  \
    } while (0)

/* The returned message (NULL means success). */
#define CHECK_OK(err)                                                                                   \
    do {                                                                                                \
        const char *e_ = (err);                                                                         \
        if (!CHECK(e_ == NULL)) printf("    %s returned \"%s\"\n", #err, e_);                          \
    } while (0)

/* An error message that contains every given fragment. */
#define CHECK_ERR(err, ...)                                                                             \
    do {                                                                                                \
        const char *e_ = (err);                                                                         \
        const char *frags_[] = {__VA_ARGS__, NULL};                                                     \
        if (!CHECK(e_ != NULL)) {                                                                       \
            printf("    %s succeeded, expected an error\n", #err);                                      \
            break;                                                                                      \
        }                                                                                               \
        for (const char **f_ = frags_; *f_; f_++)                                                       \
            if (!CHECK(strstr(e_, *f_) != NULL))                                                        \
                printf("    message \"%s\" does not mention \"%s\"\n", e_, *f_);                       \
    } while (0)

/* ---- helpers --------------------------------------------------------------------------------- */

static const char *const strategies[] = {"raw", "other", NULL};

/* flags_parse for a snippet (which flags it takes, the harness's flag table says) with argv = {"prog",
 * args...}; argv[0] is the program name and is skipped. */
static const char *parse(struct options *o, const char *snippet, const char **args, size_t n) {
    return flags_parse(snippet, strategies, (int)n, (char **)args, o);
}
#define ARGS(...) (const char *[]){"prog", __VA_ARGS__}, sizeof((const char *[]){"prog", __VA_ARGS__}) / sizeof(char *)
#define PARSE(o, snippet, ...) parse(o, snippet, ARGS(__VA_ARGS__))

static int64_t size_ok(const char *value, int64_t min, int64_t max, const char **err) {
    int64_t out = -12345;
    *err = flags_parse_size("--file-size", value, min, max, &out);
    return out;
}

/* ---- flags_parse_size ---------------------------------------------------------------------- */

static void test_parse_size(void) {
    const int64_t max = INT64_C(64) << 30;
    const char *err;
    CHECK_EQ(size_ok("4k", 1, max, &err), 4096);
    CHECK_OK(err);
    CHECK_EQ(size_ok("4K", 1, max, &err), 4096);
    CHECK_OK(err);
    CHECK_EQ(size_ok("16m", 1, max, &err), INT64_C(16) << 20);
    CHECK_OK(err);
    CHECK_EQ(size_ok("16M", 1, max, &err), INT64_C(16) << 20);
    CHECK_OK(err);
    CHECK_EQ(size_ok("1g", 1, max, &err), INT64_C(1) << 30);
    CHECK_OK(err);
    CHECK_EQ(size_ok("1G", 1, max, &err), INT64_C(1) << 30);
    CHECK_OK(err);
    CHECK_EQ(size_ok("4096", 1, max, &err), 4096);
    CHECK_OK(err);
    CHECK_EQ(size_ok("10001", 1, max, &err), 10001);
    CHECK_OK(err);
    CHECK_EQ(size_ok("64g", 1, max, &err), max); /* the maximum itself is allowed */
    CHECK_OK(err);
    CHECK_EQ(size_ok("1", 1, max, &err), 1); /* and the minimum */
    CHECK_OK(err);
    CHECK_EQ(size_ok("0", 0, max, &err), 0); /* 0 is fine when the minimum is 0 */
    CHECK_OK(err);

    /* Rejections: out is left alone and the message names the flag and the value. */
    int64_t out = 777;
    CHECK_ERR(flags_parse_size("--op-size", "0", 1, max, &out), "--op-size 0", "between 1 and 64g");
    CHECK_EQ(out, 777);
    CHECK_ERR(flags_parse_size("--op-size", "0k", 1, max, &out), "--op-size 0k", "between");
    CHECK_ERR(flags_parse_size("--file-size", "-1", 1, max, &out), "--file-size -1", "not a size");
    CHECK_ERR(flags_parse_size("--file-size", "abc", 1, max, &out), "--file-size abc", "not a size");
    CHECK_ERR(flags_parse_size("--file-size", "1.5m", 1, max, &out), "--file-size 1.5m", "not a size");
    CHECK_ERR(flags_parse_size("--file-size", "", 1, max, &out), "--file-size :", "not a size");
    CHECK_ERR(flags_parse_size("--file-size", "k", 1, max, &out), "--file-size k", "not a size");
    CHECK_ERR(flags_parse_size("--file-size", "4kb", 1, max, &out), "--file-size 4kb", "not a size");
    CHECK_ERR(flags_parse_size("--file-size", "4t", 1, max, &out), "--file-size 4t", "not a size");
    CHECK_ERR(flags_parse_size("--file-size", " 4k", 1, max, &out), "not a size");
    CHECK_ERR(flags_parse_size("--file-size", "65g", 1, max, &out), "--file-size 65g", "between 1 and 64g");
    CHECK_ERR(flags_parse_size("--file-size", "68719476737", 1, max, &out), "68719476737", "between 1 and 64g");
    /* 12 digits with a g suffix overflows int64 when shifted: clamped, so still rejected. */
    CHECK_ERR(flags_parse_size("--file-size", "999999999999g", 1, max, &out), "999999999999g", "between");
    CHECK_ERR(flags_parse_size("--file-size", "1234567890123", 1, INT64_MAX, &out), "not a size"); /* 13 digits */
    CHECK_EQ(out, 777);
}

/* ---- flags_parse --------------------------------------------------------------------------- */

static void test_parse_defaults(void) {
    struct options o;
    setenv("COURSE_SCRATCH", "/tmp/scratch-dir", 1);
    const char *args[] = {"prog"};
    CHECK_OK(parse(&o, "raw_io", args, 1));
    CHECK_STR(o.snippet, "raw_io");
    CHECK_STR(o.strategy, "raw"); /* the first strategy */
    CHECK_STR(o.op, "read");
    CHECK_STR(o.pattern, "seq");
    CHECK_EQ(o.file_size, INT64_C(1) << 20);
    CHECK_EQ(o.op_size, 1);
    CHECK_EQ(o.buffer_size, 0);
    CHECK_EQ(o.repeat, 3);
    CHECK_EQ(o.warmup, 1);
    CHECK_STR(o.cache, "warm");
    CHECK_EQ(o.seed, 42);
    CHECK_EQ(o.keep, 0);
    char expected[PATH_MAX];
    snprintf(expected, sizeof expected, "/tmp/scratch-dir/raw_io-%d.dat", (int)getpid());
    CHECK_STR(o.file, expected);

    unsetenv("COURSE_SCRATCH");
    CHECK_OK(parse(&o, "raw_io", args, 1));
    snprintf(expected, sizeof expected, "./raw_io-%d.dat", (int)getpid());
    CHECK_STR(o.file, expected);
}

static void test_parse_values(void) {
    struct options o;
    /* --flag value */
    CHECK_OK(PARSE(&o, "raw_io", "--strategy", "other", "--op", "write", "--pattern", "rand", "--cache", "cold",
                   "--file-size", "16m", "--op-size", "4k", "--repeat", "7", "--warmup", "0", "--seed", "123",
                   "--file", "/tmp/some.dat", "--keep"));
    CHECK_STR(o.strategy, "other");
    CHECK_STR(o.op, "write");
    CHECK_STR(o.pattern, "rand");
    CHECK_STR(o.cache, "cold");
    CHECK_EQ(o.file_size, INT64_C(16) << 20);
    CHECK_EQ(o.op_size, 4096);
    CHECK_EQ(o.repeat, 7);
    CHECK_EQ(o.warmup, 0);
    CHECK_EQ(o.seed, 123);
    CHECK_STR(o.file, "/tmp/some.dat");
    CHECK_EQ(o.keep, 1);

    /* --flag=value, one at a time (each result read before the next call) */
    CHECK_OK(PARSE(&o, "raw_io", "--op=write"));
    CHECK_STR(o.op, "write");
    CHECK_OK(PARSE(&o, "raw_io", "--pattern=rand"));
    CHECK_STR(o.pattern, "rand");
    CHECK_OK(PARSE(&o, "raw_io", "--file-size=1g"));
    CHECK_EQ(o.file_size, INT64_C(1) << 30);
    CHECK_OK(PARSE(&o, "raw_io", "--op-size=512", "--file-size=512"));
    CHECK_EQ(o.op_size, 512); /* op size equal to the file size is fine */
    CHECK_EQ(o.file_size, 512);
    CHECK_OK(PARSE(&o, "raw_io", "--repeat=1000", "--warmup=100", "--seed=0"));
    CHECK_EQ(o.repeat, 1000);
    CHECK_EQ(o.warmup, 100);
    CHECK_EQ(o.seed, 0);
    CHECK_OK(PARSE(&o, "raw_io", "--file=/tmp/eq.dat"));
    CHECK_STR(o.file, "/tmp/eq.dat");
    CHECK_OK(PARSE(&o, "raw_io", "--keep", "--strategy=other"));
    CHECK_EQ(o.keep, 1);
    CHECK_STR(o.strategy, "other");
    CHECK_OK(PARSE(&o, "raw_io", "--file=/tmp/a=b.dat"));  /* the value is all after the first = */
    CHECK_STR(o.file, "/tmp/a=b.dat");

    /* Mixed forms in one command line: every value must survive the later arguments. */
    CHECK_OK(PARSE(&o, "raw_io", "--op", "write", "--file-size=8k", "--op-size", "8"));
    CHECK_STR(o.op, "write");
    CHECK_EQ(o.file_size, 8192);
    CHECK_EQ(o.op_size, 8);

    /* Several --flag=value string flags in one command line: each keeps its own value. */
    CHECK_OK(PARSE(&o, "raw_io", "--op=write", "--pattern=rand"));
    CHECK_STR(o.op, "write");
    CHECK_STR(o.pattern, "rand");
    CHECK_OK(PARSE(&o, "raw_io", "--file=/tmp/eq2.dat", "--cache=cold"));
    CHECK_STR(o.file, "/tmp/eq2.dat");
    CHECK_STR(o.cache, "cold");

    /* --buffer-size where the snippet declares it */
    CHECK_OK(PARSE(&o, "buffering", "--buffer-size", "64k"));
    CHECK_EQ(o.buffer_size, 65536);
    CHECK_OK(PARSE(&o, "buffering", "--buffer-size=1m"));
    CHECK_EQ(o.buffer_size, INT64_C(1) << 20);

    /* A later flag overrides an earlier one. */
    CHECK_OK(PARSE(&o, "raw_io", "--repeat", "2", "--repeat", "5"));
    CHECK_EQ(o.repeat, 5);
}

static void test_parse_rejections(void) {
    struct options o;
    CHECK_ERR(PARSE(&o, "raw_io", "--bogus", "1"), "--bogus", "allowed", "--file-size", "--keep");
    CHECK_ERR(PARSE(&o, "buffering", "--bogus=1"), "unknown flag --bogus", "allowed", "--buffer-size");
    CHECK_ERR(PARSE(&o, "raw_io", "--buffer-size", "4k"), "--buffer-size", "not used by raw_io");
    CHECK_ERR(PARSE(&o, "raw_io", "--threads=2"), "--threads is not used by raw_io");
    CHECK_ERR(PARSE(&o, "raw_io", "--keep=1"), "--keep takes no value");
    CHECK_ERR(PARSE(&o, "raw_io", "plain=value"), "unexpected argument 'plain=value' (flags start with --)");
    CHECK_ERR(PARSE(&o, "raw_io", "--op-size", "2m"), "--op-size 2097152", "larger than --file-size 1048576");
    CHECK_ERR(PARSE(&o, "raw_io", "--file-size", "4k", "--op-size", "4097"), "--op-size 4097", "--file-size 4096");
    CHECK_ERR(PARSE(&o, "raw_io", "--op", "append"), "--op append", "read, write");
    CHECK_ERR(PARSE(&o, "raw_io", "--op=append"), "--op append", "read, write");
    CHECK_ERR(PARSE(&o, "raw_io", "--pattern", "zigzag"), "--pattern zigzag", "seq, rand");
    CHECK_ERR(PARSE(&o, "raw_io", "--cache", "hot"), "--cache hot", "warm, cold");
    CHECK_ERR(PARSE(&o, "raw_io", "--strategy", "mmap"), "--strategy mmap", "raw, other");
    CHECK_ERR(PARSE(&o, "raw_io", "--op"), "--op needs a value");
    CHECK_ERR(PARSE(&o, "raw_io", "--repeat", "3", "--file"), "--file needs a value");
    CHECK_ERR(PARSE(&o, "raw_io", "--repeat", "0"), "--repeat 0", "between 1 and 1000");
    CHECK_ERR(PARSE(&o, "raw_io", "--repeat=1001"), "--repeat 1001", "between 1 and 1000");
    CHECK_ERR(PARSE(&o, "raw_io", "--repeat", "-1"), "--repeat -1");
    CHECK_ERR(PARSE(&o, "raw_io", "--warmup", "101"), "--warmup 101", "between 0 and 100");
    CHECK_ERR(PARSE(&o, "raw_io", "--seed", "x"), "--seed x");
    CHECK_ERR(PARSE(&o, "raw_io", "--file-size", "0"), "--file-size 0");
    CHECK_ERR(PARSE(&o, "raw_io", "--file-size", "65g"), "--file-size 65g", "64g");
    CHECK_ERR(PARSE(&o, "raw_io", "--op-size", "65m"), "--op-size 65m", "64m");
    CHECK_ERR(PARSE(&o, "raw_io", "stray"), "unexpected argument 'stray'");
}

/* Error messages built from very long arguments must stay inside the harness's message buffer.
 * Run in a child so that a sanitizer abort is one failed check, not the end of the test run. */
static int child_parse_ok(const char *flag, const char *value) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) {
        struct options o;
        const char *args[] = {"prog", flag, value};
        const char *err = parse(&o, "raw_io", args, value ? 3 : 2);
        _exit(err != NULL && strlen(err) > 0 ? 0 : 3);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid) return 0;
    if (WIFSIGNALED(status)) printf("    flags_parse(\"%.20s...\") killed the process: signal %d\n", flag,
                                    WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0)
        printf("    flags_parse(\"%.20s...\") ended the process with status %d\n", flag, WEXITSTATUS(status));
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void test_long_arguments(void) {
    size_t n = 4 * PATH_MAX;
    char *long_value = malloc(n + 1), *long_flag = malloc(n + 1);
    memset(long_value, 'v', n);
    long_value[n] = '\0';
    memset(long_flag, 'f', n);
    long_flag[0] = long_flag[1] = '-';
    long_flag[n] = '\0';
    CHECK(child_parse_ok("--op", long_value));     /* one_of: "--op vvvv...: must be one of ..." */
    CHECK(child_parse_ok(long_flag, "1"));         /* unknown flag --ffff... (allowed: ...) */
    CHECK(child_parse_ok("--file-size", long_value)); /* flags_parse_size's message */
    CHECK(child_parse_ok("--repeat", long_value)); /* count's message */
    free(long_value);
    free(long_flag);
}

/* ---- SplitMix64 ------------------------------------------------------------------------------ */

static void test_prng(void) {
    struct prng p = {0};
    CHECK_EQ(prng_next(&p), UINT64_C(0xE220A8397B1DCDAF));
    CHECK_EQ(prng_next(&p), UINT64_C(0x6E789E6AA1B965F4));
    CHECK_EQ(prng_next(&p), UINT64_C(0x06C45D188009454F));
    CHECK_EQ(p.state, UINT64_C(3) * UINT64_C(0x9E3779B97F4A7C15));

    /* prng_below(n) is next() % n, consuming exactly one value each call. */
    struct prng a = {42}, b = {42};
    const uint64_t ns[] = {1, 2, 3, 7, 1000, 1429, UINT64_C(1) << 40, UINT64_MAX};
    int all_equal = 1, all_in_range = 1;
    for (int round = 0; round < 100; round++) {
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            uint64_t got = prng_below(&a, ns[k]), want = prng_next(&b) % ns[k];
            all_equal &= got == want;
            all_in_range &= got < ns[k];
        }
    }
    CHECK(all_equal);
    CHECK(all_in_range);
    CHECK_EQ(a.state, b.state);

    struct prng z = {0};
    CHECK_EQ(prng_below(&z, 1000), UINT64_C(0xE220A8397B1DCDAF) % 1000);
}

/* ---- data ------------------------------------------------------------------------------------ */

static void test_data(void) {
    /* The pattern: byte j is the top byte of j * 0x9E3779B97F4A7C15, repeating every 65536 bytes. */
    CHECK_EQ(data_at(0), 0);
    CHECK_EQ(data_at(1), 0x9E);
    CHECK_EQ(data_at(2), (unsigned char)((UINT64_C(2) * UINT64_C(0x9E3779B97F4A7C15)) >> 56));
    int in_range = 1, periodic = 1;
    for (int64_t i = 0; i < 65536; i++) {
        in_range &= data_at(i) < 256;
        periodic &= data_at(i) == data_at(i + 65536) && data_at(i) == data_at(i + (INT64_C(5) << 30));
    }
    CHECK(in_range);
    CHECK(periodic);

    /* data_fill equals data_at byte for byte, across the period boundary and at large offsets. */
    const int64_t starts[] = {0, 1, 65536 - 100, 65535, 65536, 3 * 65536 - 7, (INT64_C(64) << 30) - 1000};
    const size_t lens[] = {0, 1, 100, 300, 65536, 65536 + 3, 200000};
    int fill_ok = 1;
    unsigned char *buf = malloc(200000 + 1);
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            buf[lens[l]] = 0xA5; /* a guard byte just past the end */
            data_fill(buf, lens[l], starts[s]);
            for (size_t i = 0; i < lens[l]; i++)
                if (buf[i] != data_at(starts[s] + (int64_t)i)) fill_ok = 0;
            if (buf[lens[l]] != 0xA5) fill_ok = 0;
        }
    }
    CHECK(fill_ok);

    /* data_sum: the plain sum of the bytes, as unsigned values. */
    const unsigned char small[] = {0, 1, 2, 255, 128};
    CHECK_EQ(data_sum(small, 0), 0);
    CHECK_EQ(data_sum(small, sizeof small), 386);
    memset(buf, 0xFF, 200000);
    CHECK_EQ(data_sum(buf, 200000), UINT64_C(255) * 200000);
    data_fill(buf, 65536, 0);
    uint64_t period_sum = 0;
    for (int64_t i = 0; i < 65536; i++) period_sum += data_at(i);
    CHECK_EQ(data_sum(buf, 65536), period_sum);
    data_fill(buf, 65536, 12345); /* any whole period has the same sum */
    CHECK_EQ(data_sum(buf, 65536), period_sum);
    free(buf);
}

/* ---- harness_operations and harness_bytes ---------------------------------------------------- */

static struct options sized(const char *pattern, int64_t file_size, int64_t op_size) {
    struct options o = {0};
    o.pattern = pattern;
    o.op = "read";
    o.file_size = file_size;
    o.op_size = op_size;
    return o;
}

static void test_counts(void) {
    struct options o;
    /* seq: ceil(file / op) operations, every byte of the file moved */
    o = sized("seq", 4096, 1);
    CHECK_EQ(harness_operations(&o), 4096);
    CHECK_EQ(harness_bytes(&o), 4096);
    o = sized("seq", 4096, 4096);
    CHECK_EQ(harness_operations(&o), 1);
    CHECK_EQ(harness_bytes(&o), 4096);
    o = sized("seq", 10001, 7);
    CHECK_EQ(harness_operations(&o), 1429); /* 1428 whole operations and one of 5 bytes */
    CHECK_EQ(harness_bytes(&o), 10001);
    o = sized("seq", INT64_C(1) << 20, 4096);
    CHECK_EQ(harness_operations(&o), 256);
    CHECK_EQ(harness_bytes(&o), INT64_C(1) << 20);
    o = sized("seq", INT64_C(64) << 30, 3);
    CHECK_EQ(harness_operations(&o), ((INT64_C(64) << 30) + 2) / 3);
    CHECK_EQ(harness_bytes(&o), INT64_C(64) << 30);

    /* rand: floor(file / op) whole slots, op_size bytes each; the tail is never touched */
    o = sized("rand", 4096, 1);
    CHECK_EQ(harness_operations(&o), 4096);
    CHECK_EQ(harness_bytes(&o), 4096);
    o = sized("rand", 10001, 7);
    CHECK_EQ(harness_operations(&o), 1428);
    CHECK_EQ(harness_bytes(&o), 9996);
    o = sized("rand", 4096, 7);
    CHECK_EQ(harness_operations(&o), 585);
    CHECK_EQ(harness_bytes(&o), 4095);
    o = sized("rand", 4096, 4096);
    CHECK_EQ(harness_operations(&o), 1);
    CHECK_EQ(harness_bytes(&o), 4096);
    o = sized("rand", 8191, 4096);
    CHECK_EQ(harness_operations(&o), 1);
    CHECK_EQ(harness_bytes(&o), 4096);
}

/* ---- files ----------------------------------------------------------------------------------- */

static int temp_file(char *path, size_t cap) {
    snprintf(path, cap, "/tmp/test_harness_XXXXXX");
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
    return fd >= 0;
}

/* The file holds exactly `size` bytes, each equal to data_at of its offset. */
static int file_matches_data(const char *path, int64_t size) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int ok = 1, c;
    int64_t pos = 0;
    while ((c = fgetc(f)) != EOF) {
        if (pos >= size || (unsigned)c != data_at(pos)) ok = 0;
        pos++;
    }
    fclose(f);
    return ok && pos == size;
}

static void test_files(void) {
    char path[64];
    if (!CHECK(temp_file(path, sizeof path))) return;

    /* More than one 1 MiB block, ending mid-block and mid-period. */
    const int64_t sizes[] = {(INT64_C(1) << 20) + 65536 + 12345, 10001, 1, 0};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        CHECK_EQ(data_write_file(path, sizes[k]), 0);
        struct stat st;
        CHECK(stat(path, &st) == 0 && st.st_size == sizes[k]);
        CHECK(file_matches_data(path, sizes[k]));
    }
    CHECK_EQ(data_write_file("/nonexistent-dir/x.dat", 10), (uint64_t)-1);

    /* space_evict: 0 on an existing file, -1 on a missing one */
    CHECK_EQ(data_write_file(path, 100000), 0);
    CHECK_EQ(space_evict(path), 0);
    CHECK(file_matches_data(path, 100000)); /* eviction never changes the contents */

    /* harness_write_fully / harness_read_fully, including a short read at end of file */
    struct options o = {0};
    o.snippet = "test";
    o.file = path;
    unsigned char out[5000], in[6000];
    data_fill(out, sizeof out, 777);
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (CHECK(fd >= 0)) {
        harness_write_fully(&o, fd, out, sizeof out);
        CHECK(close(fd) == 0);
    }
    fd = open(path, O_RDONLY);
    if (CHECK(fd >= 0)) {
        CHECK_EQ(harness_read_fully(&o, fd, in, 3000), 3000);
        CHECK_EQ(harness_read_fully(&o, fd, in + 3000, 3000), 2000); /* only 2000 bytes left */
        CHECK_EQ(harness_read_fully(&o, fd, in, 10), 0);             /* at EOF */
        CHECK(memcmp(in, out, sizeof out) == 0);
        close(fd);
    }

    CHECK(unlink(path) == 0);
    CHECK_EQ(space_evict(path), (uint64_t)-1);
    CHECK_EQ(space_evict("/nonexistent-dir/x.dat"), (uint64_t)-1);
}

/* space_resident_pct: all of a file just read is in the page cache; after evict_file little or none is (on a
 * file system with a page cache of its own to drop: tmpfs keeps its pages, being made of them). */
static void test_resident(void) {
    char path[64];
    if (!CHECK(temp_file(path, sizeof path))) return;
    CHECK_EQ(space_resident_pct(path), 0); /* empty */
    CHECK_EQ(data_write_file(path, 4 << 20), 0);
    CHECK(file_matches_data(path, 4 << 20)); /* read back whole: every page resident */
    CHECK(space_resident_pct(path) == 100.0);
    CHECK_EQ(space_evict(path), 0);
    double after = space_resident_pct(path);
    struct statfs fs;
    CHECK(statfs(path, &fs) == 0);
    if (fs.f_type == TMPFS_MAGIC) CHECK(after == 100.0);
    else if (!CHECK(after < 10.0)) printf("    %.1f%% still resident after space_evict\n", after);
    CHECK(unlink(path) == 0);
    CHECK(space_resident_pct(path) == -1); /* gone: cannot be told */
}

/* ---- the clock holds the strategy, and validation stays outside it --------------------------- */

/* A clock that ticks once per reading; at each stop of a write run it appends a byte of 7 to the file,
 * which the write's checksum must then include. A read run's buffer lies in its mapping so that every
 * byte but the last sits on a page that cannot be read: touching one while the clock runs kills the run. */
static int64_t ticks;
static const char *clock_file;
static unsigned char *guarded, *readable;
static int64_t strategy_calls;
enum { GUARDED = 1000 };

static int64_t ticking_clock(void) {
    if (++ticks % 2 == 0 && clock_file) {
        int fd = open(clock_file, O_WRONLY | O_APPEND);
        unsigned char seven = 7;
        if (fd < 0 || write(fd, &seven, 1) != 1) abort();
        close(fd);
    }
    return ticks;
}

static uint64_t write_strategy(const struct options *o) {
    strategy_calls++;
    int fd = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) abort();
    harness_write_fully(o, fd, data_source(0), (size_t)o->file_size);
    close(fd);
    return 0;
}

static uint64_t read_strategy(const struct options *o) {
    (void)o;
    strategy_calls++;
    return harness_use(ticks % 2 == 1 ? guarded : readable, GUARDED); /* odd: the clock is running */
}

/* Runs harness_run in a child with the ticking clock and its stdout in a file; returns the child's status. */
static int run_with_clock(strategy_fn strategy, const char *out, char **args, int argc) {
    pid_t child = fork();
    if (child == 0) {
        if (!freopen(out, "w", stdout)) _exit(99);
        harness_clock = ticking_clock;
        const struct way ways[] = {{"raw", ANY, ANY, {.whole = strategy}}, {NULL}};
        harness_run("raw_io", ways, argc, args, NULL, NULL, NULL);
        printf("ticks %" PRId64 " calls %" PRId64 "\n", ticks, strategy_calls);
        fflush(stdout);
        _exit(0);
    }
    int status;
    waitpid(child, &status, 0);
    return status;
}

static void test_clock(void) {
    char file[64], out[64], line[1024], expected[64];
    if (!CHECK(temp_file(file, sizeof file) && temp_file(out, sizeof out))) return;
    unlink(file);

    /* a write: no check run, two readings per run, the file summed after the clock stopped */
    clock_file = file;
    char *write_args[] = {"raw_io", "--op", "write", "--file-size", "1000", "--repeat", "2", "--warmup", "1", "--file", file, NULL};
    int status = run_with_clock(write_strategy, out, write_args, 11);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    unsigned char pattern[1000];
    data_fill(pattern, sizeof pattern, 0);
    snprintf(expected, sizeof expected, "\"checksum\":%" PRIu64 ",", data_sum(pattern, sizeof pattern) + 7);
    FILE *f = fopen(out, "r");
    int lines = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '{') {
            lines++;
            CHECK(strstr(line, expected) != NULL);
            CHECK(strstr(line, "\"elapsed_ns\":1,") != NULL); /* the clock was read just around the strategy */
        } else {
            CHECK_STR(line, "ticks 6 calls 3\n");
        }
    }
    if (f) fclose(f);
    CHECK_EQ(lines, 2);

    /* a read: the check run is untimed and sums everything; a timed run touches one byte */
    clock_file = NULL;
    long page = sysconf(_SC_PAGESIZE);
    unsigned char *pages = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!CHECK(pages != MAP_FAILED)) return;
    readable = malloc(GUARDED);
    for (int i = 0; i < GUARDED; i++) readable[i] = (unsigned char)(i % 251);
    pages[page] = readable[GUARDED - 1];
    CHECK(mprotect(pages, (size_t)page, PROT_NONE) == 0);
    guarded = pages + page - (GUARDED - 1); /* all but the last byte on the page that cannot be read */
    char *read_args[] = {"raw_io", "--op", "read", "--file-size", "100", "--repeat", "3", "--warmup", "1", "--file", file, NULL};
    status = run_with_clock(read_strategy, out, read_args, 11);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* a SIGSEGV here: a timed run summed the buffer */
    snprintf(expected, sizeof expected, "\"checksum\":%" PRIu64 ",", data_sum(readable, GUARDED));
    f = fopen(out, "r");
    lines = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '{') {
            lines++;
            CHECK(strstr(line, expected) != NULL);
        } else {
            CHECK_STR(line, "ticks 8 calls 5\n"); /* the check run, a warm-up, three measured runs */
        }
    }
    if (f) fclose(f);
    CHECK_EQ(lines, 3);
    CHECK(access(file, F_OK) != 0); /* removed */
    munmap(pages, 2 * (size_t)page);
    free(readable);
    unlink(out);
}

/* ---- the table of ways ----------------------------------------------------------------------- */

/* Runs harness_run in a child on a table that serves raw writes in order and other's random access; returns the
 * child's status, its stderr in out. */
static int run_table(const char *out, char **args, int argc) {
    pid_t child = fork();
    if (child == 0) {
        if (!freopen(out, "w", stderr)) _exit(99);
        const struct way ways[] = {{"raw", "write", "seq", {.whole = write_strategy}}, {"other", ANY, "rand", {.whole = write_strategy}}, {NULL}};
        _exit(harness_run("raw_io", ways, argc, args, NULL, NULL, NULL));
    }
    int status;
    waitpid(child, &status, 0);
    return status;
}

static void test_ways(void) {
    char out[64], line[512] = "";
    if (!CHECK(temp_file(out, sizeof out))) return;
    char *raw_read[] = {"raw_io", "--op", "read", NULL}; /* raw, the table's first strategy, by default */
    int status = run_table(out, raw_read, 3);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2);
    FILE *f = fopen(out, "r");
    if (f && fgets(line, sizeof line, f)) CHECK_STR(line, "raw_io: --strategy raw --op read --pattern seq: no such way (raw serves --op write --pattern seq)\n");
    if (f) fclose(f);
    char *other_seq[] = {"raw_io", "--strategy", "other", NULL};
    status = run_table(out, other_seq, 3);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 2);
    f = fopen(out, "r");
    if (f && fgets(line, sizeof line, f)) CHECK_STR(line, "raw_io: --strategy other --op read --pattern seq: no such way (other serves --pattern rand)\n");
    if (f) fclose(f);
    unlink(out);
}

/* ---- threads --------------------------------------------------------------------------------- */

static void test_threads(void) {
    struct options o;
    CHECK_OK(PARSE(&o, "shared_file", "--file-size", "10k"));
    CHECK_EQ(o.threads, 1);
    CHECK_STR(o.lock, "none");
    CHECK_OK(PARSE(&o, "raw_io", "--file-size", "10k"));
    CHECK(o.lock == NULL && o.threads == 0); /* a snippet without threads says nothing about them */
    CHECK_OK(PARSE(&o, "shared_file", "--threads", "3", "--lock", "region", "--file-size", "10k", "--op-size", "1k"));
    CHECK_EQ(o.threads, 3);
    CHECK_STR(o.lock, "region");
    CHECK_ERR(PARSE(&o, "shared_file", "--threads", "0"), "--threads 0", "between 1 and 256");
    CHECK_ERR(PARSE(&o, "shared_file", "--threads", "-2"), "--threads -2", "between 1 and 256");
    CHECK_ERR(PARSE(&o, "shared_file", "--lock", "all"), "--lock all", "none, region");
    CHECK_ERR(PARSE(&o, "raw_io", "--threads", "2"), "--threads is not used by raw_io");
    CHECK_ERR(PARSE(&o, "shared_file", "--threads", "11", "--file-size", "10k", "--op-size", "1k"),
              "--threads 11 is more than the file's 10 blocks of --op-size 1k");

    /* The shares are whole blocks, disjoint, in order, and cover the file (the last block may be short). */
    for (int64_t threads = 1; threads <= 11; threads++) {
        CHECK_OK(PARSE(&o, "shared_file", "--file-size", "10001", "--op-size", "1000"));
        o.threads = threads;
        int64_t expected_from = 0, from, to;
        for (int64_t t = 0; t < threads; t++) {
            workers_share(&o, t, &from, &to);
            CHECK_EQ(from, expected_from);
            CHECK(to > from);
            CHECK(to == o.file_size || to % o.op_size == 0);
            expected_from = to;
        }
        CHECK_EQ(expected_from, o.file_size);
    }
}

/* ---- processes ------------------------------------------------------------------------------- */

static void test_processes(void) {
    struct options o;
    CHECK_OK(PARSE(&o, "mpi_file", "--file-size", "10k"));
    CHECK_EQ(o.procs, 1);
    CHECK_OK(PARSE(&o, "raw_io", "--file-size", "10k"));
    CHECK_EQ(o.procs, 0); /* a snippet without processes says nothing about them */
    CHECK_ERR(PARSE(&o, "mpi_file", "--procs", "0"), "--procs 0", "between 1 and 256");
    CHECK_ERR(PARSE(&o, "mpi_file", "--procs", "-3"), "--procs -3", "between 1 and 256");
    CHECK_ERR(PARSE(&o, "raw_io", "--procs", "2"), "--procs is not used by raw_io");
    CHECK_ERR(PARSE(&o, "mpi_file", "--procs", "11", "--file-size", "10k", "--op-size", "1k"),
              "--procs 11 is more than the file's 10 blocks of --op-size 1k");
    /* Alone (a team of one), a count above 1 names the mpirun it needs. */
    CHECK_ERR(PARSE(&o, "mpi_file", "--procs", "4", "--file-size", "10k", "--op-size", "1k"),
              "--procs 4, but mpirun started 1 process (start it with mpirun -np 4)");
    /* Processes share the file out as threads do. */
    CHECK_OK(PARSE(&o, "mpi_file", "--file-size", "10k", "--op-size", "1k"));
    o.procs = 4;
    int64_t from, to;
    workers_share(&o, 3, &from, &to);
    CHECK_EQ(from, 7 * 1024);
    CHECK_EQ(to, 10 * 1024);
    CHECK_EQ(harness_workers(&o), 4);
}

/* Snippets' buffers and the data the harness lays out start on a page boundary, whatever their size. */
static void test_buffers(void) {
    struct options o;
    memset(&o, 0, sizeof o);
    for (size_t size = 1; size <= (size_t)4 << 20; size *= 16) {
        unsigned char *b = harness_buffer(&o, size);
        CHECK_EQ((uintptr_t)b % 4096, 0);
        b[size - 1] = 1; /* all of it is ours */
        free(b);
    }
    int32_t *ints = data_ints(0, 1 << 20);
    CHECK_EQ((uintptr_t)ints % 4096, 0);
    CHECK_EQ(ints[5], data_int_at(5));
    free(ints);
}

int main(void) {
    test_parse_size();
    test_parse_defaults();
    test_parse_values();
    test_parse_rejections();
    test_long_arguments();
    test_prng();
    test_data();
    test_counts();
    test_files();
    test_resident();
    test_buffers();
    test_clock();
    test_ways();
    test_threads();
    test_processes();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
