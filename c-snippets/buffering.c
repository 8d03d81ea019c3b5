/* buffering: one byte per operation, as in raw_io, but most operations are served from memory
 * (Xu & Guo §4.3-4.4). Two ways to keep a buffer:
 *   stream  C's stdio: a FILE with fgetc / fputc per byte; --buffer-size sets its buffer through
 *           setvbuf, without it stdio uses its default (the file system's block size, often 4 KB)
 *   direct  the program keeps its own array and refills or flushes it itself with one system call
 *           per buffer; random access keeps one window of the file, and a miss writes the window
 *           back (if changed) and loads the window that holds the new position
 * Java has no buffered random-access stream, so `stream` is sequential only here too.
 * Twin: java-snippets/Buffering.java.
 *
 * What you will see: sequentially, a buffer of a few KB cuts the system calls a thousandfold and the
 * time by far more than the study's 25%; at random, a window is rarely hit again, so every miss moves
 * a whole buffer and larger buffers only cost more, until the buffer holds the whole file. */
#include "harness/harness.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *check(const struct options *o) {
    static char message[160];
    const char *misfit = flags_check_operation_fits_buffer(o);
    if (misfit) return misfit;
    if (o->op_size != 1) {
        snprintf(message, sizeof message, "--op-size %lld: buffering moves one byte per operation, as the study did "
                 "(allowed: 1)", (long long)o->op_size);
        return message;
    }
    if (strcmp(o->strategy, "stream") == 0 && strcmp(o->pattern, "rand") == 0)
        return "--strategy stream works only with --pattern seq (there is no buffered random-access stream)";
    if (strcmp(o->strategy, "direct") == 0 && o->buffer_size == 0)
        return "--strategy direct needs --buffer-size (the size of the program's own buffer)";
    return NULL;
}

static uint64_t stream_write(const struct options *o) {
    FILE *out = fopen(o->file, "wb");
    if (!out) harness_io_fail(o);
    if (o->buffer_size > 0 && setvbuf(out, NULL, _IOFBF, (size_t)o->buffer_size) != 0) harness_io_fail(o);
    for (int64_t pos = 0; pos < o->file_size; pos++) {
        if (fputc((int)data_at(pos), out) == EOF) harness_io_fail(o);
    }
    if (fclose(out) != 0) harness_io_fail(o);
    return 0;
}

static uint64_t stream_read(const struct options *o) {
    uint64_t used = 0;
    FILE *in = fopen(o->file, "rb");
    if (!in) harness_io_fail(o);
    if (o->buffer_size > 0 && setvbuf(in, NULL, _IOFBF, (size_t)o->buffer_size) != 0) harness_io_fail(o);
    for (int b; (b = fgetc(in)) != EOF;) used += (uint64_t)b;
    if (ferror(in)) harness_io_fail(o);
    fclose(in);
    return used;
}

/* Fills the buffer byte by byte; one write(2) per full buffer, and one for the rest at the end. */
static uint64_t direct_seq_write(const struct options *o) {
    unsigned char *buffer = harness_buffer(o, (size_t)o->buffer_size);
    size_t used = 0;
    harness_misses = 0;
    int fd = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) harness_io_fail(o);
    for (int64_t pos = 0; pos < o->file_size; pos++) {
        if (used == (size_t)o->buffer_size) { /* full: flush it with one system call */
            harness_write_fully(o, fd, buffer, used);
            used = 0;
            harness_misses++;
        }
        buffer[used++] = (unsigned char)data_at(pos);
    }
    harness_write_fully(o, fd, buffer, used);
    if (close(fd) != 0) harness_io_fail(o);
    free(buffer);
    return 0;
}

