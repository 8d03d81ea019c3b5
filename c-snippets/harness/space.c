/* Memory and scratch space: what a run may hold, whether its folder has room, the file it makes (never through a link,
 * never another's removed), a copy's source, and the page cache a cold run empties. Twin:
 * java-snippets/harness/Space.java. See harness.c for the rooms. */
#define _GNU_SOURCE
#include "rooms.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

struct made space_created;     /* the run's file */
struct made space_copy_source; /* a copy's source (file_copy, lab 10), where the snippet makes one */
char space_sigbus_message[3 * PATH_MAX]; /* made before any I/O: a signal handler may not format text */

static int container_memory(int64_t *limit, int64_t *used);
static void remove_quietly(const struct made *made);

const char *space_default_scratch(void) {
    const char *dir = getenv("COURSE_SCRATCH");
    return dir && *dir ? dir : ".";
}

/* Half of a quarter of RAM, or of a container's memory limit (the JVM's default heap limit; Java takes
 * half of its heap), and half of the address space `ulimit -v` allows. */
int64_t space_memory_limit(void) {
    int64_t limit = (int64_t)sysconf(_SC_PHYS_PAGES) * (int64_t)sysconf(_SC_PAGESIZE), container, used;
    if (container_memory(&container, &used) && container < limit) limit = container;
    limit /= 4;
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY && (int64_t)as.rlim_cur < limit)
        limit = (int64_t)as.rlim_cur;
    return limit / 2;
}

int64_t space_available_memory(void) {
    FILE *meminfo = fopen("/proc/meminfo", "r");
    char line[256];
    long long kb;
    int64_t available = INT64_MAX;
    while (meminfo && fgets(line, sizeof line, meminfo)) {
        if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) available = (int64_t)kb << 10;
    }
    if (meminfo) fclose(meminfo);
    int64_t limit, used;
    if (container_memory(&limit, &used) && limit - used < available) available = limit > used ? limit - used : 0;
    return available;
}

/* The limit and use of this process's cgroup (v2 memory.max and memory.current, else v1's
 * memory.limit_in_bytes and memory.usage_in_bytes); 0 where no limit is set (Java: containerMemory). */
static int container_memory(int64_t *limit, int64_t *used) {
    FILE *self = fopen("/proc/self/cgroup", "r");
    char line[PATH_MAX], dir[PATH_MAX + 64], path[PATH_MAX + 96];
    int found = 0;
    while (self && !found && fgets(line, sizeof line, self)) {
        char *controllers = strchr(line, ':'), *where = controllers ? strchr(controllers + 1, ':') : NULL;
        if (!where) continue;
        *where++ = '\0';
        where[strcspn(where, "\n")] = '\0';
        controllers++;
        int v2 = *controllers == '\0', v1 = 0;
        for (char *c = strtok(controllers, ","); c && !v2; c = strtok(NULL, ",")) v1 |= strcmp(c, "memory") == 0;
        if (!v1 && !v2) continue;
        snprintf(dir, sizeof dir, "%s%s", v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", where);
        char text[64] = "";
        snprintf(path, sizeof path, "%s/%s", dir, v2 ? "memory.max" : "memory.limit_in_bytes");
        FILE *f = fopen(path, "r");
        int read_limit = f && fgets(text, sizeof text, f) != NULL;
        if (f) fclose(f);
        long long value;
        if (!read_limit || sscanf(text, "%lld", &value) != 1 || value >= (INT64_C(1) << 62)) continue; /* "max", or v1's huge "none" */
        snprintf(path, sizeof path, "%s/%s", dir, v2 ? "memory.current" : "memory.usage_in_bytes");
        f = fopen(path, "r");
        long long in_use;
        if (f && fscanf(f, "%lld", &in_use) == 1) {
            *limit = value;
            *used = in_use;
            found = 1;
        }
        if (f) fclose(f);
    }
    if (self) fclose(self);
    return found;
}

/* A buffer, and an operation's array, may each take at most space_memory_limit() (as in Java, where past it an
 * OutOfMemoryError would end the run). */
const char *space_check_memory(const struct options *o) {
    int64_t limit = space_memory_limit();
    const struct { const char *flag; int64_t bytes; } buffers[] = {{"--buffer-size", o->buffer_size}, {"--op-size", o->op_size}};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++) {
        if (buffers[i].bytes > limit) {
            char size[32];
            snprintf(harness_message, sizeof harness_message, "%s %s: larger than memory allows here (at most %" PRId64
                     "m, half of a quarter of RAM or of ulimit -v)", buffers[i].flag, flags_human(buffers[i].bytes, size, sizeof size), limit >> 20);
            return harness_message;
        }
    }
    return NULL;
}

