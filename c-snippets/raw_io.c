/* raw_io: one system call per operation and no buffer anywhere (Xu & Guo §3.2.1 and §3.2.4).
 * Sequential access uses read()/write() on a file descriptor; random access uses lseek() then
 * read()/write(). With --op-size 1 every call moves one byte: the study's C baseline. Larger
 * --op-size values move a whole buffer per call (lab 03). Writes take their bytes straight from the
 * course's pattern (data_source, laid out before the clock starts); reads hand each buffer to harness_use,
 * which touches one byte of it (the check run, off the clock, sums them all). So the clock holds the
 * calls and nothing else. Twin: java-snippets/RawIo.java.
 *
 * What you will see: with 1-byte operations every byte costs a trip into the kernel, so the rate
 * is a few million bytes per second whatever the file size, in C and in Java alike. */
#include "harness.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static uint64_t measure(const struct options *o) {
    int write = strcmp(o->op, "write") == 0, seq = strcmp(o->pattern, "seq") == 0;
    return write ? (seq ? seq_write(o) : rand_write(o)) : (seq ? seq_read(o) : rand_read(o));
}

int main(int argc, char **argv) {
    static const char *const strategies[] = {"raw", NULL};
    return harness_run("raw_io", strategies, argc, argv, NULL, NULL, measure);
}
