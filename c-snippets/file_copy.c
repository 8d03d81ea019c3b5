/* file_copy (lab 10): copying a file. Before any run the harness makes the source beside --file (its name
 * plus ".source", filled with the course's data) and, as for every write, removes --file before each run;
 * a strategy makes --file anew and copies the whole source into it, and the harness sums the copy after the clock stops.
 *   loop             read() / write() of one --op-size buffer: the copy a program writes by hand
 *   copy-file-range  copy_file_range(): the kernel copies inside itself (and may clone, where the file system can)
 *   sendfile         sendfile(): the kernel copies through its own buffer, from a file to any descriptor
 * Twin: java-snippets/FileCopy.java (loop, transfer, files-copy).
 *
 * What you will see: the loop moves every byte through the program's buffer, twice across the kernel's
 * boundary; the others ask the kernel to copy inside itself. On a file system that can share blocks
 * (Btrfs, XFS with reflink) copy_file_range may clone instead: no bytes move, and MB/s stops meaning much. */
#define _GNU_SOURCE /* copy_file_range */
#include "harness/harness.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <stdio.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *check(const struct options *o) {
    static char message[3 * PATH_MAX];
    if (strcmp(o->op, "write") != 0) {
        snprintf(message, sizeof message, "--op %s: file_copy writes a copy (allowed: write)", o->op);
        return message;
    }
    if (strcmp(o->pattern, "seq") != 0) {
        snprintf(message, sizeof message, "--pattern %s: file_copy copies in order (allowed: seq)", o->pattern);
        return message;
    }
    struct stat st;
    if (lstat(space_source(o), &st) == 0) {
        snprintf(message, sizeof message, "--file %s: %s already exists (file_copy makes its source there and overwrites nothing)",
                 o->file, space_source(o));
        return message;
    }
    return NULL;
}

/* The source and the copy, opened by the frame for the way. */
static int in, out;

static uint64_t loop(const struct options *o) {
    unsigned char *buf = harness_buffer(o, (size_t)o->op_size);
    for (size_t n; (n = harness_read_fully(o, in, buf, (size_t)o->op_size)) > 0;) harness_write_fully(o, out, buf, n);
    free(buf);
    return 0;
}

static uint64_t copy_range(const struct options *o) {
    for (int64_t done = 0; done < o->file_size;) {
        ssize_t n = copy_file_range(in, NULL, out, NULL, (size_t)(o->file_size - done), 0);
        if (n <= 0) harness_io_fail(o);
        done += n;
    }
    return 0;
}

static uint64_t send_file(const struct options *o) {
    for (int64_t done = 0; done < o->file_size;) {
        ssize_t n = sendfile(out, in, NULL, (size_t)(o->file_size - done));
        if (n <= 0) harness_io_fail(o);
        done += n;
    }
    return 0;
}

/* Timed whole, around every way: opens the source, makes --file anew, and closes both when the way is done. */
static uint64_t frame(const struct options *o, union way_fn fn) {
    in = open(space_source(o), O_RDONLY);
    out = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0) harness_io_fail(o);
    uint64_t used = fn.whole(o);
    if (close(out) != 0) harness_io_fail(o);
    close(in);
    return used;
}

static const struct way ways[] = {
    {"loop", "write", "seq", {.whole = loop}},
    {"copy-file-range", "write", "seq", {.whole = copy_range}},
    {"sendfile", "write", "seq", {.whole = send_file}},
    {NULL},
};

int main(int argc, char **argv) {
    return harness_run("file_copy", ways, argc, argv, check, space_write_source, frame);
}
