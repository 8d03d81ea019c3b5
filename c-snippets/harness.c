/* The experiment protocol every C snippet speaks; see harness.h. Functions follow the order of
 * java-snippets/Harness.java so that one can be read beside the other (tests/test_mirror.py), in the same
 * sections, one file kept whole on purpose as Harness.java says. */
#define _GNU_SOURCE
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILE_SIZE (INT64_C(64) << 30)
#define MAX_OP_SIZE (INT64_C(64) << 20)
#define MAX_BUFFER_SIZE (INT64_C(1) << 30)
#define DEFAULT_MARGIN (INT64_C(256) << 20)
#define MAX_MARGIN (INT64_C(1) << 50)
#define MAX_THREADS 256
#define MAX_DEPTH 256
#define MAX_PROCS 256

int64_t harness_misses = -1;
int64_t harness_operations_done = -1;

/* Each worker's own time in the current run of a strategy with threads or processes (ns), and the span
 * from the first start to the last end; CPU time the other threads or processes used, added to the
 * measuring thread's own. */
static int64_t worker_ns[MAX_THREADS > MAX_PROCS ? MAX_THREADS : MAX_PROCS];
static int64_t workers_timed; /* 0: the strategy ran no threads or processes */
static int64_t span_ns = -1;
static int64_t worker_user_ns, worker_sys_ns;

/* Where an MPI job's processes ran, as the run record's fields (at process 0; empty for every other run):
 * "hosts":[…] each once, in rank order, "host_procs":[…] and "host_cores":[…] (the CPUs its processes there may run on) in the same order, and, for a job on
 * more than one host, "transport":[…], the links its processes held to other nodes (see node_links). */
#define HOST_WORDS 8 /* 64 bytes: the longest host name Linux keeps (HOST_NAME_MAX) */
static char job[MAX_PROCS * (HOST_WORDS * 8 + 3 + 48) + 200]; /* 48: a host's two numbers */

/* The kinds of link to another node, as the record names them; bit k of node_links is LINK_KINDS[k]. */
static const char *const LINK_KINDS[] = {"tcp", "verbs", "psm2", "cxi"};

/* The most threads the process had at once in the current run of a strategy with threads (-1: none ran):
 * its workers and the thread that made them, since C starts no thread of its own (Java's JDK does, and counts). */
static int64_t platform_threads = -1;

/* The most tasks the kernel ran for the process at once in the current run of a strategy with threads, as the
 * process's folder of tasks (/proc/self/task) listed them while its workers ran, and the most of those that were
 * io_uring's io-wq workers (named iou-wrk-<tid>, Linux 5.12 and later): -1 where none ran or there is no /proc.
 * Counted the same way in Java, where the tasks also take in the JVM's own threads (GC, compilers). See sample_tasks. */
static int64_t tasks = -1, io_workers = -1;

/* The tasks of the current run whose kind is known, by id (0: a free slot), and whether each is an io-wq worker
 * (see io_worker). */
#define TASKS_KNOWN 4096 /* a power of two, far more than a run's tasks: a full table only costs names read again */
static struct {
    int32_t tid;
    int8_t io;
} known_tasks[TASKS_KNOWN];

/* True during a read's check run, when harness_use* sum all they are handed (into unseen) besides what they
 * return; several threads may hand over at once (small_reads' workers), all started after it was set. */
static int checking;
static _Atomic uint64_t unseen;

/* A team of one: every snippet but mpi_file. */
static int64_t alone_rank(void) { return 0; }
static int64_t alone_size(void) { return 1; }
static void alone_barrier(void) {}
static int64_t alone_value(int64_t value) { return value; }
static void alone_gather(int64_t value, int64_t *at_0) { at_0[0] = value; }
static const char *alone_host(void) { return "localhost"; }
static const char *alone_io(const struct options *o) { (void)o; return NULL; }
static void alone_end(void) {}
static const struct team alone = {alone_rank, alone_size, alone_barrier, alone_value, alone_value, alone_gather, alone_host, alone_io, alone_end};
const struct team *harness_team = &alone;

/* The compiler that built this program: the C side's "runtime" in the JSON line. */
#ifdef __clang__
#define COMPILER "clang " __clang_version__
#else
#define COMPILER "gcc " __VERSION__
#endif

static char message[3 * PATH_MAX]; /* the one-line error of the last failed check */
/* A file this run makes, removed on every way out (path empty: none, or --keep), and its identity once
 * this process made it (claim), so a file someone else put at the path since is never the one removed. */
#define SOURCE_SUFFIX ".source"
struct made {
    char path[PATH_MAX + sizeof SOURCE_SUFFIX]; /* room for a copy's source: --file plus SOURCE_SUFFIX */
    dev_t dev;
    ino_t ino;
    int known;
};
static struct made created;     /* the run's file */
static struct made copy_source; /* a copy's source (file_copy, lab 10), where the snippet makes one */
static char default_file[PATH_MAX];
static char sigbus_message[3 * PATH_MAX]; /* made before any I/O: a signal handler may not format text */

static const char *one_of(const char *flag, const char *value, const char *const *allowed, const char **out);
static const char *count(const char *flag, const char *value, int64_t min, int64_t max, int64_t *out);
static const char *human(int64_t bytes, char *out, size_t cap);
static const char *default_scratch(void);
static int container_memory(int64_t *limit, int64_t *used);
static const char *check_memory(const struct options *o);
static const char *check_scratch(const struct options *o);
static void emit(const struct options *o, int64_t run, int64_t elapsed_ns, int64_t user_ns, int64_t sys_ns,
                 double resident, uint64_t checksum);
static void fail(const char *snippet, const char *text, int status);
static void fail_once(const struct options *o, const char *why, int status);
static void agree(const char *snippet, const char *error);
static void check_shared(const struct options *o);
static void gather_job(void);
static int claim(const char *path, struct made *made);
static void remove_made(void);
static void remove_quietly(const struct made *made);
static void on_signal(int sig);
static void on_sigbus(int sig);

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int64_t (*harness_clock)(void) = now_ns;

