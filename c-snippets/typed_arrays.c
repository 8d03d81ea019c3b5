/* typed_arrays: getting an int array to disk and back (Bonachea, Dickens & Thakur §3-4).
 * The program holds an array of --op-size bytes of int32_t and writes it block after block until
 * --file-size bytes are on disk, then reads the blocks back into the array. C can hand the array's
 * memory to write() as it is; Java's data streams want big-endian bytes. The strategies:
 *   big     convert each element to big-endian (htonl: a byte swap on little-endian machines) into a
 *           byte buffer, then one write per block: the same file as every big-endian Java strategy
 *   native  write the array's memory as it is, in the machine's order: the same file as Java's
 *           `native` (a direct ByteBuffer in the machine's order)
 * The checksum is the sum of the elements moved, each as an unsigned 32-bit value.
 * Twin: java-snippets/TypedArrays.java.
 *
 * What you will see: a swap costs a fraction of a nanosecond per element, far less than the I/O. */
#include "harness.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *check(const struct options *o) {
    static char message[160];
    if (o->op_size % 4 != 0 || o->file_size % 4 != 0) {
        snprintf(message, sizeof message, "--op-size %lld and --file-size %lld must be multiples of 4 (whole ints)",
                 (long long)o->op_size, (long long)o->file_size);
        return message;
    }
    if (strcmp(o->pattern, "rand") == 0) return "--pattern rand: typed_arrays moves its blocks in order (allowed: seq)";
    if (o->buffer_size > 0) return "--buffer-size is used only by Java's --strategy data-buffered (C has no data streams)";
    return NULL;
}

/* The program's array: element i is a fixed function of i, the same in Java (array). */
static int32_t *array(const struct options *o) {
    int32_t *values = malloc((size_t)o->op_size);
    if (!values) io_fail(o);
    for (int64_t i = 0; i < o->op_size / 4; i++) values[i] = (int32_t)(((uint64_t)i * UINT64_C(0x9E3779B97F4A7C15)) >> 32);
    return values;
}

/* Elements in the block that starts at byte pos (the last block may be short). */
static size_t count(const struct options *o, int64_t pos) {
    return (size_t)((o->file_size - pos < o->op_size ? o->file_size - pos : o->op_size) / 4);
}

static uint64_t sum(const int32_t *values, size_t n) {
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += (uint32_t)values[i];
    return s;
}

static uint64_t big_write(const struct options *o, int fd) {
    int32_t *values = array(o);
    uint32_t *block = malloc((size_t)o->op_size);
    uint64_t total = 0;
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = count(o, pos);
        for (size_t i = 0; i < n; i++) block[i] = htonl((uint32_t)values[i]);
        write_fully(o, fd, (unsigned char *)block, 4 * n);
        total += sum(values, n);
    }
    free(block);
    free(values);
    return total;
}

static uint64_t big_read(const struct options *o, int fd) {
    int32_t *values = malloc((size_t)o->op_size);
    uint32_t *block = malloc((size_t)o->op_size);
    uint64_t total = 0;
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = count(o, pos);
        if (read_fully(o, fd, (unsigned char *)block, 4 * n) < 4 * n) io_fail_because(o, "file ended early");
        for (size_t i = 0; i < n; i++) values[i] = (int32_t)ntohl(block[i]);
        total += sum(values, n);
    }
    free(block);
    free(values);
    return total;
}

/* The array's own memory goes to the file: no conversion at all. */
static uint64_t native_write(const struct options *o, int fd) {
    int32_t *values = array(o);
    uint64_t total = 0;
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = count(o, pos);
        write_fully(o, fd, (unsigned char *)values, 4 * n);
        total += sum(values, n);
    }
    free(values);
    return total;
}

static uint64_t native_read(const struct options *o, int fd) {
    int32_t *values = malloc((size_t)o->op_size);
    uint64_t total = 0;
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = count(o, pos);
        if (read_fully(o, fd, (unsigned char *)values, 4 * n) < 4 * n) io_fail_because(o, "file ended early");
        total += sum(values, n);
    }
    free(values);
    return total;
}

static uint64_t measure(const struct options *o) {
    int write = strcmp(o->op, "write") == 0, big = strcmp(o->strategy, "big") == 0;
    int fd = write ? open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644) : open(o->file, O_RDONLY);
    if (fd < 0) io_fail(o);
    uint64_t total = write ? (big ? big_write(o, fd) : native_write(o, fd)) : (big ? big_read(o, fd) : native_read(o, fd));
    if (close(fd) != 0) io_fail(o);
    return total;
}

int main(int argc, char **argv) {
    static const char *const strategies[] = {"big", "native", NULL};
    static const char *const extra_flags[] = {"--buffer-size", NULL};
    return harness_run("typed_arrays", strategies, extra_flags, argc, argv, check, measure);
}
