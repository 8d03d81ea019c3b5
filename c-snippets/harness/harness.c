/* The experiment protocol every C snippet speaks (see harness.h), and its first room: the run and its clock, what a read
 * brings in, and the small I/O helpers a strategy calls. The other rooms, a file each: workers.c (threads and
 * processes), job.c (where an MPI job ran), flags.c, space.c (memory and scratch space), output.c (the run record and
 * the one-line errors) and data.c (the bytes, text and random offsets); rooms.h is what they share. Each is the twin
 * of the Java class of the same name in java-snippets/harness/, its functions in the same order
 * (tests/test_mirror.py). */
#define _GNU_SOURCE
#include "rooms.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

int64_t harness_misses = -1;
int64_t harness_operations_done = -1;
char harness_message[3 * PATH_MAX];

static void agree(const char *snippet, const char *error);
static void check_shared(const struct options *o);

/* True during a read's check run, when harness_use* sum all they are handed (into unseen) besides what they
 * return; several threads may hand over at once (small_reads' workers), all started after it was set. */
static int checking;
static _Atomic uint64_t unseen;

int64_t harness_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int64_t (*harness_clock)(void) = harness_now_ns;

/* CPU time of the measuring thread, split into user and kernel (system-call) time. */
int64_t harness_timeval_ns(struct timeval t) {
    return (int64_t)t.tv_sec * 1000000000 + (int64_t)t.tv_usec * 1000;
}

int64_t harness_operations(const struct options *o) {
    return strcmp(o->pattern, "seq") == 0 ? (o->file_size + o->op_size - 1) / o->op_size
                                          : o->file_size / o->op_size;
}

int64_t harness_bytes(const struct options *o) {
    return strcmp(o->pattern, "seq") == 0 ? o->file_size : harness_operations(o) * o->op_size;
}

int64_t harness_workers(const struct options *o) {
    return (o->threads > 0 ? o->threads : 1) * (o->procs > 0 ? o->procs : 1); /* 0: the snippet takes no such flag */
}

/* Whether a row serves these flags (Java: Way.serves). */
static int serves(const struct way *w, const struct options *o) {
    return strcmp(w->strategy, o->strategy) == 0 && (w->op == ANY || strcmp(w->op, o->op) == 0)
        && (w->pattern == ANY || strcmp(w->pattern, o->pattern) == 0);
}

/* The strategies a table names, each once, in its order (NULL-terminated): what --strategy allows, the first its default. */
static const char *const *way_strategies(const struct way *ways) {
    static const char *names[64];
    size_t n = 0;
    for (const struct way *w = ways; w->strategy; w++) {
        size_t k = 0;
        while (k < n && strcmp(names[k], w->strategy) != 0) k++;
        if (k < n) continue;
        if (n + 1 == sizeof names / sizeof *names) abort(); /* a table of 64 strategies: a snippet's mistake, never a learner's */
        names[n++] = w->strategy;
    }
    names[n] = NULL;
    return names;
}

/* The row that serves o's flags; NULL, with *error naming what the strategy serves, where none does (Java: Harness.findWay). */
static const struct way *find_way(const struct way *ways, const struct options *o, const char **error) {
    static char refusal[512];
    int at = snprintf(refusal, sizeof refusal, "--strategy %s --op %s --pattern %s: no such way (%s serves ", o->strategy, o->op,
                      o->pattern, o->strategy);
    const char *sep = "";
    for (const struct way *w = ways; w->strategy; w++) {
        if (serves(w, o)) return w;
        if (strcmp(w->strategy, o->strategy) != 0 || at >= (int)sizeof refusal) continue;
        /* the flags it serves, as a learner types them (Java: Way.describe; a row serving any flags never gets here) */
        if (w->op == ANY) at += snprintf(refusal + at, sizeof refusal - (size_t)at, "%s--pattern %s", sep, w->pattern);
        else if (w->pattern == ANY) at += snprintf(refusal + at, sizeof refusal - (size_t)at, "%s--op %s", sep, w->op);
        else at += snprintf(refusal + at, sizeof refusal - (size_t)at, "%s--op %s --pattern %s", sep, w->op, w->pattern);
        sep = "; ";
    }
    if (at < (int)sizeof refusal) snprintf(refusal + at, sizeof refusal - (size_t)at, ")");
    *error = refusal;
    return NULL;
}

