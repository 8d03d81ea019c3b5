/* small_reads (lab 10): many small reads of one file by --threads workers at once. Each worker takes the
 * next block from a shared counter and reads it with one pread into its own buffer: the blocks in order,
 * or with --pattern rand the slots raw_io's random reads visit (the list made before the clock starts).
 * The workers start together behind a barrier, and each line records the most threads the process had
 * at once (platform_threads).
 *   platform  each worker is a pthread: an OS thread of its own (C has no virtual threads)
 *   io-uring  each worker keeps --depth reads in flight through an io_uring of its own (liburing): it queues
 *             them, the kernel works on all of them, and the worker takes each completion and queues the
 *             next block in its place; one thread with --depth 64 has as many reads waiting as 64 platform
 *             workers. Needs liburing (the kit builds with it where it is installed) and a kernel that allows
 *             io_uring: containers' default seccomp profiles refuse it, and the run says so (status 3).
 * Twin: java-snippets/SmallReads.java (platform, virtual, and io-uring through the kernel's interface: Ring.java).
 *
 * What you will see: the floor Java's workers are measured against, with a thread per worker; and, cold,
 * how many reads one thread can keep waiting on the disk. */
#include "harness/harness.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef COURSE_LIBURING
#include <liburing.h>
#endif

/* Each read's offset, in the order the workers take them: made before the first run, never timed. */
static int64_t *offsets;
static int64_t planned;
static atomic_llong next;
static atomic_ullong used;
static int fd;

static const char *check(const struct options *o) {
    static char message[160];
    if (strcmp(o->op, "read") != 0) {
        snprintf(message, sizeof message, "--op %s: small_reads reads (allowed: read)", o->op);
        return message;
    }
    if (o->depth > 1 && strcmp(o->strategy, "io-uring") != 0) {
        snprintf(message, sizeof message, "--depth %" PRId64 ": a %s worker reads one block at a time (allowed: 1; io-uring keeps more in flight)",
                 o->depth, o->strategy);
        return message;
    }
    return NULL;
}

/* Before any run: a kernel that refuses io_uring, or a build without liburing, is said once (status 3). */
static void probe_io_uring(const struct options *o) {
#ifdef COURSE_LIBURING
    struct io_uring ring;
    int err = io_uring_queue_init(1, &ring, 0);
    if (err == 0) {
        io_uring_queue_exit(&ring);
        return;
    }
    static char why[200];
    snprintf(why, sizeof why, "this kernel refuses io_uring (io_uring_setup: %s): a container's default seccomp profile blocks it,"
             " and a kernel may turn it off (sysctl kernel.io_uring_disabled)", strerror(-err));
    harness_unsupported(o, why);
#else
    harness_unsupported(o, "this program was built without liburing (setup/setup.sh says what to install for it; the next run builds it with it)");
#endif
}

/* In order, every block; at random, as many slots as the file has whole blocks, drawn as raw_io draws them. */
static void plan(const struct options *o) {
    if (strcmp(o->strategy, "io-uring") == 0) probe_io_uring(o);
    int seq = strcmp(o->pattern, "seq") == 0;
    int64_t slots = o->file_size / o->op_size;
    planned = seq ? (o->file_size + o->op_size - 1) / o->op_size : slots;
    offsets = harness_buffer(o, (size_t)planned * sizeof *offsets);
    struct prng random = {o->seed};
    for (int64_t i = 0; i < planned; i++) offsets[i] = (seq ? i : (int64_t)prng_below(&random, (uint64_t)slots)) * o->op_size;
}

static void worker(const struct options *o, int64_t thread) {
    (void)thread; /* every worker takes the next block, whichever it is */
    unsigned char *buf = harness_buffer(o, (size_t)o->op_size);
    uint64_t mine = 0;
    for (int64_t i; (i = next++) < planned;) {
        int64_t pos = offsets[i], n = o->file_size - pos < o->op_size ? o->file_size - pos : o->op_size;
        for (int64_t done = 0; done < n;) {
            ssize_t got = pread(fd, buf + done, (size_t)(n - done), pos + done);
            if (got < 0) harness_io_fail(o);
            if (got == 0) harness_io_fail_because(o, "file ended early");
            done += got;
        }
        mine += harness_use(buf, (size_t)n);
    }
    used += mine;
    free(buf);
}

