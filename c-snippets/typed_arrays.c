/* typed_arrays: getting an int array (or, with --type double, a double array) to disk and back
 * (Bonachea, Dickens & Thakur §3-4). The program holds an array of --op-size bytes and writes it block
 * after block until --file-size bytes are on disk, then reads the blocks back into the array. C can
 * hand the array's memory to write() as it is; Java's data streams want big-endian bytes. The strategies:
 *   big     convert each element to big-endian (a byte swap on little-endian machines) into a byte
 *           buffer, then one write per block: the same file as every big-endian Java strategy
 *   native  write the array's memory as it is, in the machine's order: the same file as Java's
 *           `native` (a direct ByteBuffer in the machine's order)
 * The array is made before the clock starts. A read hands each block's elements to harness_use_ints
 * (harness_use_doubles), which touches one of them; the checksum (from the untimed check run) is the sum
 * of the elements' bit patterns (unsigned, wrapping at 64 bits); a write's is the sum of its file's bytes.
 * The byte swap is the strategy's own work and stays timed.
 * Twin: java-snippets/TypedArrays.java.
 *
 * What you will see: a swap costs a fraction of a nanosecond per element, far less than the I/O. */
#define _DEFAULT_SOURCE
#include "harness/harness.h"

#include <endian.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t width(const struct options *o) {
    return strcmp(o->type, "int") == 0 ? 4 : 8;
}

static const char *check(const struct options *o) {
    static char message[160];
    if (o->op_size % (int64_t)width(o) != 0 || o->file_size % (int64_t)width(o) != 0) {
        snprintf(message, sizeof message, "--op-size %lld and --file-size %lld must be multiples of %zu (whole %ss)",
                 (long long)o->op_size, (long long)o->file_size, width(o), o->type);
        return message;
    }
    if (strcmp(o->pattern, "rand") == 0) return "--pattern rand: typed_arrays moves its blocks in order (allowed: seq)";
    if (o->buffer_size > 0) return "--buffer-size is used only by Java's --strategy data-buffered (C has no data streams)";
    return NULL;
}

/* The program's array: int32_t or double, element i a fixed function of i, the same in Java (Elements). */
static void *array(const struct options *o) {
    void *values = harness_buffer(o, (size_t)o->op_size);
    for (int64_t i = 0; i < o->op_size / (int64_t)width(o); i++) {
        int32_t v = data_int_at(i);
        if (width(o) == 4) ((int32_t *)values)[i] = v;
        else ((double *)values)[i] = v / 1024.0; /* exact: the same bits in Java */
    }
    return values;
}

/* Elements in the block that starts at byte pos (the last block may be short). */
static size_t count(const struct options *o, int64_t pos) {
    return (size_t)((o->file_size - pos < o->op_size ? o->file_size - pos : o->op_size) / (int64_t)width(o));
}

/* Hands the first n elements to the harness (harness_use_ints, harness_use_doubles). */
static uint64_t use(const struct options *o, const void *values, size_t n) {
    return width(o) == 4 ? harness_use_ints(values, n) : harness_use_doubles(values, n);
}

/* The program's array, made before the first run and kept: the elements to write, or the array reads fill. */
static void *held;

static void prepare(const struct options *o) {
    held = strcmp(o->op, "write") == 0 ? array(o) : harness_buffer(o, (size_t)o->op_size);
    if (!held) harness_io_fail(o);
}

/* One element to or from its big-endian bytes (memcpy: the bytes need not be aligned; compilers make it one move). */
static void put_be32(unsigned char *to, int32_t value) {
    uint32_t bits = htobe32((uint32_t)value);
    memcpy(to, &bits, 4);
}

static void put_be64(unsigned char *to, double value) {
    uint64_t bits;
    memcpy(&bits, &value, 8);
    bits = htobe64(bits);
    memcpy(to, &bits, 8);
}

static int32_t get_be32(const unsigned char *from) {
    uint32_t bits;
    memcpy(&bits, from, 4);
    return (int32_t)be32toh(bits);
}

static double get_be64(const unsigned char *from) {
    uint64_t bits;
    double value;
    memcpy(&bits, from, 8);
    bits = be64toh(bits);
    memcpy(&value, &bits, 8);
    return value;
}

/* The file every way works on, opened by the frame (Java's TypedArrays.frame opens its RandomAccessFile the same way). */
static int fd;

static uint64_t big_write(const struct options *o) {
    const int32_t *ints = held;
    const double *doubles = held;
    unsigned char *block = harness_buffer(o, (size_t)o->op_size);
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = count(o, pos);
        if (width(o) == 4) for (size_t i = 0; i < n; i++) put_be32(block + 4 * i, ints[i]);
        else for (size_t i = 0; i < n; i++) put_be64(block + 8 * i, doubles[i]);
        harness_write_fully(o, fd, block, n * width(o));
    }
    free(block);
    return 0;
}

static uint64_t big_read(const struct options *o) {
    int32_t *ints = held;
    double *doubles = held;
    unsigned char *block = harness_buffer(o, (size_t)o->op_size);
    uint64_t used = 0;
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = count(o, pos);
        if (harness_read_fully(o, fd, block, n * width(o)) < n * width(o)) harness_io_fail_because(o, "file ended early");
        if (width(o) == 4) for (size_t i = 0; i < n; i++) ints[i] = get_be32(block + 4 * i);
        else for (size_t i = 0; i < n; i++) doubles[i] = get_be64(block + 8 * i);
        used += use(o, held, n);
    }
    free(block);
    return used;
}

/* The array's own memory goes to the file: no conversion at all. */
static uint64_t native_write(const struct options *o) {
    void *values = held;
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = count(o, pos);
        harness_write_fully(o, fd, values, n * width(o));
    }
    return 0;
}

static uint64_t native_read(const struct options *o) {
    void *values = held;
    uint64_t used = 0;
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = count(o, pos);
        if (harness_read_fully(o, fd, values, n * width(o)) < n * width(o)) harness_io_fail_because(o, "file ended early");
        used += use(o, values, n);
    }
    return used;
}

/* Opens the one file every way works on, on the clock, and closes it when the way is done. */
static uint64_t frame(const struct options *o, union way_fn fn) {
    int write = strcmp(o->op, "write") == 0;
    fd = write ? open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644) : open(o->file, O_RDONLY);
    if (fd < 0) harness_io_fail(o);
    uint64_t used = fn.whole(o);
    if (close(fd) != 0) harness_io_fail(o);
    return used;
}

static const struct way ways[] = {
    {"big", "write", "seq", {.whole = big_write}},
    {"big", "read", "seq", {.whole = big_read}},
    {"native", "write", "seq", {.whole = native_write}},
    {"native", "read", "seq", {.whole = native_read}},
    {NULL},
};

int main(int argc, char **argv) {
    return harness_run("typed_arrays", ways, argc, argv, check, prepare, frame);
}