/* The current run's way and frame: what the clock times. */
static const struct way *chosen;
static frame_fn chosen_frame;

static uint64_t run_way(const struct options *o) {
    return chosen_frame ? chosen_frame(o, chosen->fn) : chosen->fn.whole(o);
}

int harness_run(const char *snippet, const struct way *ways, int argc, char **argv,
                check_fn check, prepare_fn prepare, frame_fn frame) {
    struct options o;
    const char *error = flags_parse(snippet, way_strategies(ways), argc, argv, &o);
    if (!error && check) error = check(&o);
    if (!error) chosen = find_way(ways, &o, &error);
    chosen_frame = frame;
    if (!error) error = space_check_memory(&o);
    if (!error) error = space_check_scratch(&o);
    agree(snippet, error);
    int first = workers_team->rank() == 0; /* process 0 owns the file and the output */
    signal(SIGXFSZ, SIG_IGN); /* past `ulimit -f`, write() fails with EFBIG instead of killing us */
    /* A mapped page whose part of the file is gone (truncated by another program) faults with SIGBUS:
     * the same one line as a read that finds the file short (Java reports it as an InternalError). */
    snprintf(space_sigbus_message, sizeof space_sigbus_message, "%s: I/O error on %s: file ended early\n", snippet, o.file);
    signal(SIGBUS, space_on_sigbus);
    if (!o.keep) { /* every process removes the file on its way out if it fails or is stopped: a job ends as a whole */
        snprintf(space_created.path, sizeof space_created.path, "%s", o.file);
        atexit(space_remove_made);
        signal(SIGINT, space_on_signal);
        signal(SIGTERM, space_on_signal);
        signal(SIGHUP, space_on_signal);
        signal(SIGPIPE, space_on_signal); /* whoever reads our lines stopped (`| head -1`): the file goes too */
    }
    if (first && space_claim(o.file, &space_created) != 0) harness_io_fail(&o); /* new, never through a link: O_EXCL */
    if (first && strcmp(o.op, "read") == 0 && (o.text ? text_write_file(o.file, o.file_size, o.text, o.seed)
                                                      : data_write_file(o.file, o.file_size)) != 0) harness_io_fail(&o);
    if (workers_team->size() > 1) check_shared(&o);
    if (o.procs > 0) job_gather();
    int write = strcmp(o.op, "write") == 0;
    if (write) data_prepare_source(o.op_size);
    if (prepare) prepare(&o);
    uint64_t checked_use = 0, checksum = 0;
    if (!write) { /* the check run: harness_use sums everything it is handed, off the clock */
        checking = 1;
        unseen = 0;
        checked_use = run_way(&o);
        checksum = (uint64_t)workers_team->sum((int64_t)(checked_use + unseen));
        checking = 0;
    }
    for (int64_t run = -o.warmup; run < o.repeat; run++) {
        if (first && write) { /* the strategy makes the file anew (see Harness.run: ext4 flushes a file truncated to nothing on close) */
            if (unlink(o.file) != 0 && errno != ENOENT) harness_io_fail(&o);
            space_created.known = 0; /* the regular file there from now on is the strategy's */
        }
        double resident = -1; /* -1: not a cold run */
        if (first && !write && strcmp(o.cache, "cold") == 0) {
            if (space_evict(o.file) != 0 || (resident = space_resident_pct(o.file)) < 0) harness_io_fail(&o);
        }
        struct rusage before, after;
        getrusage(RUSAGE_THREAD, &before);
        harness_misses = -1;
        harness_operations_done = -1;
        workers_reset();
        int64_t start = harness_clock();
        uint64_t used = run_way(&o);
        int64_t elapsed = harness_clock() - start;
        getrusage(RUSAGE_THREAD, &after);
        int64_t user = harness_timeval_ns(after.ru_utime) - harness_timeval_ns(before.ru_utime) + workers_user_ns;
        int64_t sys = harness_timeval_ns(after.ru_stime) - harness_timeval_ns(before.ru_stime) + workers_sys_ns;
        /* validation, after the clock: a read must have handed over what the check run did; a write's file is summed */
        if (!write && used != checked_use) {
            char why[64];
            snprintf(why, sizeof why, "run %" PRId64 " read other bytes than the check run", run);
            harness_io_fail_because(&o, why);
        }
        if (write && first) { /* the run's file is the one the strategy made */
            struct stat written;
            if (lstat(o.file, &written) != 0 || data_sum_file(o.file, &checksum) != 0) harness_io_fail(&o);
            space_created.dev = written.st_dev;
            space_created.ino = written.st_ino;
            space_created.known = 1;
        }
        if (run >= 0 && first) output_emit(&o, run, elapsed, user, sys, resident, checksum);
    }
    if (!o.keep && first) space_remove_made(); /* done: process 0 owns the file */
    space_created.path[0] = space_copy_source.path[0] = '\0';
    workers_team->end();
    return 0;
}

