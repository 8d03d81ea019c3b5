/* shared_file: threads writing and reading one shared file (Awan, Ayub, Shafi & Lee §IV-V, Figs 5-6).
 * The program holds one int32_t array as large as --file-size. --threads threads each move their own
 * share of it (whole --op-size blocks, disjoint, see workers_share) to the same place in one file, or
 * in a read run back from it. The file is big-endian, as Java's data streams write it. The main thread
 * creates the file; each thread then opens it itself, and every write ends by forcing the thread's data
 * to the disk. The strategies:
 *   pwrite  convert each block to big-endian into a buffer, then one pwrite at the block's offset (read:
 *           pread, then convert): the twin of Java's view-heap and view-direct
 *   mmap    map each block, store the big-endian ints straight into it, msync: the twin of `mapped`
 * With --lock region each thread holds an fcntl lock on its share while it moves it (write lock to
 * write, read lock to read), as Java's FileLock does. A read hands the array to harness_use_ints once
 * the threads have finished; its checksum is the sum of the array's ints as unsigned numbers (from the
 * untimed check run), a write's the sum of its file's bytes. Twin: java-snippets/SharedFile.java.
 *
 * What you will see: the same curves as Java's, a little higher where Java copies once more. */
#define _GNU_SOURCE
#include "harness/harness.h"

#include <endian.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The shared array: made before the first run and kept. */
static int32_t *shared;

static void prepare(const struct options *o) {
    shared = strcmp(o->op, "write") == 0 ? data_ints(0, o->file_size) : harness_buffer(o, (size_t)o->file_size); /* typed_arrays' ints */
    if (!shared) harness_io_fail(o);
}

static const char *check(const struct options *o) {
    return flags_check_int_shares(o, strcmp(o->strategy, "mmap") == 0);
}

/* The twin of Java's view strategies: swap into a buffer, then one positional call per block. */
static void positional(const struct options *o, int64_t from, int64_t to, int write) {
    uint32_t *buffer = harness_buffer(o, (size_t)o->op_size);
    int fd = open(o->file, write ? O_WRONLY : O_RDONLY);
    if (fd < 0) harness_io_fail(o);
    workers_lock_share(o, fd, from, to, write ? F_WRLCK : F_RDLCK);
    for (int64_t pos = from; pos < to; pos += o->op_size) {
        int32_t *ints = shared + pos / 4;
        size_t n = (size_t)((to - pos < o->op_size ? to - pos : o->op_size) / 4);
        if (write) {
            for (size_t i = 0; i < n; i++) buffer[i] = htobe32((uint32_t)ints[i]);
            for (size_t done = 0; done < 4 * n;) {
                ssize_t put = pwrite(fd, (char *)buffer + done, 4 * n - done, pos + (int64_t)done);
                if (put < 0) harness_io_fail(o);
                done += (size_t)put;
            }
        } else {
            for (size_t done = 0; done < 4 * n;) {
                ssize_t got = pread(fd, (char *)buffer + done, 4 * n - done, pos + (int64_t)done);
                if (got < 0) harness_io_fail(o);
                if (got == 0) harness_io_fail_because(o, "file ended early");
                done += (size_t)got;
            }
            for (size_t i = 0; i < n; i++) ints[i] = (int32_t)be32toh(buffer[i]);
        }
    }
    if (write && fsync(fd) != 0) harness_io_fail(o);
    workers_lock_share(o, fd, from, to, F_UNLCK);
    if (close(fd) != 0) harness_io_fail(o);
    free(buffer);
}

/* The twin of Java's mapped strategy: each block mapped, the ints stored into it (swapped), msync. */
static void mapped(const struct options *o, int64_t from, int64_t to, int write) {
    int fd = open(o->file, write ? O_RDWR : O_RDONLY);
    int64_t page = sysconf(_SC_PAGESIZE);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) harness_io_fail(o);
    workers_lock_share(o, fd, from, to, write ? F_WRLCK : F_RDLCK);
    for (int64_t pos = from; pos < to; pos += o->op_size) {
        int32_t *ints = shared + pos / 4;
        size_t n = (size_t)((to - pos < o->op_size ? to - pos : o->op_size) / 4);
        if (pos + 4 * (int64_t)n > st.st_size) harness_io_fail_because(o, "file ended early"); /* past the end a mapping faults */
        size_t skew = (size_t)(pos % page), length = skew + 4 * n; /* a mapping starts on a page: Java's map does this too */
        char *map = mmap(NULL, length, write ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, pos - (int64_t)skew);
        if (map == MAP_FAILED) harness_io_fail(o);
        uint32_t *block = (uint32_t *)(map + skew);
        if (write) {
            for (size_t i = 0; i < n; i++) block[i] = htobe32((uint32_t)ints[i]);
            if (msync(map, length, MS_SYNC) != 0) harness_io_fail(o);
        } else {
            for (size_t i = 0; i < n; i++) ints[i] = (int32_t)be32toh(block[i]);
        }
        if (munmap(map, length) != 0) harness_io_fail(o);
    }
    workers_lock_share(o, fd, from, to, F_UNLCK);
    if (close(fd) != 0) harness_io_fail(o);
}

static const struct way ways[] = {
    {"pwrite", ANY, "seq", {.share = positional}},
    {"mmap", ANY, "seq", {.share = mapped}},
    {NULL},
};

/* The way's share function: workers_in_threads hands a part only its thread's index, so the frame leaves it here
 * before it starts the threads (one run at a time, and the threads only read it). */
static share_fn chosen_share;

static void part(const struct options *o, int64_t thread) {
    int64_t from, to;
    workers_share(o, thread, &from, &to);
    chosen_share(o, from, to, strcmp(o->op, "write") == 0);
}

/* What every way shares, timed whole: the file made for a write, then the threads, each moving its share. */
static uint64_t frame(const struct options *o, union way_fn fn) {
    int write = strcmp(o->op, "write") == 0;
    if (write) {
        int fd = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) harness_io_fail(o);
        if (strcmp(o->strategy, "mmap") == 0 && ftruncate(fd, o->file_size) != 0) harness_io_fail(o);
        if (close(fd) != 0) harness_io_fail(o);
    }
    chosen_share = fn.share;
    workers_in_threads(o, part);
    return write ? 0 : harness_use_ints(shared, (size_t)(o->file_size / 4));
}

int main(int argc, char **argv) {
    return harness_run("shared_file", ways, argc, argv, check, prepare, frame);
}