/* CPU time of the measuring thread, split into user and kernel (system-call) time. */
static int64_t timeval_ns(struct timeval t) {
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
    const char *error = harness_parse(snippet, way_strategies(ways), argc, argv, &o);
    if (!error && check) error = check(&o);
    if (!error) chosen = find_way(ways, &o, &error);
    chosen_frame = frame;
    if (!error) error = check_memory(&o);
    if (!error) error = check_scratch(&o);
    agree(snippet, error);
    int first = harness_team->rank() == 0; /* process 0 owns the file and the output */
    signal(SIGXFSZ, SIG_IGN); /* past `ulimit -f`, write() fails with EFBIG instead of killing us */
    /* A mapped page whose part of the file is gone (truncated by another program) faults with SIGBUS:
     * the same one line as a read that finds the file short (Java reports it as an InternalError). */
    snprintf(sigbus_message, sizeof sigbus_message, "%s: I/O error on %s: file ended early\n", snippet, o.file);
    signal(SIGBUS, on_sigbus);
    if (!o.keep) { /* every process removes the file on its way out if it fails or is stopped: a job ends as a whole */
        snprintf(created.path, sizeof created.path, "%s", o.file);
        atexit(remove_made);
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        signal(SIGHUP, on_signal);
        signal(SIGPIPE, on_signal); /* whoever reads our lines stopped (`| head -1`): the file goes too */
    }
    if (first && claim(o.file, &created) != 0) harness_io_fail(&o); /* new, never through a link: O_EXCL */
    if (first && strcmp(o.op, "read") == 0 && (o.text ? text_write_file(o.file, o.file_size, o.text, o.seed)
                                                      : data_write_file(o.file, o.file_size)) != 0) harness_io_fail(&o);
    if (harness_team->size() > 1) check_shared(&o);
    if (o.procs > 0) gather_job();
    int write = strcmp(o.op, "write") == 0;
    if (write) data_prepare_source(o.op_size);
    if (prepare) prepare(&o);
    uint64_t checked_use = 0, checksum = 0;
    if (!write) { /* the check run: harness_use sums everything it is handed, off the clock */
        checking = 1;
        unseen = 0;
        checked_use = run_way(&o);
        checksum = (uint64_t)harness_team->sum((int64_t)(checked_use + unseen));
        checking = 0;
    }
    for (int64_t run = -o.warmup; run < o.repeat; run++) {
        if (first && write) { /* the strategy makes the file anew (see Harness.run: ext4 flushes a file truncated to nothing on close) */
            if (unlink(o.file) != 0 && errno != ENOENT) harness_io_fail(&o);
            created.known = 0; /* the regular file there from now on is the strategy's */
        }
        double resident = -1; /* -1: not a cold run */
        if (first && !write && strcmp(o.cache, "cold") == 0) {
            if (harness_evict(o.file) != 0 || (resident = harness_resident_pct(o.file)) < 0) harness_io_fail(&o);
        }
        struct rusage before, after;
        getrusage(RUSAGE_THREAD, &before);
        harness_misses = -1;
        harness_operations_done = -1;
        workers_timed = 0;
        span_ns = -1;
        platform_threads = -1;
        tasks = io_workers = -1;
        memset(known_tasks, 0, sizeof known_tasks); /* a new run: names are read anew (an id may come back) */
        worker_user_ns = worker_sys_ns = 0;
        int64_t start = harness_clock();
        uint64_t used = run_way(&o);
        int64_t elapsed = harness_clock() - start;
        getrusage(RUSAGE_THREAD, &after);
        int64_t user = timeval_ns(after.ru_utime) - timeval_ns(before.ru_utime) + worker_user_ns;
        int64_t sys = timeval_ns(after.ru_stime) - timeval_ns(before.ru_stime) + worker_sys_ns;
        /* validation, after the clock: a read must have handed over what the check run did; a write's file is summed */
        if (!write && used != checked_use) {
            char why[64];
            snprintf(why, sizeof why, "run %" PRId64 " read other bytes than the check run", run);
            harness_io_fail_because(&o, why);
        }
        if (write && first) { /* the run's file is the one the strategy made */
            struct stat written;
            if (lstat(o.file, &written) != 0 || data_sum_file(o.file, &checksum) != 0) harness_io_fail(&o);
            created.dev = written.st_dev;
            created.ino = written.st_ino;
            created.known = 1;
        }
        if (run >= 0 && first) emit(&o, run, elapsed, user, sys, resident, checksum);
    }
    if (!o.keep && first) remove_made(); /* done: process 0 owns the file */
    created.path[0] = copy_source.path[0] = '\0';
    harness_team->end();
    return 0;
}

/* Every process checked its flags; all stop together when any found a fault (exit status 2), and the
 * lowest such process says why, so the message appears once. Alone, this is a plain usage error. */
static void agree(const char *snippet, const char *error) {
    int64_t first_faulty = harness_team->min(error ? harness_team->rank() : INT64_MAX);
    if (first_faulty == INT64_MAX) return;
    if (first_faulty == harness_team->rank()) fprintf(stderr, "%s: %s\n", snippet, error);
    harness_team->end();
    exit(2);
}

/* Process 0 makes the file; every other process must then see it where its own --file says, or the
 * scratch folder is not on a file system they all share (a node's own /tmp, say). */
static void check_shared(const struct options *o) {
    if (harness_team->rank() == 0) {
        int fd = open(o->file, O_WRONLY | O_CREAT, 0644);
        if (fd < 0 || close(fd) != 0) harness_io_fail(o);
    }
    harness_team->barrier();
    struct stat st;
    int64_t expected = strcmp(o->op, "read") == 0 ? o->file_size : 0;
    int seen = stat(o->file, &st) == 0 && st.st_size == expected;
    if (!seen) {
        snprintf(message, sizeof message, "--file %s: process %" PRId64 " (on %s) cannot see the file process 0 made; the scratch"
                 " folder must be on a file system every process shares (COURSE_SCRATCH)", o->file, harness_team->rank(), harness_team->host());
    }
    agree(o->snippet, seen ? NULL : message);
}

/* The CPUs this process may run on (Cpus_allowed_list in /proc/self/status: "0-3,8"), as CPU_WORDS 64-bit words: its
 * affinity, which a Slurm step's binding, an allocation's cpuset or a container's narrows. All of them where it cannot say. */
#define CPU_WORDS 16 /* 1024 CPUs */
static void allowed_cpus(uint64_t mask[CPU_WORDS]) {
    char *line = NULL; /* whole, however many CPUs it lists */
    size_t size = 0;
    memset(mask, 0, CPU_WORDS * sizeof *mask);
    FILE *status = fopen("/proc/self/status", "r");
    while (status && getline(&line, &size, status) > 0) {
        if (strncmp(line, "Cpus_allowed_list:", 18) != 0) continue;
        for (char *range = strtok(line + 18, ",\n"); range; range = strtok(NULL, ",\n")) {
            long first = strtol(range, &range, 10), last = *range == '-' ? strtol(range + 1, NULL, 10) : first;
            for (long c = first; c <= last && c < CPU_WORDS * 64; c++) mask[c / 64] |= 1ULL << (c % 64);
        }
    }
    if (status) fclose(status);
    free(line);
    int any = 0;
    for (int w = 0; w < CPU_WORDS; w++) any |= mask[w] != 0;
    if (!any) memset(mask, 0xff, CPU_WORDS * sizeof *mask);
}

/* A loopback address as /proc/net/tcp{,6} writes it (32-bit words in the host's order): 127.x.x.x, ::1 or ::ffff:127.x.x.x. */
static int loopback(const char *hex) {
    size_t n = strlen(hex);
    if (n == 8) return strcmp(hex + 6, "7F") == 0;
    return n == 32 && (strcmp(hex, "00000000000000000000000001000000") == 0 || (strncmp(hex + 16, "FFFF0000", 8) == 0 && strcmp(hex + 30, "7F") == 0));
}

/* The links this process holds to other nodes, from its open files (asked outside every clock): a TCP connection
 * between two addresses, neither of them loopback (one to a daemon of this node has one address at both ends), or a
 * network adapter's device: InfiniBand or RoCE verbs, Omni-Path (hfi1), Slingshot (cxi). Bits of LINK_KINDS. */
static int64_t node_links(void) {
    static char sockets[65536]; /* " inode inode … ": this process's sockets */
    int64_t links = 0;
    DIR *fds = opendir("/proc/self/fd");
    if (!fds) return 0;
    strcpy(sockets, " ");
    for (struct dirent *e; (e = readdir(fds));) {
        char path[300], target[256];
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = '\0';
        if (strncmp(target, "socket:[", 8) == 0 && strlen(sockets) + strlen(target) < sizeof sockets)
            snprintf(sockets + strlen(sockets), sizeof sockets - strlen(sockets), "%.*s ", (int)(strlen(target) - 9), target + 8);
        if (strncmp(target, "/dev/infiniband/uverbs", 22) == 0) links |= 2;
        if (strncmp(target, "/dev/hfi1", 9) == 0) links |= 4;
        if (strncmp(target, "/dev/cxi", 8) == 0) links |= 8;
    }
    closedir(fds);
    static const char *const tables[] = {"/proc/self/net/tcp", "/proc/self/net/tcp6"};
    for (int t = 0; t < 2; t++) {
        FILE *table = fopen(tables[t], "r");
        if (!table) continue;
        char line[512], local[64], remote[64], state[8], inode[32];
        while (fgets(line, sizeof line, table)) { /* sl local:port remote:port st tx:rx tr:when retrnsmt uid timeout inode */
            if (sscanf(line, " %*s %63[0-9A-Fa-f]:%*s %63[0-9A-Fa-f]:%*s %7s %*s %*s %*s %*s %*s %31s", local, remote, state, inode) != 4) continue;
            char needle[40];
            snprintf(needle, sizeof needle, " %s ", inode);
            if (strcmp(state, "01") == 0 && strcmp(local, remote) != 0 && !loopback(remote) && strstr(sockets, needle)) links |= 1; /* 01: established */
        }
        fclose(table);
    }
    return links;
}

