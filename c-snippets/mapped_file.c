/* mapped_file (lab 10): reading a file through memory mappings. A run maps the file one --op-size block at
 * a time, read-only, copies the block into the program's own buffer (where read() would have put it) and
 * hands that to harness_use; so the clock holds the mapping, its page faults, the copy and the unmapping.
 *   mmap       mmap, memcpy, munmap per block
 *   mmap-load  the same with what Java's MemorySegment.load() does first: madvise(MADV_WILLNEED) over the
 *              block, then a touch of each page, so the pages are in before the copy
 * Twin: java-snippets/MappedFile.java (buffer, segment, segment-load).
 *
 * What you will see: from a warm page cache every way costs a page fault per page and a copy; from a
 * cold cache, the hint decides how the disk is asked. */
#define _GNU_SOURCE
#include "harness/harness.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *check(const struct options *o) {
    static char message[200];
    if (strcmp(o->op, "read") != 0) {
        snprintf(message, sizeof message, "--op %s: mapped_file reads (allowed: read; lab 07 measures mapped writes)", o->op);
        return message;
    }
    if (strcmp(o->pattern, "seq") != 0) {
        snprintf(message, sizeof message, "--pattern %s: mapped_file maps the file in order (allowed: seq)", o->pattern);
        return message;
    }
    return NULL;
}

/* MemorySegment.load(): ask for the pages, then touch each one. */
static void load(const char *map, size_t length, size_t page, const struct options *o) {
    if (madvise((void *)map, length, MADV_WILLNEED) != 0) harness_io_fail(o);
    volatile char touched = 0;
    for (size_t at = 0; at < length; at += page) touched ^= map[at];
}

/* Each block mapped, copied and unmapped; mmap-load loads it first. */
static uint64_t map_blocks(const struct options *o) {
    int load_first = strcmp(o->strategy, "mmap-load") == 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *buf = harness_buffer(o, (size_t)o->op_size);
    uint64_t used = 0;
    int fd = open(o->file, O_RDONLY);
    if (fd < 0) harness_io_fail(o);
    for (int64_t pos = 0; pos < o->file_size; pos += o->op_size) {
        size_t n = (size_t)(o->file_size - pos < o->op_size ? o->file_size - pos : o->op_size);
        size_t skew = (size_t)pos % page, length = skew + n; /* a mapping starts on a page: Java's map does this too */
        char *map = mmap(NULL, length, PROT_READ, MAP_SHARED, fd, pos - (int64_t)skew);
        if (map == MAP_FAILED) harness_io_fail(o);
        if (load_first) load(map, length, page, o);
        memcpy(buf, map + skew, n);
        if (munmap(map, length) != 0) harness_io_fail(o);
        used += harness_use(buf, n);
    }
    if (close(fd) != 0) harness_io_fail(o);
    free(buf);
    return used;
}

static const struct way ways[] = {
    {"mmap", "read", "seq", {.whole = map_blocks}},
    {"mmap-load", "read", "seq", {.whole = map_blocks}},
    {NULL},
};

int main(int argc, char **argv) {
    return harness_run("mapped_file", ways, argc, argv, check, NULL, NULL);
}
