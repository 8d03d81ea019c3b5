package course.record;

import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** The MPI jobs among some runs: the nodes they ran on, how many processes each had and the cores they could run on there, what joined the nodes. */
public record Jobs(List<Run> runs) {
    /** How the run record names each link between nodes, in words. */
    private static final Map<String, String> LINKS = Map.of("tcp", "TCP", "verbs", "InfiniBand or RoCE (verbs)", "psm2", "Omni-Path (PSM2)", "cxi", "Slingshot (CXI)");

    public static Jobs of(Results results) {
        return of(List.of(results));
    }

    /** The jobs of several sweeps, in their order. */
    public static Jobs of(List<Results> sweeps) {
        return new Jobs(sweeps.stream().flatMap(s -> s.typed().stream()).filter(r -> r.procs() > 0).toList());
    }

    /** The hosts these jobs ran on, each once, in the order first met; empty where none ran. */
    public List<String> hosts() {
        return runs.stream().flatMap(r -> r.hosts().stream()).distinct().toList();
    }

    /**
     * "4 processes on 2 nodes (2 on node-a, 2 on node-b) over TCP": the largest job, where its processes ran and what
     * joined its nodes; "" where none ran.
     */
    public String largest() {
        return largestRun().map(r -> r.procs() + " process" + (r.procs() == 1 ? "" : "es") + " on " + where(r)).orElse("");
    }

    private Optional<Run> largestRun() {
        return runs.stream().max(Comparator.comparingInt(Run::procs));
    }

    private static String where(Run r) {
        List<String> hosts = r.hosts();
        if (hosts.isEmpty()) return "one node (hosts not recorded)";
        if (hosts.size() == 1) return "1 node (" + hosts.get(0) + ")";
        long[] procs = r.hostProcs();
        if (procs == null) return hosts.size() + " nodes (" + String.join(", ", hosts) + ")";
        String each = IntStream.range(0, hosts.size()).mapToObj(h -> procs[h] + " on " + hosts.get(h)).collect(Collectors.joining(", "));
        return hosts.size() + " nodes (" + each + ") over " + links(r);
    }

    /** "TCP": what joined a job's nodes, in words. */
    private static String links(Run r) {
        List<String> links = r.transport().stream().map(LINKS::get).toList();
        return links.isEmpty() ? "no link the harness knows" : String.join(" and ", links);
    }

    /**
     * The most processes among counts whose jobs here all had a core each (Run.aCoreEach: on a cluster, per node); a
     * count with no job yet, where it is at most localCores; 0 where none.
     */
    public int mostWithACoreEach(List<Integer> counts, int localCores) {
        return counts.stream().filter(c -> {
            List<Run> jobs = runs.stream().filter(r -> r.procs() == c).toList();
            return jobs.isEmpty() ? c <= localCores : jobs.stream().allMatch(r -> r.aCoreEach(localCores));
        }).max(Integer::compare).orElse(0);
    }

    /** The cores the largest job's processes could run on, in all, where it ran on several nodes and recorded them; else localCores. */
    public int cores(int localCores) {
        return spansNodes() ? (int) Arrays.stream(largestRun().orElseThrow().hostCores()).sum() : localCores;
    }

    /** Whether the largest job ran on several nodes and recorded each one's cores. */
    public boolean spansNodes() {
        return largestRun().filter(r -> r.hosts().size() > 1 && r.hostCores() != null).isPresent();
    }

    /**
     * The machine card's rows for MPI: "mpi nodes" (on several, each with its processes in the largest job and the cores
     * they had there), "mpi transport" (what joined them) and "mpi-io" (the MPI-IO implementations C's runs went
     * through); none where no job ran.
     */
    public Map<String, String> card() {
        Map<String, String> rows = new LinkedHashMap<>();
        List<String> hosts = hosts();
        if (hosts.isEmpty()) return rows;
        Run largest = largestRun().orElseThrow();
        List<String> itsHosts = largest.hosts();  // the largest job's, in its order: its processes and cores follow it
        long[] procs = largest.hostProcs(), cores = largest.hostCores();
        boolean detailed = hosts.size() > 1 && procs != null && cores != null && new java.util.HashSet<>(itsHosts).equals(new java.util.HashSet<>(hosts));
        rows.put("mpi nodes", hosts.size() + " (" + (!detailed ? String.join(", ", hosts)
                : IntStream.range(0, itsHosts.size()).mapToObj(h -> itsHosts.get(h) + ": " + procs[h] + (procs[h] == 1 ? " process on " : " processes on ")
                    + cores[h] + (cores[h] == 1 ? " core" : " cores")).collect(Collectors.joining("; "))) + ")");
        if (detailed) rows.put("mpi transport", links(largest));
        String io = runs.stream().map(Run::mpiIo).filter(java.util.Objects::nonNull).distinct().collect(Collectors.joining(", "));
        if (!io.isEmpty()) rows.put("mpi-io", io);
        return rows;
    }
}