/* Adds to job what format says, never past its end. */
static void job_add(const char *format, ...) {
    size_t n = strlen(job);
    va_list args;
    va_start(args, format);
    vsnprintf(job + n, sizeof job - n, format, args);
    va_end(args);
}

/* Where the job's processes ran (at process 0; see job): each process's host name, the CPUs it may run on and its
 * links travel through gather, the one collective every team has in both languages (a name as HOST_WORDS 8-byte
 * words, the CPUs as CPU_WORDS); a host's cores are the CPUs any of its processes may run on. */
static void gather_job(void) {
    static int64_t words[HOST_WORDS][MAX_PROCS], cpus[CPU_WORDS][MAX_PROCS], links[MAX_PROCS];
    static char names[MAX_PROCS][HOST_WORDS * 8 + 1];
    static uint64_t host_cpus[MAX_PROCS][CPU_WORDS];
    unsigned char name[HOST_WORDS * 8] = {0}; /* zero-padded */
    const char *host = harness_team->host();
    memcpy(name, host, strnlen(host, sizeof name)); /* a longer name is cut at 64 bytes */
    for (int w = 0; w < HOST_WORDS; w++) {
        int64_t word = 0;
        for (int b = 0; b < 8; b++) word = (int64_t)((uint64_t)word << 8 | name[w * 8 + b]); /* big-endian, as Java's ByteBuffer */
        harness_team->gather(word, words[w]);
    }
    uint64_t mine[CPU_WORDS];
    allowed_cpus(mine);
    int64_t used = CPU_WORDS; /* the words any process needs (one on a machine of up to 64 CPUs): each collective costs */
    while (used > 1 && mine[used - 1] == 0) used--;
    used = -harness_team->min(-used);
    for (int w = 0; w < used; w++) harness_team->gather((int64_t)mine[w], cpus[w]);
    harness_team->gather(node_links(), links); /* after the gathers above, whose messages made the job's connections */
    if (harness_team->rank() != 0) return;
    int64_t hosts = 0, procs[MAX_PROCS] = {0}, linked = 0;
    memset(host_cpus, 0, sizeof host_cpus);
    for (int64_t rank = 0; rank < harness_team->size(); rank++) {
        char seen[HOST_WORDS * 8 + 1];
        for (int w = 0; w < HOST_WORDS; w++)
            for (int b = 0; b < 8; b++) seen[w * 8 + b] = (char)((uint64_t)words[w][rank] >> (56 - 8 * b));
        seen[HOST_WORDS * 8] = '\0';
        int64_t h = 0;
        while (h < hosts && strcmp(names[h], seen) != 0) h++;
        if (h == hosts) strcpy(names[hosts++], seen);
        procs[h]++;
        for (int w = 0; w < used; w++) host_cpus[h][w] |= (uint64_t)cpus[w][rank];
        linked |= links[rank];
    }
    job[0] = '\0';
    for (int64_t h = 0; h < hosts; h++) job_add(h ? ",\"%s\"" : "\"hosts\":[\"%s\"", names[h]);
    for (int64_t h = 0; h < hosts; h++) job_add(h ? ",%" PRId64 : "],\"host_procs\":[%" PRId64, procs[h]);
    for (int64_t h = 0; h < hosts; h++) {
        int64_t cores = 0;
        for (int w = 0; w < CPU_WORDS; w++) cores += __builtin_popcountll(host_cpus[h][w]);
        job_add(h ? ",%" PRId64 : "],\"host_cores\":[%" PRId64, cores);
    }
    job_add("],");
    if (hosts < 2) return;
    job_add("\"transport\":[");
    for (int k = 0, any = 0; k < 4; k++)
        if (linked >> k & 1) job_add(any++ ? ",\"%s\"" : "\"%s\"", LINK_KINDS[k]);
    job_add("],");
}

/* ---- what a read brings in ------------------------------------------------------------------ */

uint64_t harness_use(const unsigned char *buf, size_t n) {
    if (n == 0) return 0;
    uint64_t last = buf[n - 1];
    if (checking) unseen += data_sum(buf, n) - last;
    return last;
}

/* size bytes starting on a page boundary, or NULL (see harness_buffer). */
static void *page_aligned(size_t size) {
    void *memory = NULL;
    return posix_memalign(&memory, 4096, size ? size : 1) == 0 ? memory : NULL;
}

