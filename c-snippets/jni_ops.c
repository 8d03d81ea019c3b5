/* jni_ops: what one native call per operation costs (Xu & Guo §4.6, Fig 4.15). The program moves
 * --op-size bytes per operation through a --buffer-size buffer (the study: 4 KB), sequentially:
 *   direct  the program keeps the buffer: each operation copies its bytes out of (into) it, and only
 *           an empty (full) buffer costs a read (write) system call
 * C has no JNI: this is the study's C line, the twin of both Java strategies.
 * Twin: java-snippets/JniOps.java (`direct`, and `jni`, whose buffer lives in c-snippets/jni/jniops.c).
 *
 * What you will see: an operation costs a memcpy, whatever its size, until it nears the buffer's. */
#include "harness/harness.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *check(const struct options *o) {
    if (o->buffer_size == 0) return "jni_ops needs --buffer-size (the study used 4k)";
    const char *misfit = flags_check_operation_fits_buffer(o);
    if (misfit) return misfit;
    if (strcmp(o->pattern, "seq") != 0) return "--pattern rand: jni_ops moves its operations in order (allowed: seq)";
    return NULL;
}

/* Each operation's bytes come straight from the course's pattern (data_source) into the buffer. */
static uint64_t direct_write(const struct options *o) {
    unsigned char *buffer = harness_buffer(o, (size_t)o->buffer_size);
    size_t used = 0;
    int fd = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) harness_io_fail(o);
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = (size_t)(o->file_size - pos < o->op_size ? o->file_size - pos : o->op_size);
        if (used == (size_t)o->buffer_size) { /* full: one system call */
            harness_write_fully(o, fd, buffer, used);
            used = 0;
        }
        memcpy(buffer + used, data_source(pos), n);
        used += n;
    }
    harness_write_fully(o, fd, buffer, used);
    if (close(fd) != 0) harness_io_fail(o);
    free(buffer);
    return 0;
}

static uint64_t direct_read(const struct options *o) {
    unsigned char *buffer = harness_buffer(o, (size_t)o->buffer_size), *op = harness_buffer(o, (size_t)o->op_size);
    size_t next = 0, filled = 0;
    uint64_t used = 0;
    int fd = open(o->file, O_RDONLY);
    if (fd < 0) harness_io_fail(o);
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = (size_t)(o->file_size - pos < o->op_size ? o->file_size - pos : o->op_size);
        if (next == filled) { /* empty: one system call refills it */
            filled = harness_read_fully(o, fd, buffer, (size_t)o->buffer_size);
            next = 0;
        }
        memcpy(op, buffer + next, n);
        next += n;
        used += harness_use(op, n);
    }
    close(fd);
    free(op);
    free(buffer);
    return used;
}

static const struct way ways[] = {
    {"direct", "write", "seq", {.whole = direct_write}},
    {"direct", "read", "seq", {.whole = direct_read}},
    {NULL},
};

int main(int argc, char **argv) {
    return harness_run("jni_ops", ways, argc, argv, check, NULL, NULL);
}
