/* Where an MPI job's processes ran (hosts, the CPUs each may run on, the links between nodes), asked outside every clock
 * and written into the run record at process 0. Twin: java-snippets/harness/Job.java. See harness.c for the rooms. */
#define _GNU_SOURCE
#include "rooms.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where an MPI job's processes ran, as the run record's fields (at process 0; empty for every other run):
 * "hosts":[…] each once, in rank order, "host_procs":[…] and "host_cores":[…] (the CPUs its processes there may run on) in the same order, and, for a job on
 * more than one host, "transport":[…], the links its processes held to other nodes (see node_links). */
char job_fields[JOB_FIELDS_SIZE];

/* The kinds of link to another node, as the record names them; bit k of node_links is LINK_KINDS[k]. */
static const char *const LINK_KINDS[] = {"tcp", "verbs", "psm2", "cxi"};

/* The CPUs this process may run on (Cpus_allowed_list in /proc/self/status: "0-3,8"), as CPU_WORDS 64-bit words: its
 * affinity, which a Slurm step's binding, an allocation's cpuset or a container's narrows. All of them where it cannot say. */
#define CPU_WORDS 16 /* 1024 CPUs */
static void allowed_cpus(uint64_t mask[CPU_WORDS]) {
    char *line = NULL; /* whole, however many CPUs it lists */
    size_t size = 0;
    memset(mask, 0, CPU_WORDS * sizeof *mask);
    FILE *status = fopen("/proc/self/status", "r");
    while (status && getline(&line, &size, status) > 0) {
        if (strncmp(line, "Cpus_allowed_list:", 18) != 0) continue;
        for (char *range = strtok(line + 18, ",\n"); range; range = strtok(NULL, ",\n")) {
            long first = strtol(range, &range, 10), last = *range == '-' ? strtol(range + 1, NULL, 10) : first;
            for (long c = first; c <= last && c < CPU_WORDS * 64; c++) mask[c / 64] |= 1ULL << (c % 64);
        }
    }
    if (status) fclose(status);
    free(line);
    int any = 0;
    for (int w = 0; w < CPU_WORDS; w++) any |= mask[w] != 0;
    if (!any) memset(mask, 0xff, CPU_WORDS * sizeof *mask);
}

/* A loopback address as /proc/net/tcp{,6} writes it (32-bit words in the host's order): 127.x.x.x, ::1 or ::ffff:127.x.x.x. */
static int loopback(const char *hex) {
    size_t n = strlen(hex);
    if (n == 8) return strcmp(hex + 6, "7F") == 0;
    return n == 32 && (strcmp(hex, "00000000000000000000000001000000") == 0 || (strncmp(hex + 16, "FFFF0000", 8) == 0 && strcmp(hex + 30, "7F") == 0));
}

/* The links this process holds to other nodes, from its open files (asked outside every clock): a TCP connection
 * between two addresses, neither of them loopback (one to a daemon of this node has one address at both ends), or a
 * network adapter's device: InfiniBand or RoCE verbs, Omni-Path (hfi1), Slingshot (cxi). Bits of LINK_KINDS. */
static int64_t node_links(void) {
    static char sockets[65536]; /* " inode inode … ": this process's sockets */
    int64_t links = 0;
    DIR *fds = opendir("/proc/self/fd");
    if (!fds) return 0;
    strcpy(sockets, " ");
    for (struct dirent *e; (e = readdir(fds));) {
        char path[300], target[256];
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = '\0';
        if (strncmp(target, "socket:[", 8) == 0 && strlen(sockets) + strlen(target) < sizeof sockets)
            snprintf(sockets + strlen(sockets), sizeof sockets - strlen(sockets), "%.*s ", (int)(strlen(target) - 9), target + 8);
        if (strncmp(target, "/dev/infiniband/uverbs", 22) == 0) links |= 2;
        if (strncmp(target, "/dev/hfi1", 9) == 0) links |= 4;
        if (strncmp(target, "/dev/cxi", 8) == 0) links |= 8;
    }
    closedir(fds);
    static const char *const tables[] = {"/proc/self/net/tcp", "/proc/self/net/tcp6"};
    for (int t = 0; t < 2; t++) {
        FILE *table = fopen(tables[t], "r");
        if (!table) continue;
        char line[512], local[64], remote[64], state[8], inode[32];
        while (fgets(line, sizeof line, table)) { /* sl local:port remote:port st tx:rx tr:when retrnsmt uid timeout inode */
            if (sscanf(line, " %*s %63[0-9A-Fa-f]:%*s %63[0-9A-Fa-f]:%*s %7s %*s %*s %*s %*s %*s %31s", local, remote, state, inode) != 4) continue;
            char needle[40];
            snprintf(needle, sizeof needle, " %s ", inode);
            if (strcmp(state, "01") == 0 && strcmp(local, remote) != 0 && !loopback(remote) && strstr(sockets, needle)) links |= 1; /* 01: established */
        }
        fclose(table);
    }
    return links;
}