void *harness_buffer(const struct options *o, size_t size) {
    void *memory = page_aligned(size);
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

/* ---- threads ------------------------------------------------------------------------------- */

/* Whether the task named tid in the folder dir (/proc/self/task) is one of io_uring's io-wq workers, which the
 * kernel names iou-wrk-<tid of the thread whose requests it serves>. At the gate (at_gate: 1) no worker has made a
 * request yet, and an io-wq worker serves one thread's requests and ends before that thread does: the tasks there
 * are known as none, their names unread. A task that comes later has its name read at each look until it is an
 * io-wq worker's, then known: an io-wq worker names itself only when it first runs, and until then bears the name
 * of the thread that made it, for milliseconds on a busy machine. Such later tasks are few (C makes none; the JVM
 * adds compiler and GC threads and carriers). A task gone since the folder was listed counts as no io-wq worker. */
static int io_worker(int dir, const char *tid, int at_gate) {
    long id = strtol(tid, NULL, 10);
    size_t slot = (size_t)id & (TASKS_KNOWN - 1), probes = 0;
    while (known_tasks[slot].tid != 0 && known_tasks[slot].tid != id && ++probes < TASKS_KNOWN) slot = (slot + 1) & (TASKS_KNOWN - 1);
    int kept = probes < TASKS_KNOWN; /* a full table: read the name every time */
    if (kept && known_tasks[slot].tid == id) return known_tasks[slot].io;
    int io = 0;
    if (!at_gate) {
        char path[64], name[16];
        snprintf(path, sizeof path, "%ld/comm", id);
        int fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
        ssize_t got = fd < 0 ? -1 : read(fd, name, sizeof name);
        if (fd >= 0) close(fd);
        io = got >= 7 && memcmp(name, "iou-wrk", 7) == 0;
    }
    if (kept && (at_gate || io)) {
        known_tasks[slot].tid = (int32_t)id;
        known_tasks[slot].io = (int8_t)io;
    }
    return io;
}

/* One look at the process's tasks (dir: /proc/self/task, a folder per task named by its id): raises the run's most
 * tasks at once and most io-wq workers at once. The look is a pass over the folder (opendir/readdir; names are read
 * only for tasks not yet known, see io_worker): about 10 µs for a few tasks, 30 µs for 65 and 100 µs for 257 on a
 * 2-core virtual machine. Returns what the look took (ns). */
static int64_t sample_tasks(const char *dir, int at_gate) {
    int64_t start = now_ns(), all = 0, io = 0;
    DIR *listing = opendir(dir);
    if (!listing) return now_ns() - start; /* no /proc: nothing counted, and the record says nothing */
    for (struct dirent *e; (e = readdir(listing)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        all++;
        io += io_worker(dirfd(listing), e->d_name, at_gate);
    }
    closedir(listing);
    if (all > tasks) tasks = all;
    if (io > io_workers) io_workers = io;
    return now_ns() - start;
}

/* The gap between two looks at the tasks: a millisecond, or 20 times what the cheaper of the last two looks took (with
 * hundreds of tasks), so that looking takes at most 5% of the measuring thread, which would otherwise only wait; one
 * slow look (the thread preempted, or in Java a look not yet compiled) does not put off the next. */
static int64_t sample_gap(int64_t took, int64_t before) {
    int64_t cheaper = took < before ? took : before;
    return cheaper * 20 > 1000000 ? cheaper * 20 : 1000000;
}

struct worker {
    pthread_t id;
    const struct options *o;
    part_fn part;
    int64_t thread, start, end, user_ns, sys_ns;
};

/* The gate the workers start behind, which the measuring thread opens (it is one of its parties), and the count of
 * workers on their way to it: each worker posts one before it waits at the gate. */
static pthread_barrier_t gate;
static sem_t arrived;

static void *work(void *arg) {
    struct worker *w = arg;
    sem_post(&arrived);
    pthread_barrier_wait(&gate);
    struct rusage before, after;
    getrusage(RUSAGE_THREAD, &before);
    w->start = now_ns();
    w->part(w->o, w->thread);
    w->end = now_ns();
    getrusage(RUSAGE_THREAD, &after);
    w->user_ns = timeval_ns(after.ru_utime) - timeval_ns(before.ru_utime);
    w->sys_ns = timeval_ns(after.ru_stime) - timeval_ns(before.ru_stime);
    return NULL;
}

/* Opens the gate once every worker is at it, and waits for them all to end, looking at the process's tasks
 * (sample_tasks) while they run: once while every worker is alive at the gate (so even a run shorter than a look
 * counts them all), then about every millisecond until the last has ended. The measuring thread looks, in the time it
 * would only wait: no thread is added to count (none to subtract), none is started or stopped, and it is a task of
 * the process's and counted. Its looks are in its CPU time (user_ns, sys_ns): a few percent of its time at most. */
static void watch_workers(struct worker *workers, int64_t n) {
    for (int64_t t = 0; t < n; t++) {
        while (sem_wait(&arrived) != 0) { /* EINTR: a signal; wait on */
        }
    }
    int64_t took = sample_tasks("/proc/self/task", 1), before = took, next = now_ns() + sample_gap(took, before);
    pthread_barrier_wait(&gate);
    for (int64_t t = 0; t < n; t++) {
        for (;;) {
            int64_t left = next - now_ns();
            if (left <= 0) {
                before = took;
                took = sample_tasks("/proc/self/task", 0);
                next = now_ns() + sample_gap(took, before);
                continue;
            }
            struct timespec until; /* pthread_timedjoin_np waits until a time of CLOCK_REALTIME's */
            clock_gettime(CLOCK_REALTIME, &until);
            int64_t ns = until.tv_nsec + left;
            until.tv_sec += (time_t)(ns / 1000000000);
            until.tv_nsec = (long)(ns % 1000000000);
            if (pthread_timedjoin_np(workers[t].id, NULL, &until) != ETIMEDOUT) break;
        }
    }
}

void harness_in_threads(const struct options *o, part_fn part) {
    static struct worker workers[MAX_THREADS];
    pthread_barrier_init(&gate, NULL, (unsigned)o->threads + 1);
    sem_init(&arrived, 0, 0);
    for (int64_t t = 0; t < o->threads; t++) {
        workers[t] = (struct worker){.o = o, .part = part, .thread = t};
        if ((errno = pthread_create(&workers[t].id, NULL, work, &workers[t])) != 0) harness_io_fail_because(o, strerror(errno));
    }
    platform_threads = o->threads + 1; /* its workers and this thread: C makes no others (Java counts, its JDK does) */
    watch_workers(workers, o->threads);
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (int64_t t = 0; t < o->threads; t++) {
        worker_ns[t] = workers[t].end - workers[t].start;
        worker_user_ns += workers[t].user_ns;
        worker_sys_ns += workers[t].sys_ns;
        if (workers[t].start < first) first = workers[t].start;
        if (workers[t].end > last) last = workers[t].end;
    }
    pthread_barrier_destroy(&gate);
    sem_destroy(&arrived);
    workers_timed = o->threads;
    span_ns = last - first;
}

void harness_in_processes(const struct options *o, part_fn part) {
    harness_team->barrier();
    struct rusage before, after;
    getrusage(RUSAGE_THREAD, &before);
    int64_t start = now_ns();
    part(o, harness_team->rank());
    int64_t own = now_ns() - start;
    getrusage(RUSAGE_THREAD, &after);
    int64_t user = timeval_ns(after.ru_utime) - timeval_ns(before.ru_utime);
    int64_t sys = timeval_ns(after.ru_stime) - timeval_ns(before.ru_stime);
    harness_team->barrier();
    span_ns = -harness_team->min(start - now_ns()); /* the maximum, through MPI_MIN */
    harness_team->gather(own, worker_ns);
    workers_timed = harness_team->size();
    worker_user_ns += harness_team->sum(user) - user; /* this process's own CPU time is counted already */
    worker_sys_ns += harness_team->sum(sys) - sys;
}

void harness_share(const struct options *o, int64_t i, int64_t *from, int64_t *to) {
    int64_t blocks = (o->file_size + o->op_size - 1) / o->op_size;
    *from = blocks * i / harness_workers(o) * o->op_size;
    *to = blocks * (i + 1) / harness_workers(o) * o->op_size;
    if (*to > o->file_size) *to = o->file_size;
}

/* ---- flags ---------------------------------------------------------------------------------- */

static int contains(const char *const *list, const char *value) {
    for (; *list; list++)
        if (strcmp(*list, value) == 0) return 1;
    return 0;
}

/* Appends to the error message, never past its end however long the arguments are. */
static size_t append(size_t n, const char *format, const char *text) {
    if (n >= sizeof message) return n;
    int added = snprintf(message + n, sizeof message - n, format, text);
    return added < 0 ? n : n + (size_t)added;
}

/* Whether s is UTF-8 as Java decodes it (no overlong forms, no surrogates, nothing past U+10FFFF). */
static int valid_utf8(const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int more = *p < 0x80 ? 0 : *p >= 0xC2 && *p <= 0xDF ? 1 : *p >= 0xE0 && *p <= 0xEF ? 2 : *p >= 0xF0 && *p <= 0xF4 ? 3 : -1;
        if (more < 0) return 0;
        unsigned char low = *p == 0xE0 ? 0xA0 : *p == 0xF0 ? 0x90 : 0x80, high = *p == 0xED ? 0x9F : *p == 0xF4 ? 0x8F : 0xBF;
        for (int i = 1; i <= more; i++) {
            if (p[i] < (i == 1 ? low : 0x80) || p[i] > (i == 1 ? high : 0xBF)) return 0;
        }
        p += more + 1;
    }
    return 1;
}

/* Every flag of the protocol, in one table: its kind, its default as one would type it (NULL: none), the
 * range of a size or a count, the values a choice allows (NULL for --strategy: the snippet's own), the
 * snippets that take it (NULL: every snippet; any other refuses it by name) and where its value goes.
 * Java's Harness.FLAGS is the same table, row for row (tests/test_mirror.py). */
enum flag_kind { CHOICE, SIZE, COUNT, PATH, SWITCH };
struct flag {
    const char *name;
    enum flag_kind kind;
    const char *fallback;
    int64_t min, max;
    const char *const *allowed;
    const char *const *used_by;
    size_t at;
};
#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})
static const struct flag flags[] = {
    {"--strategy", CHOICE, NULL, 0, 0, NULL, NULL, offsetof(struct options, strategy)},
    {"--op", CHOICE, "read", 0, 0, LIST("read", "write"), NULL, offsetof(struct options, op)},
    {"--pattern", CHOICE, "seq", 0, 0, LIST("seq", "rand"), NULL, offsetof(struct options, pattern)},
    {"--cache", CHOICE, "warm", 0, 0, LIST("warm", "cold"), NULL, offsetof(struct options, cache)},
    {"--file-size", SIZE, "1m", 1, MAX_FILE_SIZE, NULL, NULL, offsetof(struct options, file_size)},
    {"--op-size", SIZE, "1", 1, MAX_OP_SIZE, NULL, NULL, offsetof(struct options, op_size)},
    {"--repeat", COUNT, "3", 1, 1000, NULL, NULL, offsetof(struct options, repeat)},
    {"--warmup", COUNT, "1", 0, 100, NULL, NULL, offsetof(struct options, warmup)},
    {"--seed", COUNT, "42", 0, INT64_MAX, NULL, NULL, offsetof(struct options, seed)},
    {"--file", PATH, NULL, 0, 0, NULL, NULL, offsetof(struct options, file)},
    {"--keep", SWITCH, NULL, 0, 0, NULL, NULL, offsetof(struct options, keep)},
    {"--buffer-size", SIZE, NULL, 1, MAX_BUFFER_SIZE, NULL, LIST("buffering", "jni_ops", "text_lines", "typed_arrays"),
     offsetof(struct options, buffer_size)},
    {"--text", CHOICE, "lf", 0, 0, LIST("lf", "crlf", "cr", "mixed", "utf8"), LIST("text_lines"), offsetof(struct options, text)},
    {"--type", CHOICE, "int", 0, 0, LIST("int", "double"), LIST("typed_arrays", "typed_ffm"), offsetof(struct options, type)},
    {"--threads", COUNT, "1", 1, MAX_THREADS, NULL, LIST("shared_file", "small_reads"), offsetof(struct options, threads)},
    {"--depth", COUNT, "1", 1, MAX_DEPTH, NULL, LIST("small_reads"), offsetof(struct options, depth)},
    {"--procs", COUNT, "1", 1, MAX_PROCS, NULL, LIST("mpi_file"), offsetof(struct options, procs)},
    {"--lock", CHOICE, "none", 0, 0, LIST("none", "region"), LIST("shared_file", "mpi_file"), offsetof(struct options, lock)},
};
#define FLAGS (sizeof flags / sizeof flags[0])

static int taken_by(const struct flag *f, const char *snippet) {
    return !f->used_by || contains(f->used_by, snippet);
}

/* Puts a flag's value where it goes, or says why it cannot (Java's take returns it). */
static const char *take(const struct flag *f, const char *value, const char *const *strategies, struct options *o) {
    void *at = (char *)o + f->at;
    switch (f->kind) {
        case CHOICE: return one_of(f->name, value, f->allowed ? f->allowed : strategies, (const char **)at);
        case SIZE: return harness_parse_size(f->name, value, f->min, f->max, (int64_t *)at);
        case COUNT: return count(f->name, value, f->min, f->max, (int64_t *)at);
        case PATH: *(const char **)at = value; return NULL;
        case SWITCH: *(int *)at = 1; return NULL;
    }
    return NULL;
}

const char *harness_parse(const char *snippet, const char *const *strategies, int argc, char **argv, struct options *o) {
    static char name[PATH_MAX]; /* the flag half of a --flag=value; the value stays in argv */
    *o = (struct options){.snippet = snippet, .strategy = strategies[0]}; /* a flag the snippet does not take stays 0 or NULL */
    for (size_t k = 0; k < FLAGS; k++) {
        if (taken_by(&flags[k], snippet) && flags[k].fallback) take(&flags[k], flags[k].fallback, strategies, o);
    }
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i], *value = NULL;
        const char *eq = strchr(flag, '=');
        if (strncmp(flag, "--", 2) == 0 && eq && (size_t)(eq - flag) < sizeof name) {
            snprintf(name, sizeof name, "%.*s", (int)(eq - flag), flag);
            flag = name;
            value = eq + 1;
        }
        if (strncmp(flag, "--", 2) != 0) {
            snprintf(message, sizeof message, "unexpected argument '%s' (flags start with --)", flag);
            return message;
        }
        const struct flag *f = NULL;
        for (size_t k = 0; k < FLAGS && !f; k++) {
            if (strcmp(flags[k].name, flag) == 0) f = &flags[k];
        }
        if (!f) {
            size_t n = append(0, "unknown flag %s (allowed:", flag);
            for (size_t k = 0; k < FLAGS; k++) {
                if (taken_by(&flags[k], snippet)) n = append(n, " %s", flags[k].name);
            }
            append(n, "%s", ")");
            return message;
        }
        if (!taken_by(f, snippet)) {
            snprintf(message, sizeof message, "%s is not used by %s", flag, snippet);
            return message;
        }
        if (f->kind == SWITCH && value) {
            snprintf(message, sizeof message, "%s takes no value", flag);
            return message;
        }
        if (f->kind != SWITCH && !value && i + 1 >= argc) {
            snprintf(message, sizeof message, "%s needs a value", flag);
            return message;
        }
        if (f->kind != SWITCH && !value) value = argv[++i];
        const char *error = take(f, value, strategies, o);
        if (error) return error;
    }
    if (o->op_size > o->file_size) {
        snprintf(message, sizeof message, "--op-size %" PRId64 " is larger than --file-size %" PRId64
                 " (an operation must fit in the file)", o->op_size, o->file_size);
        return message;
    }
    int64_t blocks = (o->file_size + o->op_size - 1) / o->op_size;
    if (harness_workers(o) > blocks) { /* a snippet runs threads or processes, never both */
        char size[32];
        snprintf(message, sizeof message, "%s %" PRId64 " is more than the file's %" PRId64 " blocks of --op-size %s"
                 " (each %s needs at least one block of its own)", o->procs > 0 ? "--procs" : "--threads", harness_workers(o),
                 blocks, human(o->op_size, size, sizeof size), o->procs > 0 ? "process" : "thread");
        return message;
    }
    if (o->procs > 0 && o->procs != harness_team->size()) {
        snprintf(message, sizeof message, "--procs %" PRId64 ", but mpirun started %" PRId64 " process%s (start it with mpirun -np %" PRId64 ")",
                 o->procs, harness_team->size(), harness_team->size() == 1 ? "" : "es", o->procs);
        return message;
    }
    if (!o->file) {
        /* one name for the whole team: process 0's id, known to all (each process's own would give each its own file) */
        int64_t owner = harness_team->sum(harness_team->rank() == 0 ? (int64_t)getpid() : 0);
        snprintf(default_file, sizeof default_file, "%s/%s-%" PRId64 ".dat", default_scratch(), snippet, owner);
        o->file = default_file;
    }
    if (strlen(o->file) >= PATH_MAX) { /* refused whole: a path cut short could name another file */
        snprintf(message, sizeof message, "--file: a path of %zu bytes is too long (at most %d)", strlen(o->file), PATH_MAX - 1);
        return message;
    }
    if (!valid_utf8(o->file)) {
        snprintf(message, sizeof message, "--file %s is not valid UTF-8 (both languages take UTF-8 file names: Java can open no other)", o->file);
        return message;
    }
    return NULL;
}