/* Every process checked its flags; all stop together when any found a fault (exit status 2), and the
 * lowest such process says why, so the message appears once. Alone, this is a plain usage error. */
static void agree(const char *snippet, const char *error) {
    int64_t first_faulty = workers_team->min(error ? workers_team->rank() : INT64_MAX);
    if (first_faulty == INT64_MAX) return;
    if (first_faulty == workers_team->rank()) fprintf(stderr, "%s: %s\n", snippet, error);
    workers_team->end();
    exit(2);
}

/* Process 0 makes the file; every other process must then see it where its own --file says, or the
 * scratch folder is not on a file system they all share (a node's own /tmp, say). */
static void check_shared(const struct options *o) {
    if (workers_team->rank() == 0) {
        int fd = open(o->file, O_WRONLY | O_CREAT, 0644);
        if (fd < 0 || close(fd) != 0) harness_io_fail(o);
    }
    workers_team->barrier();
    struct stat st;
    int64_t expected = strcmp(o->op, "read") == 0 ? o->file_size : 0;
    int seen = stat(o->file, &st) == 0 && st.st_size == expected;
    if (!seen) {
        snprintf(harness_message, sizeof harness_message, "--file %s: process %" PRId64 " (on %s) cannot see the file process 0 made; the scratch"
                 " folder must be on a file system every process shares (COURSE_SCRATCH)", o->file, workers_team->rank(), workers_team->host());
    }
    agree(o->snippet, seen ? NULL : harness_message);
}


uint64_t harness_use(const unsigned char *buf, size_t n) {
    if (n == 0) return 0;
    uint64_t last = buf[n - 1];
    if (checking) unseen += data_sum(buf, n) - last;
    return last;
}

/* size bytes starting on a page boundary, or NULL (see harness_buffer). */
void *harness_page_aligned(size_t size) {
    void *memory = NULL;
    return posix_memalign(&memory, 4096, size ? size : 1) == 0 ? memory : NULL;
}

void *harness_buffer(const struct options *o, size_t size) {
    void *memory = harness_page_aligned(size);
    if (!memory) harness_io_fail_because(o, "out of memory");
    return memory;
}

uint64_t harness_use_ints(const int32_t *values, size_t n) {
    if (n == 0) return 0;
    if (checking) {
        uint64_t sum = 0;
        for (size_t i = 0; i + 1 < n; i++) sum += (uint32_t)values[i];
        unseen += sum;
    }
    return (uint32_t)values[n - 1];
}

uint64_t harness_use_doubles(const double *values, size_t n) {
    uint64_t bits = 0, sum = 0;
    if (n == 0) return 0;
    for (size_t i = 0; checking && i + 1 < n; i++) {
        memcpy(&bits, values + i, sizeof bits);
        sum += bits;
    }
    if (checking) unseen += sum;
    memcpy(&bits, values + n - 1, sizeof bits);
    return bits;
}


void harness_io_fail(const struct options *o) {
    harness_io_fail_because(o, strerror(errno));
}

void harness_io_fail_because(const struct options *o, const char *why) {
    output_fail_once(o, why, 1);
}

void harness_unsupported(const struct options *o, const char *why) {
    output_fail_once(o, why, HARNESS_UNSUPPORTED);
}


size_t harness_read_fully(const struct options *o, int fd, unsigned char *buf, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t got = read(fd, buf + done, n - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) harness_io_fail(o);
        if (got == 0) break;
        done += (size_t)got;
    }
    return done;
}

void harness_write_fully(const struct options *o, int fd, const unsigned char *buf, size_t n) {
    for (size_t done = 0; done < n;) {
        ssize_t put = write(fd, buf + done, n - done);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) harness_io_fail(o);
        done += (size_t)put;
    }
}