#ifdef COURSE_LIBURING
/* Queues a read of the rest of entry k's block (all of it, or what a short read left) at its offset. */
static void queue_read(struct io_uring *ring, unsigned char *buf, int64_t pos, int64_t n, uint64_t k) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring); /* never NULL: at most depth reads are queued */
    io_uring_prep_read(sqe, fd, buf, (unsigned)n, (uint64_t)pos);
    io_uring_sqe_set_data64(sqe, k);
}
#endif

/* --depth reads in flight through one ring: entry k holds one block (its buffer, offset, length, bytes done). */
static void ring_worker(const struct options *o, int64_t thread) {
    (void)thread; /* every worker takes the next block, whichever it is */
#ifdef COURSE_LIBURING
    struct io_uring ring;
    int err = io_uring_queue_init((unsigned)o->depth, &ring, 0);
    if (err < 0) harness_io_fail_because(o, strerror(-err));
    int64_t depth = o->depth, in_flight = 0;
    unsigned char *bufs = harness_buffer(o, (size_t)(depth * o->op_size));
    int64_t *pos = harness_buffer(o, 3 * (size_t)depth * sizeof *pos), *len = pos + depth, *done = len + depth;
    uint64_t mine = 0;
    for (int64_t k = 0, i; k < depth && (i = next++) < planned; k++, in_flight++) {
        pos[k] = offsets[i];
        len[k] = o->file_size - pos[k] < o->op_size ? o->file_size - pos[k] : o->op_size;
        done[k] = 0;
        queue_read(&ring, bufs + k * o->op_size, pos[k], len[k], (uint64_t)k);
    }
    while (in_flight > 0) {
        if ((err = io_uring_submit_and_wait(&ring, 1)) < 0) harness_io_fail_because(o, strerror(-err));
        for (struct io_uring_cqe *cqe; io_uring_peek_cqe(&ring, &cqe) == 0;) {
            int64_t k = (int64_t)io_uring_cqe_get_data64(cqe), got = cqe->res;
            io_uring_cqe_seen(&ring, cqe);
            if (got < 0) harness_io_fail_because(o, strerror((int)-got));
            if (got == 0) harness_io_fail_because(o, "file ended early");
            unsigned char *buf = bufs + k * o->op_size;
            if ((done[k] += got) < len[k]) { /* a short read: queue the rest */
                queue_read(&ring, buf + done[k], pos[k] + done[k], len[k] - done[k], (uint64_t)k);
                continue;
            }
            mine += harness_use(buf, (size_t)len[k]);
            int64_t i = next++;
            if (i >= planned) {
                in_flight--;
                continue;
            }
            pos[k] = offsets[i];
            len[k] = o->file_size - pos[k] < o->op_size ? o->file_size - pos[k] : o->op_size;
            done[k] = 0;
            queue_read(&ring, buf, pos[k], len[k], (uint64_t)k);
        }
    }
    used += mine;
    io_uring_queue_exit(&ring);
    free(bufs);
    free(pos);
#else
    harness_unsupported(o, "this program was built without liburing"); /* probe_io_uring said so before any run */
#endif
}

/* Timed whole, around either kind of worker: opens the file, runs --threads workers together, closes it. */
static uint64_t frame(const struct options *o, union way_fn fn) {
    next = 0;
    used = 0;
    if ((fd = open(o->file, O_RDONLY)) < 0) harness_io_fail(o);
    workers_in_threads(o, fn.part);
    if (close(fd) != 0) harness_io_fail(o);
    return used;
}

static const struct way ways[] = {
    {"platform", "read", ANY, {.part = worker}},
    {"io-uring", "read", ANY, {.part = ring_worker}},
    {NULL},
};

int main(int argc, char **argv) {
    return harness_run("small_reads", ways, argc, argv, check, plan, frame);
}