const char *harness_check_operation_fits_buffer(const struct options *o) {
    if (o->buffer_size > 0 && o->op_size > o->buffer_size) {
        snprintf(message, sizeof message, "--op-size %" PRId64 " is larger than --buffer-size %" PRId64
                 " (an operation must fit in the buffer)", o->op_size, o->buffer_size);
        return message;
    }
    if (o->buffer_size > 0 && o->buffer_size % o->op_size != 0) {
        snprintf(message, sizeof message, "--buffer-size %" PRId64 " is not a multiple of --op-size %" PRId64
                 " (an operation must never straddle two buffer fills)", o->buffer_size, o->op_size);
        return message;
    }
    return NULL;
}

const char *harness_check_int_shares(const struct options *o, int maps) {
    int processes = o->procs > 0;
    if (o->op_size % 4 != 0 || o->file_size % 4 != 0) {
        snprintf(message, sizeof message, "--op-size %" PRId64 " and --file-size %" PRId64 " must be multiples of 4 (whole ints)",
                 o->op_size, o->file_size);
        return message;
    }
    if (strcmp(o->pattern, "rand") == 0) {
        snprintf(message, sizeof message, "--pattern rand: each %s moves its share in order (allowed: seq)", processes ? "process" : "thread");
        return message;
    }
    int64_t mappable = harness_available_memory() / 2;
    if (maps && o->file_size > mappable) {
        snprintf(message, sizeof message, "--file-size %" PRId64 ": too large to map here (at most %" PRId64 "m, half of the memory"
                 " free now; use a smaller file or a strategy that does not map)", o->file_size, mappable >> 20);
        return message;
    }
    int64_t blocks = (o->file_size + o->op_size - 1) / o->op_size;
    int64_t held = processes ? (blocks + o->procs - 1) / o->procs * o->op_size : o->file_size;
    if (held > harness_memory_limit()) {
        snprintf(message, sizeof message, "--file-size %" PRId64 ": %s would not fit (at most %" PRId64 "m, half of a quarter of"
                 " RAM or of ulimit -v)", o->file_size, processes ? "a process's share of the array" : "the shared array",
                 harness_memory_limit() >> 20);
        return message;
    }
    return NULL;
}

