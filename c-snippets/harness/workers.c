/* The harness's threads and processes: a threaded strategy's workers started together and watched while they run (their
 * times, their CPU time, the most tasks the kernel ran for the process), an MPI job's team, and each worker's share
 * of the file. Twin: java-snippets/harness/Workers.java. See harness.c for the rooms. */
#define _GNU_SOURCE
#include "rooms.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Each worker's own time in the current run of a strategy with threads or processes (ns), and the span
 * from the first start to the last end; CPU time the other threads or processes used, added to the
 * measuring thread's own. */
int64_t workers_own_ns[MAX_THREADS > MAX_PROCS ? MAX_THREADS : MAX_PROCS];
int64_t workers_timed; /* 0: the strategy ran no threads or processes */
int64_t workers_span_ns = -1;
int64_t workers_user_ns, workers_sys_ns;

/* The most threads the process had at once in the current run of a strategy with threads (-1: none ran):
 * its workers and the thread that made them, since C starts no thread of its own (Java's JDK does, and counts). */
int64_t workers_platform_threads = -1;

/* The most tasks the kernel ran for the process at once in the current run of a strategy with threads, as the
 * process's folder of tasks (/proc/self/task) listed them while its workers ran, and the most of those that were
 * io_uring's io-wq workers (named iou-wrk-<tid>, Linux 5.12 and later): -1 where none ran or there is no /proc.
 * Counted the same way in Java, where the tasks also take in the JVM's own threads (GC, compilers). See sample_tasks. */
int64_t workers_tasks = -1, workers_io_workers = -1;

/* The tasks of the current run whose kind is known, by id (0: a free slot), and whether each is an io-wq worker
 * (see io_worker). */
#define TASKS_KNOWN 4096 /* a power of two, far more than a run's tasks: a full table only costs names read again */
static struct {
    int32_t tid;
    int8_t io;
} known_tasks[TASKS_KNOWN];

/* A new run: nothing of its workers known yet (what stays so is left out of its record). */
void workers_reset(void) {
    workers_timed = 0;
    workers_span_ns = -1;
    workers_platform_threads = -1;
    workers_tasks = workers_io_workers = -1;
    memset(known_tasks, 0, sizeof known_tasks); /* names are read anew (an id may come back) */
    workers_user_ns = workers_sys_ns = 0;
}

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
const struct team *workers_team = &alone;

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
    int64_t start = harness_now_ns(), all = 0, io = 0;
    DIR *listing = opendir(dir);
    if (!listing) return harness_now_ns() - start; /* no /proc: nothing counted, and the record says nothing */
    for (struct dirent *e; (e = readdir(listing)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        all++;
        io += io_worker(dirfd(listing), e->d_name, at_gate);
    }
    closedir(listing);
    if (all > workers_tasks) workers_tasks = all;
    if (io > workers_io_workers) workers_io_workers = io;
    return harness_now_ns() - start;
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
    w->start = harness_now_ns();
    w->part(w->o, w->thread);
    w->end = harness_now_ns();
    getrusage(RUSAGE_THREAD, &after);
    w->user_ns = harness_timeval_ns(after.ru_utime) - harness_timeval_ns(before.ru_utime);
    w->sys_ns = harness_timeval_ns(after.ru_stime) - harness_timeval_ns(before.ru_stime);
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
    int64_t took = sample_tasks("/proc/self/task", 1), before = took, next = harness_now_ns() + sample_gap(took, before);
    pthread_barrier_wait(&gate);
    for (int64_t t = 0; t < n; t++) {
        for (;;) {
            int64_t left = next - harness_now_ns();
            if (left <= 0) {
                before = took;
                took = sample_tasks("/proc/self/task", 0);
                next = harness_now_ns() + sample_gap(took, before);
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

void workers_in_threads(const struct options *o, part_fn part) {
    static struct worker workers[MAX_THREADS];
    pthread_barrier_init(&gate, NULL, (unsigned)o->threads + 1);
    sem_init(&arrived, 0, 0);
    for (int64_t t = 0; t < o->threads; t++) {
        workers[t] = (struct worker){.o = o, .part = part, .thread = t};
        if ((errno = pthread_create(&workers[t].id, NULL, work, &workers[t])) != 0) harness_io_fail_because(o, strerror(errno));
    }
    workers_platform_threads = o->threads + 1; /* its workers and this thread: C makes no others (Java counts, its JDK does) */
    watch_workers(workers, o->threads);
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (int64_t t = 0; t < o->threads; t++) {
        workers_own_ns[t] = workers[t].end - workers[t].start;
        workers_user_ns += workers[t].user_ns;
        workers_sys_ns += workers[t].sys_ns;
        if (workers[t].start < first) first = workers[t].start;
        if (workers[t].end > last) last = workers[t].end;
    }
    pthread_barrier_destroy(&gate);
    sem_destroy(&arrived);
    workers_timed = o->threads;
    workers_span_ns = last - first;
}

void workers_in_processes(const struct options *o, part_fn part) {
    workers_team->barrier();
    struct rusage before, after;
    getrusage(RUSAGE_THREAD, &before);
    int64_t start = harness_now_ns();
    part(o, workers_team->rank());
    int64_t own = harness_now_ns() - start;
    getrusage(RUSAGE_THREAD, &after);
    int64_t user = harness_timeval_ns(after.ru_utime) - harness_timeval_ns(before.ru_utime);
    int64_t sys = harness_timeval_ns(after.ru_stime) - harness_timeval_ns(before.ru_stime);
    workers_team->barrier();
    workers_span_ns = -workers_team->min(start - harness_now_ns()); /* the maximum, through MPI_MIN */
    workers_team->gather(own, workers_own_ns);
    workers_timed = workers_team->size();
    workers_user_ns += workers_team->sum(user) - user; /* this process's own CPU time is counted already */
    workers_sys_ns += workers_team->sum(sys) - sys;
}

void workers_share(const struct options *o, int64_t i, int64_t *from, int64_t *to) {
    int64_t blocks = (o->file_size + o->op_size - 1) / o->op_size;
    *from = blocks * i / harness_workers(o) * o->op_size;
    *to = blocks * (i + 1) / harness_workers(o) * o->op_size;
    if (*to > o->file_size) *to = o->file_size;
}


void workers_lock_share(const struct options *o, int fd, int64_t from, int64_t to, short type) {
    struct flock region = {.l_type = type, .l_whence = SEEK_SET, .l_start = from, .l_len = to - from};
    if (strcmp(o->lock, "region") == 0 && fcntl(fd, F_SETLKW, &region) != 0) harness_io_fail(o);
}
