/* raw_io: one system call per operation and no buffer anywhere (Xu & Guo §3.2.1 and §3.2.4).
 * Sequential access uses read()/write() on a file descriptor; random access uses lseek() then
 * read()/write(). With --op-size 1 every call moves one byte: the study's C baseline. Larger
 * --op-size values move a whole buffer per call (lab 03). Writes take their bytes straight from the
 * course's pattern (data_source, laid out before the clock starts); reads hand each buffer to harness_use,
 * which touches one byte of it (the check run, off the clock, sums them all). So the clock holds the
 * calls and nothing else. Twin: java-snippets/RawIo.java.
 *
 * --strategy o-direct (lab 10) makes the same calls past the page cache: a file opened with O_DIRECT, one
 * --op-size block per pread()/pwrite() into a buffer aligned to the file system's block size
 * (posix_memalign). Direct I/O moves whole blocks at whole-block offsets, so --op-size must be a multiple
 * of 4 KiB and --file-size a multiple of --op-size.
 *
 * What you will see: with 1-byte operations every byte costs a trip into the kernel, so the rate
 * is a few million bytes per second whatever the file size, in C and in Java alike. */
#define _GNU_SOURCE /* O_DIRECT */
#include "harness/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Direct I/O's unit: a multiple of the block size of every file system Linux does direct I/O on. */
#define DIRECT_UNIT 4096

static const char *check(const struct options *o) {
    static char message[200];
    if (strcmp(o->strategy, "o-direct") != 0) return NULL;
    if (o->op_size % DIRECT_UNIT != 0 || o->file_size % o->op_size != 0) {
        snprintf(message, sizeof message, "--op-size %lld and --file-size %lld: direct I/O moves whole blocks"
                 " (--op-size a multiple of 4096, --file-size a multiple of --op-size)", (long long)o->op_size, (long long)o->file_size);
        return message;
    }
    return NULL;
}

static uint64_t seq_write(const struct options *o) {
    int fd = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) harness_io_fail(o);
    if (o->op_size == 1) {
        for (int64_t pos = 0; pos < o->file_size; pos++) {
            unsigned char b = (unsigned char)data_at(pos);
            harness_write_fully(o, fd, &b, 1);
        }
    } else {
        for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
            harness_write_fully(o, fd, data_source(pos), (size_t)(o->file_size - pos < o->op_size ? o->file_size - pos : o->op_size));
        }
    }
    if (close(fd) != 0) harness_io_fail(o);
    return 0;
}

static uint64_t seq_read(const struct options *o) {
    uint64_t used = 0;
    int fd = open(o->file, O_RDONLY);
    if (fd < 0) harness_io_fail(o);
    if (o->op_size == 1) {
        unsigned char b;
        while (harness_read_fully(o, fd, &b, 1) == 1) used += b;
    } else {
        unsigned char *buf = harness_buffer(o, (size_t)o->op_size);
        for (size_t n; (n = harness_read_fully(o, fd, buf, (size_t)o->op_size)) > 0;) used += harness_use(buf, n);
        free(buf);
    }
    close(fd);
    return used;
}

/* As many operations as the file has slots, each at a random slot: seek, then write. */
static uint64_t rand_write(const struct options *o) {
    uint64_t slots = (uint64_t)(o->file_size / o->op_size);
    struct prng random = {o->seed};
    int fd = open(o->file, O_RDWR | O_CREAT, 0644);
    if (fd < 0) harness_io_fail(o);
    for (uint64_t i = 0; i < slots; i++) {
        int64_t pos = (int64_t)(prng_below(&random, slots) * (uint64_t)o->op_size);
        if (lseek(fd, pos, SEEK_SET) < 0) harness_io_fail(o);
        harness_write_fully(o, fd, data_source(pos), (size_t)o->op_size);
    }
    if (close(fd) != 0) harness_io_fail(o);
    return 0;
}

static uint64_t rand_read(const struct options *o) {
    uint64_t used = 0, slots = (uint64_t)(o->file_size / o->op_size);
    struct prng random = {o->seed};
    unsigned char *buf = harness_buffer(o, (size_t)o->op_size);
    int fd = open(o->file, O_RDONLY);
    if (fd < 0) harness_io_fail(o);
    for (uint64_t i = 0; i < slots; i++) {
        if (lseek(fd, (off_t)(prng_below(&random, slots) * (uint64_t)o->op_size), SEEK_SET) < 0) harness_io_fail(o);
        harness_read_fully(o, fd, buf, (size_t)o->op_size);
        used += harness_use(buf, (size_t)o->op_size);
    }
    close(fd);
    free(buf);
    return used;
}

/* The file opened for direct I/O, or an error that says so where the file system refuses it (tmpfs did before Linux 6.6). */
static int open_direct(const struct options *o, int write) {
    int fd = open(o->file, (write ? O_WRONLY | O_CREAT : O_RDONLY) | O_DIRECT, 0644);
    if (fd < 0 && errno == EINVAL) harness_unsupported(o, "this file system refuses direct I/O (O_DIRECT); put the scratch folder on a disk (COURSE_SCRATCH)");
    if (fd < 0) harness_io_fail(o);
    return fd;
}

/* Past the page cache: each operation moves one --op-size block between the disk and a buffer aligned
 * to the file system's block size, at a whole-block offset (in order, or a random slot). */
static uint64_t direct(const struct options *o) {
    int write = strcmp(o->op, "write") == 0;
    uint64_t slots = (uint64_t)(o->file_size / o->op_size), used = 0;
    struct prng random = {o->seed};
    struct statvfs fs;
    void *buf = NULL;
    int fd = open_direct(o, write); /* first: a write makes the file, whose file system gives the block size */
    if (fstatvfs(fd, &fs) != 0) harness_io_fail(o);
    if ((errno = posix_memalign(&buf, fs.f_bsize, (size_t)o->op_size)) != 0) harness_io_fail_because(o, strerror(errno));
    memset(buf, 0, (size_t)o->op_size); /* as Java's allocateDirect does: the pages are in memory before the first read */
    for (uint64_t i = 0; i < slots; i++) {
        off_t pos = (off_t)((strcmp(o->pattern, "seq") == 0 ? i : prng_below(&random, slots)) * (uint64_t)o->op_size);
        if (write) {
            memcpy(buf, data_source(pos), (size_t)o->op_size);
            if (pwrite(fd, buf, (size_t)o->op_size, pos) != o->op_size) harness_io_fail_because(o, "a direct write moved part of a block");
        } else {
            if (pread(fd, buf, (size_t)o->op_size, pos) != o->op_size) harness_io_fail_because(o, "file ended early");
            used += harness_use(buf, (size_t)o->op_size);
        }
    }
    if (close(fd) != 0) harness_io_fail(o);
    free(buf);
    return used;
}

static const struct way ways[] = {
    {"raw", "write", "seq", {.whole = seq_write}},
    {"raw", "read", "seq", {.whole = seq_read}},
    {"raw", "write", "rand", {.whole = rand_write}},
    {"raw", "read", "rand", {.whole = rand_read}},
    {"o-direct", ANY, ANY, {.whole = direct}},
    {NULL},
};

int main(int argc, char **argv) {
    return harness_run("raw_io", ways, argc, argv, check, NULL, NULL);
}