void harness_lock_share(const struct options *o, int fd, int64_t from, int64_t to, short type) {
    struct flock region = {.l_type = type, .l_whence = SEEK_SET, .l_start = from, .l_len = to - from};
    if (strcmp(o->lock, "region") == 0 && fcntl(fd, F_SETLKW, &region) != 0) harness_io_fail(o);
}

static const char *one_of(const char *flag, const char *value, const char *const *allowed, const char **out) {
    if (contains(allowed, value)) {
        *out = value;
        return NULL;
    }
    size_t n = append(append(0, "%s ", flag), "%s: must be one of ", value);
    for (const char *const *a = allowed; *a; a++) n = append(n, a == allowed ? "%s" : ", %s", *a);
    return message;
}

/* A size in bytes: digits with an optional k, m or g suffix (powers of 1024). */
const char *harness_parse_size(const char *flag, const char *value, int64_t min, int64_t max, int64_t *out) {
    size_t len = strlen(value), digits = len;
    int shift = 0;
    if (len > 0) {
        switch (value[len - 1]) {
            case 'k': case 'K': shift = 10; break;
            case 'm': case 'M': shift = 20; break;
            case 'g': case 'G': shift = 30; break;
        }
    }
    if (shift) digits--;
    int ok = digits >= 1 && digits <= 12;
    for (size_t i = 0; ok && i < digits; i++) ok = value[i] >= '0' && value[i] <= '9';
    if (!ok) {
        snprintf(message, sizeof message, "%s %s: not a size (use a whole number with an optional k, m or g "
                 "suffix, e.g. 4k, 16m, 1g)", flag, value);
        return message;
    }
    int64_t number = strtoll(value, NULL, 10);
    int64_t bytes = number > (INT64_MAX >> shift) ? INT64_MAX : number << shift;
    if (bytes < min || bytes > max) {
        char lo[32], hi[32];
        snprintf(message, sizeof message, "%s %s: must be between %s and %s", flag, value,
                 human(min, lo, sizeof lo), human(max, hi, sizeof hi));
        return message;
    }
    *out = bytes;
    return NULL;
}

static const char *count(const char *flag, const char *value, int64_t min, int64_t max, int64_t *out) {
    size_t len = strlen(value);
    int ok = len >= 1 && len <= 19 && !(len == 19 && strcmp(value, "9223372036854775807") > 0);
    for (size_t i = 0; ok && i < len; i++) ok = value[i] >= '0' && value[i] <= '9';
    if (ok) *out = strtoll(value, NULL, 10);
    if (!ok || *out < min || *out > max) {
        snprintf(message, sizeof message, "%s %s: must be a whole number between %" PRId64 " and %" PRId64,
                 flag, value, min, max);
        return message;
    }
    return NULL;
}

static const char *human(int64_t bytes, char *out, size_t cap) {
    if (bytes >= (INT64_C(1) << 30) && bytes % (INT64_C(1) << 30) == 0) snprintf(out, cap, "%" PRId64 "g", bytes >> 30);
    else if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) snprintf(out, cap, "%" PRId64 "m", bytes >> 20);
    else if (bytes >= (1 << 10) && bytes % (1 << 10) == 0) snprintf(out, cap, "%" PRId64 "k", bytes >> 10);
    else snprintf(out, cap, "%" PRId64, bytes);
    return out;
}

/* ---- memory and scratch space -------------------------------------------------------------------------- */

static const char *default_scratch(void) {
    const char *dir = getenv("COURSE_SCRATCH");
    return dir && *dir ? dir : ".";
}

/* Half of a quarter of RAM, or of a container's memory limit (the JVM's default heap limit; Java takes
 * half of its heap), and half of the address space `ulimit -v` allows. */
int64_t harness_memory_limit(void) {
    int64_t limit = (int64_t)sysconf(_SC_PHYS_PAGES) * (int64_t)sysconf(_SC_PAGESIZE), container, used;
    if (container_memory(&container, &used) && container < limit) limit = container;
    limit /= 4;
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY && (int64_t)as.rlim_cur < limit)
        limit = (int64_t)as.rlim_cur;
    return limit / 2;
}

int64_t harness_available_memory(void) {
    FILE *meminfo = fopen("/proc/meminfo", "r");
    char line[256];
    long long kb;
    int64_t available = INT64_MAX;
    while (meminfo && fgets(line, sizeof line, meminfo)) {
        if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) available = (int64_t)kb << 10;
    }
    if (meminfo) fclose(meminfo);
    int64_t limit, used;
    if (container_memory(&limit, &used) && limit - used < available) available = limit > used ? limit - used : 0;
    return available;
}

/* The limit and use of this process's cgroup (v2 memory.max and memory.current, else v1's
 * memory.limit_in_bytes and memory.usage_in_bytes); 0 where no limit is set (Java: containerMemory). */
static int container_memory(int64_t *limit, int64_t *used) {
    FILE *self = fopen("/proc/self/cgroup", "r");
    char line[PATH_MAX], dir[PATH_MAX + 64], path[PATH_MAX + 96];
    int found = 0;
    while (self && !found && fgets(line, sizeof line, self)) {
        char *controllers = strchr(line, ':'), *where = controllers ? strchr(controllers + 1, ':') : NULL;
        if (!where) continue;
        *where++ = '\0';
        where[strcspn(where, "\n")] = '\0';
        controllers++;
        int v2 = *controllers == '\0', v1 = 0;
        for (char *c = strtok(controllers, ","); c && !v2; c = strtok(NULL, ",")) v1 |= strcmp(c, "memory") == 0;
        if (!v1 && !v2) continue;
        snprintf(dir, sizeof dir, "%s%s", v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", where);
        char text[64] = "";
        snprintf(path, sizeof path, "%s/%s", dir, v2 ? "memory.max" : "memory.limit_in_bytes");
        FILE *f = fopen(path, "r");
        int read_limit = f && fgets(text, sizeof text, f) != NULL;
        if (f) fclose(f);
        long long value;
        if (!read_limit || sscanf(text, "%lld", &value) != 1 || value >= (INT64_C(1) << 62)) continue; /* "max", or v1's huge "none" */
        snprintf(path, sizeof path, "%s/%s", dir, v2 ? "memory.current" : "memory.usage_in_bytes");
        f = fopen(path, "r");
        long long in_use;
        if (f && fscanf(f, "%lld", &in_use) == 1) {
            *limit = value;
            *used = in_use;
            found = 1;
        }
        if (f) fclose(f);
    }
    if (self) fclose(self);
    return found;
}

/* A buffer, and an operation's array, may each take at most harness_memory_limit() (as in Java, where past it an
 * OutOfMemoryError would end the run). */
static const char *check_memory(const struct options *o) {
    int64_t limit = harness_memory_limit();
    const struct { const char *flag; int64_t bytes; } buffers[] = {{"--buffer-size", o->buffer_size}, {"--op-size", o->op_size}};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++) {
        if (buffers[i].bytes > limit) {
            char size[32];
            snprintf(message, sizeof message, "%s %s: larger than memory allows here (at most %" PRId64
                     "m, half of a quarter of RAM or of ulimit -v)", buffers[i].flag, human(buffers[i].bytes, size, sizeof size), limit >> 20);
            return message;
        }
    }
    return NULL;
}

