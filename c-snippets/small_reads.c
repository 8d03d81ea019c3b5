/* small_reads (lab 09): many small reads of one file by --threads workers at once. Each worker takes the
 * next block from a shared counter and reads it with one pread into its own buffer: the blocks in order,
 * or with --pattern rand the slots raw_io's random reads visit (the list made before the clock starts).
 * The workers start together behind a barrier, and each line records the most threads the process had
 * at once (platform_threads).
 *   platform  each worker is a pthread: an OS thread of its own (C has no virtual threads)
 * Twin: java-snippets/SmallReads.java (platform, virtual).
 *
 * What you will see: the floor Java's workers are measured against, with a thread per worker. */
#include "harness.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each read's offset, in the order the workers take them: made before the first run, never timed. */
static int64_t *offsets;
static int64_t planned;
static atomic_llong next;
static atomic_ullong used;
static int fd;

static const char *check(const struct options *o) {
    static char message[100];
    if (strcmp(o->op, "read") == 0) return NULL;
    snprintf(message, sizeof message, "--op %s: small_reads reads (allowed: read)", o->op);
    return message;
}

/* In order, every block; at random, as many slots as the file has whole blocks, drawn as raw_io draws them. */
static void plan(const struct options *o) {
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

static uint64_t measure(const struct options *o) {
    next = 0;
    used = 0;
    if ((fd = open(o->file, O_RDONLY)) < 0) harness_io_fail(o);
    harness_in_threads(o, worker);
    if (close(fd) != 0) harness_io_fail(o);
    return used;
}

int main(int argc, char **argv) {
    static const char *const strategies[] = {"platform", NULL};
    return harness_run("small_reads", strategies, argc, argv, check, plan, measure);
}
