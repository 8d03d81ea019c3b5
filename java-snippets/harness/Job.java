// Where an MPI job's processes ran (hosts, the CPUs each may run on, the links between nodes), asked outside every
// clock and written into the run record at process 0. Twin: c-snippets/harness/job.c. See Harness.java for the rooms.
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

final class Job {
    /**
     * Where an MPI job's processes ran, as the run record's fields (at process 0; "" for every other run): "hosts":[…]
     * each once, in rank order, "host_procs":[…] and "host_cores":[…] (the CPUs its processes there may run on) in the same
     * order, and, for a job on more than one host, "transport":[…], the links its processes held to other nodes (see nodeLinks).
     */
    static String fields = "";

    /** The kinds of link to another node, as the record names them; bit k of nodeLinks is LINK_KINDS.get(k). */
    static final List<String> LINK_KINDS = List.of("tcp", "verbs", "psm2", "cxi");

    /**
     * The CPUs this process may run on (Cpus_allowed_list in /proc/self/status: "0-3,8"), as CPU_WORDS 64-bit words: its
     * affinity, which a Slurm step's binding, an allocation's cpuset or a container's narrows. All of them where it cannot
     * say. Plain loops, no streams or regular expressions: a JVM just started pays tens of milliseconds to link those.
     */
    static long[] allowedCpus() {
        long[] mask = new long[CPU_WORDS];
        boolean any = false;
        try (var in = Files.newBufferedReader(Path.of("/proc/self/status"))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (!line.startsWith("Cpus_allowed_list:")) continue;
                for (String range : line.substring(18).strip().split(",")) {  // a one-character split takes no regular expression
                    int dash = range.indexOf('-');
                    long first = Long.parseLong(dash < 0 ? range : range.substring(0, dash)), last = dash < 0 ? first : Long.parseLong(range.substring(dash + 1));
                    for (long c = first; c <= last && c < CPU_WORDS * 64; c++) {
                        mask[(int) (c / 64)] |= 1L << (c % 64);
                        any = true;
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            any = false;  // cannot say: all of them, below
        }
        if (!any) java.util.Arrays.fill(mask, -1L);
        return mask;
    }

    static final int CPU_WORDS = 16;  // 1024 CPUs

    /** A loopback address as /proc/net/tcp{,6} writes it (32-bit words in the host's order): 127.x.x.x, ::1 or ::ffff:127.x.x.x. */
    static boolean loopback(String hex) {
        if (hex.length() == 8) return hex.endsWith("7F");
        return hex.length() == 32 && (hex.equals("00000000000000000000000001000000") || hex.startsWith("FFFF0000", 16) && hex.endsWith("7F"));
    }

    /**
     * The links this process holds to other nodes, from its open files (asked outside every clock): a TCP connection
     * between two addresses, neither of them loopback (one to a daemon of this node has one address at both ends), or
     * a network adapter's device: InfiniBand or RoCE verbs, Omni-Path (hfi1), Slingshot (cxi). Bits of LINK_KINDS.
     */
    static long nodeLinks() {
        java.util.Set<String> sockets = new java.util.HashSet<>();
        long links = 0;
        String[] fds = new java.io.File("/proc/self/fd").list();
        if (fds == null) return 0;
        for (String fd : fds) {
            String target;
            try {
                target = Files.readSymbolicLink(Path.of("/proc/self/fd", fd)).toString();
            } catch (IOException e) {
                continue;  // closed since it was listed
            }
            if (target.startsWith("socket:[")) sockets.add(target.substring(8, target.length() - 1));
            if (target.startsWith("/dev/infiniband/uverbs")) links |= 2;
            if (target.startsWith("/dev/hfi1")) links |= 4;
            if (target.startsWith("/dev/cxi")) links |= 8;
        }
        for (String table : new String[] {"/proc/self/net/tcp", "/proc/self/net/tcp6"}) {
            try (var in = Files.newBufferedReader(Path.of(table))) {
                in.readLine();  // sl local:port remote:port st tx:rx tr:when retrnsmt uid timeout inode
                for (String line; (line = in.readLine()) != null; ) {
                    java.util.StringTokenizer f = new java.util.StringTokenizer(line);
                    String[] field = new String[10];
                    for (int i = 0; i < field.length && f.hasMoreTokens(); i++) field[i] = f.nextToken();
                    if (field[9] == null || field[1].indexOf(':') < 0 || field[2].indexOf(':') < 0) continue;
                    String local = field[1].substring(0, field[1].indexOf(':')), remote = field[2].substring(0, field[2].indexOf(':'));
                    if (field[3].equals("01") && !local.equals(remote) && !loopback(remote) && sockets.contains(field[9])) links |= 1;  // 01: established
                }
            } catch (IOException e) {
                // no such table (no IPv6): nothing to read there
            }
        }
        return links;
    }

    /**
     * Where the job's processes ran (at process 0; "" elsewhere; see fields): each process's host name, the CPUs it may run
     * on and its links travel through gather, the one collective every team has in both languages (a name as HOST_WORDS
     * 8-byte words, the CPUs as CPU_WORDS); a host's cores are the CPUs any of its processes may run on.
     */
    static String gather() {
        byte[] name = java.util.Arrays.copyOf(Workers.team.host().getBytes(StandardCharsets.UTF_8), HOST_WORDS * 8);  // zero-padded
        long[][] words = new long[HOST_WORDS][], cpus = new long[CPU_WORDS][];
        for (int w = 0; w < HOST_WORDS; w++) words[w] = Workers.team.gather(ByteBuffer.wrap(name, w * 8, 8).getLong());
        long[] mine = allowedCpus();
        int used = CPU_WORDS;  // the words any process needs (one on a machine of up to 64 CPUs): each collective costs
        while (used > 1 && mine[used - 1] == 0) used--;
        used = (int) -Workers.team.min(-used);
        for (int w = 0; w < used; w++) cpus[w] = Workers.team.gather(mine[w]);
        long[] links = Workers.team.gather(nodeLinks());  // after the gathers above, whose messages made the job's connections
        if (words[0] == null) return "";
        List<String> hosts = new ArrayList<>();
        List<long[]> each = new ArrayList<>();  // per host: {processes, CPU words…}
        long linked = 0;
        for (int rank = 0; rank < words[0].length; rank++) {
            ByteBuffer back = ByteBuffer.allocate(HOST_WORDS * 8);
            for (long[] word : words) back.putLong(word[rank]);
            String host = new String(back.array(), StandardCharsets.UTF_8).replace("\0", "");
            if (!hosts.contains(host)) {
                hosts.add(host);
                each.add(new long[1 + CPU_WORDS]);
            }
            long[] mineThere = each.get(hosts.indexOf(host));
            mineThere[0]++;
            for (int w = 0; w < used; w++) mineThere[1 + w] |= cpus[w][rank];
            linked |= links[rank];
        }
        StringBuilder names = new StringBuilder(), procs = new StringBuilder(), cores = new StringBuilder();
        for (int h = 0; h < hosts.size(); h++) {
            String comma = h == 0 ? "" : ",";
            names.append(comma).append('"').append(hosts.get(h)).append('"');
            procs.append(comma).append(each.get(h)[0]);
            int count = 0;
            for (int w = 0; w < CPU_WORDS; w++) count += Long.bitCount(each.get(h)[1 + w]);
            cores.append(comma).append(count);
        }
        String found = "\"hosts\":[" + names + "],\"host_procs\":[" + procs + "],\"host_cores\":[" + cores + "],";
        if (hosts.size() < 2) return found;
        StringBuilder kinds = new StringBuilder();
        for (int k = 0; k < LINK_KINDS.size(); k++) if ((linked >> k & 1) != 0) kinds.append(kinds.length() == 0 ? "" : ",").append('"').append(LINK_KINDS.get(k)).append('"');
        return found + "\"transport\":[" + kinds + "],";
    }

    static final int HOST_WORDS = 8;  // 64 bytes: the longest host name Linux keeps (HOST_NAME_MAX)
}