/* Adds to job what format says, never past its end. */
static void add_field(const char *format, ...) {
    size_t n = strlen(job_fields);
    va_list args;
    va_start(args, format);
    vsnprintf(job_fields + n, sizeof job_fields - n, format, args);
    va_end(args);
}

/* Where the job's processes ran (at process 0; see job_fields): each process's host name, the CPUs it may run on and its
 * links travel through gather, the one collective every team has in both languages (a name as HOST_WORDS 8-byte
 * words, the CPUs as CPU_WORDS); a host's cores are the CPUs any of its processes may run on. */
void job_gather(void) {
    static int64_t words[HOST_WORDS][MAX_PROCS], cpus[CPU_WORDS][MAX_PROCS], links[MAX_PROCS];
    static char names[MAX_PROCS][HOST_WORDS * 8 + 1];
    static uint64_t host_cpus[MAX_PROCS][CPU_WORDS];
    unsigned char name[HOST_WORDS * 8] = {0}; /* zero-padded */
    const char *host = workers_team->host();
    memcpy(name, host, strnlen(host, sizeof name)); /* a longer name is cut at 64 bytes */
    for (int w = 0; w < HOST_WORDS; w++) {
        int64_t word = 0;
        for (int b = 0; b < 8; b++) word = (int64_t)((uint64_t)word << 8 | name[w * 8 + b]); /* big-endian, as Java's ByteBuffer */
        workers_team->gather(word, words[w]);
    }
    uint64_t mine[CPU_WORDS];
    allowed_cpus(mine);
    int64_t used = CPU_WORDS; /* the words any process needs (one on a machine of up to 64 CPUs): each collective costs */
    while (used > 1 && mine[used - 1] == 0) used--;
    used = -workers_team->min(-used);
    for (int w = 0; w < used; w++) workers_team->gather((int64_t)mine[w], cpus[w]);
    workers_team->gather(node_links(), links); /* after the gathers above, whose messages made the job's connections */
    if (workers_team->rank() != 0) return;
    int64_t hosts = 0, procs[MAX_PROCS] = {0}, linked = 0;
    memset(host_cpus, 0, sizeof host_cpus);
    for (int64_t rank = 0; rank < workers_team->size(); rank++) {
        char seen[HOST_WORDS * 8 + 1];
        for (int w = 0; w < HOST_WORDS; w++)
            for (int b = 0; b < 8; b++) seen[w * 8 + b] = (char)((uint64_t)words[w][rank] >> (56 - 8 * b));
        seen[HOST_WORDS * 8] = '\0';
        int64_t h = 0;
        while (h < hosts && strcmp(names[h], seen) != 0) h++;
        if (h == hosts) strcpy(names[hosts++], seen);
        procs[h]++;
        for (int w = 0; w < used; w++) host_cpus[h][w] |= (uint64_t)cpus[w][rank];
        linked |= links[rank];
    }
    job_fields[0] = '\0';
    for (int64_t h = 0; h < hosts; h++) add_field(h ? ",\"%s\"" : "\"hosts\":[\"%s\"", names[h]);
    for (int64_t h = 0; h < hosts; h++) add_field(h ? ",%" PRId64 : "],\"host_procs\":[%" PRId64, procs[h]);
    for (int64_t h = 0; h < hosts; h++) {
        int64_t cores = 0;
        for (int w = 0; w < CPU_WORDS; w++) cores += __builtin_popcountll(host_cpus[h][w]);
        add_field(h ? ",%" PRId64 : "],\"host_cores\":[%" PRId64, cores);
    }
    add_field("],");
    if (hosts < 2) return;
    add_field("\"transport\":[");
    for (int k = 0, any = 0; k < 4; k++)
        if (linked >> k & 1) add_field(any++ ? ",\"%s\"" : "\"%s\"", LINK_KINDS[k]);
    add_field("],");
}