/* The file must be new (the harness removes what it creates; a link, even to nowhere, counts as there)
 * and its folder must have room. */
static const char *check_scratch(const struct options *o) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", o->file);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(message, sizeof message, "scratch folder %s does not exist", dir);
        return message;
    }
    if (access(dir, W_OK) != 0) {
        snprintf(message, sizeof message, "scratch folder %s is not writable", dir);
        return message;
    }
    struct stat existing;
    if (lstat(o->file, &existing) == 0) {
        snprintf(message, sizeof message, "--file %s already exists (the harness only writes files it creates)", o->file);
        return message;
    }
    int64_t margin = DEFAULT_MARGIN;
    const char *margin_text = getenv("COURSE_SCRATCH_MARGIN");
    if (margin_text && *margin_text) {  /* set but empty counts as unset, as a shell's `COURSE_SCRATCH_MARGIN= make lab` means */
        const char *error = harness_parse_size("COURSE_SCRATCH_MARGIN", margin_text, 0, MAX_MARGIN, &margin);
        if (error) return error;
    }
    struct statvfs fs;
    if (statvfs(dir, &fs) != 0) {
        snprintf(message, sizeof message, "cannot read the free space of %s: %s", dir, strerror(errno));
        return message;
    }
    int64_t free_bytes = (int64_t)fs.f_bavail * (int64_t)fs.f_frsize;
    if (o->file_size + margin > free_bytes) {
        char need[32], extra[32];
        snprintf(message, sizeof message, "not enough free space in %s: the run needs %s plus a margin of %s, "
                 "but only %" PRId64 " bytes are free", dir, human(o->file_size, need, sizeof need),
                 human(margin, extra, sizeof extra), free_bytes);
        return message;
    }
    return NULL;
}

int harness_evict(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    int status = fsync(fd) == 0 && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 ? 0 : -1;
    close(fd);
    return status;
}

double harness_resident_pct(const char *path) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0) return -1;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return -1;
    }
    if (st.st_size == 0) {
        close(fd);
        return 0;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = ((size_t)st.st_size + page - 1) / page;
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    unsigned char *in_core = malloc(pages);
    int ok = map != MAP_FAILED && in_core && mincore(map, (size_t)st.st_size, in_core) == 0;
    size_t resident = 0;
    for (size_t i = 0; ok && i < pages; i++) resident += in_core[i] & 1;
    if (map != MAP_FAILED) munmap(map, (size_t)st.st_size);
    free(in_core);
    return ok ? 100.0 * (double)resident / (double)pages : -1;
}

const char *harness_source(const struct options *o) {
    static char path[PATH_MAX + sizeof SOURCE_SUFFIX];
    snprintf(path, sizeof path, "%s" SOURCE_SUFFIX, o->file);
    return path;
}

void harness_write_source(const struct options *o) {
    const char *path = harness_source(o);
    if (claim(path, &copy_source) != 0) harness_io_fail(o);
    if (!o->keep) snprintf(copy_source.path, sizeof copy_source.path, "%s", path); /* ours now: it goes on every way out */
    if (data_write_file(path, o->file_size) != 0) harness_io_fail(o);
}

/* Makes the file, empty, where none was (O_EXCL: not through a link either), and remembers which it is. */
static int claim(const char *path, struct made *made) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    struct stat st;
    if (fd < 0) return -1;
    int ok = fstat(fd, &st) == 0;
    if (close(fd) != 0 || !ok) return -1;
    made->dev = st.st_dev;
    made->ino = st.st_ino;
    made->known = 1;
    return 0;
}

/* Removes what the run made: its file and, where it made one, a copy's source (safe in a signal handler). */
static void remove_made(void) {
    remove_quietly(&created);
    remove_quietly(&copy_source);
}

/* Removes a file: a regular one, and the very one this process made when it made one (lstat and unlink
 * are safe in a signal handler). */
static void remove_quietly(const struct made *made) {
    struct stat st;
    if (!made->path[0] || lstat(made->path, &st) != 0 || !S_ISREG(st.st_mode)) return;
    if (made->known && (st.st_dev != made->dev || st.st_ino != made->ino)) return;
    unlink(made->path);
}

static void on_signal(int sig) {
    remove_made();
    _exit(128 + sig);
}

static void on_sigbus(int sig) {
    (void)sig;
    ssize_t ignored = write(STDERR_FILENO, sigbus_message, strlen(sigbus_message));
    (void)ignored;
    remove_made();
    _exit(1);
}

/* ---- output --------------------------------------------------------------------------------- */

/* One run record, the line data/results.schema.json defines (the kit checks every line against it).
 * resident: percent of the file in the page cache when a cold run's clock started; -1 (null) for warm runs and writes. */
static void emit(const struct options *o, int64_t run, int64_t elapsed_ns, int64_t user_ns, int64_t sys_ns,
                 double resident, uint64_t checksum) {
    char resident_text[16] = "null", misses[24] = "null", text[160 + sizeof job] = "", times[24 * (MAX_THREADS > MAX_PROCS ? MAX_THREADS : MAX_PROCS) + 160] = "";
    if (o->text) snprintf(text, sizeof text, "\"text\":\"%s\",", o->text);
    if (o->type) snprintf(text + strlen(text), sizeof text - strlen(text), "\"type\":\"%s\",", o->type);
    if (o->procs > 0) snprintf(text + strlen(text), sizeof text - strlen(text), "\"procs\":%" PRId64 ",", o->procs);
    if (o->procs > 0) snprintf(text + strlen(text), sizeof text - strlen(text), "%s", job);
    const char *io = o->procs > 0 ? harness_team->io(o) : NULL;
    if (io) snprintf(text + strlen(text), sizeof text - strlen(text), "\"mpi_io\":\"%s\",", io);
    if (o->threads > 0) snprintf(text + strlen(text), sizeof text - strlen(text), "\"threads\":%" PRId64 ",", o->threads);
    if (o->depth > 0) snprintf(text + strlen(text), sizeof text - strlen(text), "\"depth\":%" PRId64 ",", o->depth);
    if (o->lock) snprintf(text + strlen(text), sizeof text - strlen(text), "\"lock\":\"%s\",", o->lock);
    if (resident >= 0) snprintf(resident_text, sizeof resident_text, "%.1f", resident);
    if (harness_misses >= 0) snprintf(misses, sizeof misses, "%" PRId64, harness_misses);
    if (workers_timed > 0) {
        size_t n = (size_t)snprintf(times, sizeof times, o->procs > 0 ? "\"proc_ns\":[" : "\"thread_ns\":[");
        for (int64_t t = 0; t < workers_timed; t++) n += (size_t)snprintf(times + n, sizeof times - n, t ? ",%" PRId64 : "%" PRId64, worker_ns[t]);
        n += (size_t)snprintf(times + n, sizeof times - n, "],\"span_ns\":%" PRId64 ",", span_ns);
        if (platform_threads >= 0) n += (size_t)snprintf(times + n, sizeof times - n, "\"platform_threads\":%" PRId64 ",", platform_threads);
        if (tasks >= 0) snprintf(times + n, sizeof times - n, "\"tasks\":%" PRId64 ",\"io_workers\":%" PRId64 ",", tasks, io_workers);
    }
    printf("{\"snippet\":\"%s\",\"language\":\"c\",\"runtime\":\"%s\",\"strategy\":\"%s\",\"op\":\"%s\","
           "\"pattern\":\"%s\",\"cache\":\"%s\",\"resident_pct\":%s,%s\"file_size\":%" PRId64 ",\"op_size\":%" PRId64 ",\"buffer_size\":%" PRId64 ","
           "\"run\":%" PRId64 ",\"bytes\":%" PRId64 ",\"ops\":%" PRId64 ",\"misses\":%s,\"elapsed_ns\":%" PRId64 ",\"user_ns\":%" PRId64 ",\"sys_ns\":%" PRId64 ",%s"
           "\"checksum\":%" PRIu64 ",\"seed\":%" PRId64 "}\n",
           o->snippet, COMPILER, o->strategy, o->op, o->pattern, o->cache, resident_text, text, o->file_size, o->op_size, o->buffer_size,
           run, harness_bytes(o), harness_operations_done >= 0 ? harness_operations_done : harness_operations(o), misses, elapsed_ns, user_ns, sys_ns, times, checksum, o->seed);
    fflush(stdout);
}