/* Takes bytes from the buffer; one read(2) per buffer when it runs dry. */
static uint64_t direct_seq_read(const struct options *o) {
    uint64_t used = 0;
    unsigned char *buffer = harness_buffer(o, (size_t)o->buffer_size);
    size_t next = 0, filled = 0;
    harness_misses = 0;
    int fd = open(o->file, O_RDONLY);
    if (fd < 0) harness_io_fail(o);
    for (int64_t pos = 0; pos < o->file_size; pos++) {
        if (next == filled) { /* empty: refill it with one system call */
            ssize_t got = read(fd, buffer, (size_t)o->buffer_size);
            if (got < 0) harness_io_fail(o);
            if (got == 0) harness_io_fail_because(o, "file ended early");
            filled = (size_t)got;
            next = 0;
            harness_misses++;
        }
        used += buffer[next++];
    }
    close(fd);
    free(buffer);
    return used;
}

/* The buffer holds one window of the file, aligned to the buffer size. A byte outside it is a miss:
 * write the window back if it was changed, then load the window that holds the byte (read first, so
 * that writing it back never clobbers bytes this run did not write). */
static uint64_t direct_rand_write(const struct options *o) {
    int64_t start = 0;
    unsigned char *buffer = harness_buffer(o, (size_t)o->buffer_size);
    size_t length = 0;
    int dirty = 0;
    struct prng random = {o->seed};
    harness_misses = 0;
    int fd = open(o->file, O_RDWR | O_CREAT, 0644);
    if (fd < 0) harness_io_fail(o);
    for (int64_t i = 0; i < o->file_size; i++) {
        int64_t pos = (int64_t)prng_below(&random, (uint64_t)o->file_size);
        if (pos < start || pos >= start + (int64_t)length) { /* miss */
            if (dirty) {
                if (lseek(fd, start, SEEK_SET) < 0) harness_io_fail(o);
                harness_write_fully(o, fd, buffer, length);
            }
            start = pos - pos % o->buffer_size;
            length = (size_t)(o->file_size - start < o->buffer_size ? o->file_size - start : o->buffer_size);
            if (lseek(fd, start, SEEK_SET) < 0) harness_io_fail(o);
            size_t got = harness_read_fully(o, fd, buffer, length);
            memset(buffer + got, 0, length - got); /* past the end: zeros */
            harness_misses++;
        }
        buffer[pos - start] = (unsigned char)data_at(pos);
        dirty = 1;
    }
    if (dirty) {
        if (lseek(fd, start, SEEK_SET) < 0) harness_io_fail(o);
        harness_write_fully(o, fd, buffer, length);
    }
    if (close(fd) != 0) harness_io_fail(o);
    free(buffer);
    return 0;
}

static uint64_t direct_rand_read(const struct options *o) {
    uint64_t used = 0;
    int64_t start = 0;
    unsigned char *buffer = harness_buffer(o, (size_t)o->buffer_size);
    size_t length = 0;
    struct prng random = {o->seed};
    harness_misses = 0;
    int fd = open(o->file, O_RDONLY);
    if (fd < 0) harness_io_fail(o);
    for (int64_t i = 0; i < o->file_size; i++) {
        int64_t pos = (int64_t)prng_below(&random, (uint64_t)o->file_size);
        if (pos < start || pos >= start + (int64_t)length) { /* miss: load the window that holds pos */
            start = pos - pos % o->buffer_size;
            length = (size_t)(o->file_size - start < o->buffer_size ? o->file_size - start : o->buffer_size);
            if (lseek(fd, start, SEEK_SET) < 0) harness_io_fail(o);
            if (harness_read_fully(o, fd, buffer, length) < length) harness_io_fail_because(o, "file ended early");
            harness_misses++;
        }
        used += buffer[pos - start];
    }
    close(fd);
    free(buffer);
    return used;
}

static const struct way ways[] = {
    {"stream", "write", "seq", {.whole = stream_write}},
    {"stream", "read", "seq", {.whole = stream_read}},
    {"direct", "write", "seq", {.whole = direct_seq_write}},
    {"direct", "read", "seq", {.whole = direct_seq_read}},
    {"direct", "write", "rand", {.whole = direct_rand_write}},
    {"direct", "read", "rand", {.whole = direct_rand_read}},
    {NULL},
};

int main(int argc, char **argv) {
    return harness_run("buffering", ways, argc, argv, check, NULL, NULL);
}