/* The file must be new (the harness removes what it creates; a link, even to nowhere, counts as there)
 * and its folder must have room. */
const char *space_check_scratch(const struct options *o) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", o->file);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(harness_message, sizeof harness_message, "scratch folder %s does not exist", dir);
        return harness_message;
    }
    if (access(dir, W_OK) != 0) {
        snprintf(harness_message, sizeof harness_message, "scratch folder %s is not writable", dir);
        return harness_message;
    }
    struct stat existing;
    if (lstat(o->file, &existing) == 0) {
        snprintf(harness_message, sizeof harness_message, "--file %s already exists (the harness only writes files it creates)", o->file);
        return harness_message;
    }
    int64_t margin = DEFAULT_MARGIN;
    const char *margin_text = getenv("COURSE_SCRATCH_MARGIN");
    if (margin_text && *margin_text) {  /* set but empty counts as unset, as a shell's `COURSE_SCRATCH_MARGIN= make lab` means */
        const char *error = flags_parse_size("COURSE_SCRATCH_MARGIN", margin_text, 0, MAX_MARGIN, &margin);
        if (error) return error;
    }
    struct statvfs fs;
    if (statvfs(dir, &fs) != 0) {
        snprintf(harness_message, sizeof harness_message, "cannot read the free space of %s: %s", dir, strerror(errno));
        return harness_message;
    }
    int64_t free_bytes = (int64_t)fs.f_bavail * (int64_t)fs.f_frsize;
    if (o->file_size + margin > free_bytes) {
        char need[32], extra[32];
        snprintf(harness_message, sizeof harness_message, "not enough free space in %s: the run needs %s plus a margin of %s, "
                 "but only %" PRId64 " bytes are free", dir, flags_human(o->file_size, need, sizeof need),
                 flags_human(margin, extra, sizeof extra), free_bytes);
        return harness_message;
    }
    return NULL;
}

int space_evict(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    int status = fsync(fd) == 0 && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 ? 0 : -1;
    close(fd);
    return status;
}

double space_resident_pct(const char *path) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0) return -1;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return -1;
    }
    if (st.st_size == 0) {
        close(fd);
        return 0;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = ((size_t)st.st_size + page - 1) / page;
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    unsigned char *in_core = malloc(pages);
    int ok = map != MAP_FAILED && in_core && mincore(map, (size_t)st.st_size, in_core) == 0;
    size_t resident = 0;
    for (size_t i = 0; ok && i < pages; i++) resident += in_core[i] & 1;
    if (map != MAP_FAILED) munmap(map, (size_t)st.st_size);
    free(in_core);
    return ok ? 100.0 * (double)resident / (double)pages : -1;
}

const char *space_source(const struct options *o) {
    static char path[PATH_MAX + sizeof SOURCE_SUFFIX];
    snprintf(path, sizeof path, "%s" SOURCE_SUFFIX, o->file);
    return path;
}

void space_write_source(const struct options *o) {
    const char *path = space_source(o);
    if (space_claim(path, &space_copy_source) != 0) harness_io_fail(o);
    if (!o->keep) snprintf(space_copy_source.path, sizeof space_copy_source.path, "%s", path); /* ours now: it goes on every way out */
    if (data_write_file(path, o->file_size) != 0) harness_io_fail(o);
}

/* Makes the file, empty, where none was (O_EXCL: not through a link either), and remembers which it is. */
int space_claim(const char *path, struct made *made) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    struct stat st;
    if (fd < 0) return -1;
    int ok = fstat(fd, &st) == 0;
    if (close(fd) != 0 || !ok) return -1;
    made->dev = st.st_dev;
    made->ino = st.st_ino;
    made->known = 1;
    return 0;
}

/* Removes what the run made: its file and, where it made one, a copy's source (safe in a signal handler). */
void space_remove_made(void) {
    remove_quietly(&space_created);
    remove_quietly(&space_copy_source);
}

/* Removes a file: a regular one, and the very one this process made when it made one (lstat and unlink
 * are safe in a signal handler). */
static void remove_quietly(const struct made *made) {
    struct stat st;
    if (!made->path[0] || lstat(made->path, &st) != 0 || !S_ISREG(st.st_mode)) return;
    if (made->known && (st.st_dev != made->dev || st.st_ino != made->ino)) return;
    unlink(made->path);
}

void space_on_signal(int sig) {
    space_remove_made();
    _exit(128 + sig);
}

void space_on_sigbus(int sig) {
    (void)sig;
    ssize_t ignored = write(STDERR_FILENO, space_sigbus_message, strlen(space_sigbus_message));
    (void)ignored;
    space_remove_made();
    _exit(1);
}