void harness_io_fail(const struct options *o) {
    harness_io_fail_because(o, strerror(errno));
}

void harness_io_fail_because(const struct options *o, const char *why) {
    fail_once(o, why, 1);
}

void harness_unsupported(const struct options *o, const char *why) {
    fail_once(o, why, HARNESS_UNSUPPORTED);
}

/* Several threads may fail at once (readers of a file cut short): only the first reports, removes the
 * file and exits. Two threads in exit() at once could end the process before the file is removed.
 * Status 1 is an I/O error on the file; HARNESS_UNSUPPORTED says why in the snippet's own words. */
static void fail_once(const struct options *o, const char *why, int status) {
    static atomic_flag failing = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&failing)) for (;;) pause(); /* the first one's exit() ends this thread too */
    if (status == 1) snprintf(message, sizeof message, "I/O error on %s: %s", o->file, why);
    else snprintf(message, sizeof message, "%s", why);
    remove_made();
    fail(o->snippet, message, status);
}

static void fail(const char *snippet, const char *text, int status) {
    fprintf(stderr, "%s: %s\n", snippet, text);
    exit(status);
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

/* ---- data ----------------------------------------------------------------------------------- */

#define PERIOD (1 << 16)
static unsigned char table[PERIOD];
static int table_ready;

static void fill_table(void) {
    for (uint64_t j = 0; j < PERIOD; j++) table[j] = (unsigned char)((j * UINT64_C(0x9E3779B97F4A7C15)) >> 56);
    table_ready = 1;
}

unsigned data_at(int64_t pos) {
    if (!table_ready) fill_table();
    return table[pos & (PERIOD - 1)];
}

static unsigned char *source;

void data_prepare_source(int64_t longest) {
    free(source);
    source = page_aligned((size_t)(PERIOD + longest));
    if (!source) {
        fprintf(stderr, "harness: no memory for %" PRId64 " bytes of data to write\n", PERIOD + longest);
        exit(1);
    }
    data_fill(source, (size_t)(PERIOD + longest), 0);
}

const unsigned char *data_source(int64_t pos) {
    return source + (pos & (PERIOD - 1));
}

/* Fills buf[0, len) with the bytes that belong at file offset pos. */
void data_fill(unsigned char *buf, size_t len, int64_t pos) {
    if (!table_ready) fill_table();
    for (size_t done = 0; done < len;) {
        size_t from = (size_t)((pos + (int64_t)done) & (PERIOD - 1));
        size_t n = len - done < PERIOD - from ? len - done : PERIOD - from;
        memcpy(buf + done, table + from, n);
        done += n;
    }
}

/* The checksum both languages compute: the sum of the bytes moved, as unsigned values. */
uint64_t data_sum(const unsigned char *buf, size_t len) {
    uint64_t s = 0;
    for (size_t i = 0; i < len; i++) s += buf[i];
    return s;
}

int32_t data_int_at(int64_t i) {
    return (int32_t)(((uint64_t)i * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
}

int32_t *data_ints(int64_t from, int64_t to) {
    int32_t *ints = page_aligned((size_t)(to - from));
    for (int64_t i = 0; ints && i < (to - from) / 4; i++) ints[i] = data_int_at(from / 4 + i);
    return ints;
}

int data_sum_file(const char *path, uint64_t *sum) {
    static unsigned char block[1 << 20];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    *sum = 0;
    for (ssize_t n; (n = read(fd, block, sizeof block)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        *sum += data_sum(block, (size_t)n);
    }
    return close(fd);
}

/* Writes a whole file of the pattern in large blocks; preparation for read runs, never timed. */
int data_write_file(const char *path, int64_t size) {
    static unsigned char block[1 << 20];
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    for (int64_t pos = 0; pos < size; pos += (int64_t)sizeof block) {
        size_t n = size - pos < (int64_t)sizeof block ? (size_t)(size - pos) : sizeof block;
        data_fill(block, n, pos);
        for (size_t done = 0; done < n;) {
            ssize_t put = write(fd, block + done, n - done);
            if (put < 0) {
                int saved = errno;
                close(fd);
                errno = saved;
                return -1;
            }
            done += (size_t)put;
        }
    }
    return close(fd);
}

/* The deterministic text (Java: Text): lines of 0-120 printable ASCII characters with the kind's line
 * ending (mixed: \n, \r\n and \r in turn); utf8 adds é, 中 and 😀. Stops at exactly size bytes, never
 * inside a character. */
int text_write_file(const char *path, int64_t size, const char *kind, uint64_t seed) {
    static const char *const wide[] = {"\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80"};
    static const char *const endings[] = {"\n", "\r\n", "\r"};
    FILE *out = fopen(path, "wb");
    if (!out) return -1;
    struct prng random = {seed};
    int utf8 = strcmp(kind, "utf8") == 0;
    int64_t written = 0;
    for (int64_t line = 0; written < size; line++) {
        uint64_t length = prng_below(&random, 121);
        for (uint64_t j = 0; j < length && written < size; j++) {
            int v = (int)prng_below(&random, 1000);
            size_t w = strlen(wide[v % 3]);
            if (utf8 && v < 100 && (int64_t)w <= size - written) {
                fwrite(wide[v % 3], 1, w, out);
                written += (int64_t)w;
            } else {
                fputc(32 + v % 95, out);
                written++;
            }
        }
        const char *ending = strcmp(kind, "crlf") == 0 ? endings[1] : strcmp(kind, "cr") == 0 ? endings[2]
                           : strcmp(kind, "mixed") == 0 ? endings[line % 3] : endings[0];
        size_t n = strlen(ending);
        if ((int64_t)n > size - written) n = (size_t)(size - written);
        fwrite(ending, 1, n, out);
        written += (int64_t)n;
    }
    int failed = ferror(out);
    if (fclose(out) != 0 || failed) return -1;
    return 0;
}

/* ---- random offsets ------------------------------------------------------------------------- */

uint64_t prng_next(struct prng *p) {
    uint64_t z = (p->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A uniform-enough slot in [0, n): the same unsigned remainder as Java's Long.remainderUnsigned. */
uint64_t prng_below(struct prng *p, uint64_t n) {
    return prng_next(p) % n;
}
