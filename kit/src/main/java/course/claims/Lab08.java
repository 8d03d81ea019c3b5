package course.claims;

import course.Guess;
import course.Lab;
import course.judge.Context;
import course.judge.Estimate;
import course.judge.Verdict;
import course.judge.Why;
import course.record.FileSystemKind;
import course.record.Jobs;
import course.record.Results;
import course.show.Charts;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Lab 08's figures and claims (Bonachea et al. §4, §7; Awan et al. Fig 7: MPI processes on one shared file): the
 * studies' bandwidths beside this machine's (no verdict), then their claims, judged on the Java and C runs over
 * process counts (`javaRuns`, `cRuns`, counts `procs`) and the cold reads (`cold`). A claim about scaling needs as
 * many processes as it names, each with a core: on a smaller machine its row says so.
 */
public final class Lab08 {
    private Lab08() {
    }

    public static void judge(Lab lab, Results javaRuns, Results cRuns, Results cold, List<Integer> procs) {
        String mpiIo = cRuns.typed().stream().map(r -> r.mpiIo()).filter(java.util.Objects::nonNull).findFirst().orElse(null);
        String judgedOn = judgedOn(lab, javaRuns, mpiIo) + " " + whatTheFileSystemMeans(lab.machine(), mpiIo);
        course.show.Notebook.html("<p>" + course.base.Html.escape(judgedOn) + "</p>", judgedOn);
        lab.thenAndHere(thenAndHere(lab, javaRuns, cRuns).toArray(Context[]::new));
        lab.verdicts(Lab08.class, verdicts(lab, javaRuns, cold, procs));
    }

    /** Open MPI's name for each MPI-IO implementation a run's mpi_io names. */
    static final Map<String, String> MPI_IO = Map.of("ompio", "Open MPI's OMPIO", "romio", "ROMIO");

    /** What this run judged on: its largest job, where its processes ran, the file system that held the shared file and what C's MPI-IO went through. */
    static String judgedOn(Lab lab, Results javaRuns, String mpiIo) {
        return "Judged on: MPI jobs of up to " + Jobs.of(javaRuns).largest() + ", the shared file on " + lab.machine().get("filesystem")
                + " (the scratch folder's file system, as the node that started the jobs saw it)"
                + (MPI_IO.containsKey(mpiIo) ? ", C's MPI-IO through " + MPI_IO.get(mpiIo) : "") + ".";
    }

    /**
     * What the file system that held the shared file (the machine card's) does to this lab's figures, in a few
     * sentences: the studies' file systems were NFS (Awan et al. §V.B) and parallel ones (Bonachea et al. §1.1, §4.1).
     * What Open MPI does on NFS is read in its source (fs/ufs and fbtl/posix, versions 3.1 to 5.0).
     */
    static String whatTheFileSystemMeans(Map<String, String> machine, String mpiIo) {
        String fs = machine.get("filesystem");
        return switch (FileSystemKind.of(fs)) {
            case NFS -> "Several nodes writing one file on " + fs + " stay consistent only under locks: Awan et al. locked each process's region with"
                + " FileLock (here: .locks(\"region\")) and mounted their NFSv3 with -noac, attribute caching off, for consistent metadata at a cost"
                + " (§V.B). " + nfsMount(machine.getOrDefault("mount options", "unknown")) + " " + switch (String.valueOf(mpiIo)) {
                    case "romio" -> "C's MPI-IO went through ROMIO, which on NFS locks only the bytes each call moves.";
                    case "ompio" -> "C's MPI-IO went through Open MPI's OMPIO, which on NFS locks the whole file around every read and write, so C's"
                        + " independent and collective runs measure that lock as much as the server (--mca fs_ufs_lock_algorithm 3 in COURSE_MPI_ARGS"
                        + " locks only the partial file-system blocks at the two ends of each call, and nothing when a call is block-aligned, as this"
                        + " lab's 1 MB blocks are).";
                    default -> "Open MPI's OMPIO locks the whole file around every read and write on NFS (ROMIO only the bytes each call moves).";
                };
            case NETWORK -> fs + " is one server's disks shared over the network: several clients' writes to one file are as consistent as its"
                + " caching and locks make them, and its server sets the ceiling. The studies measured NFS (Awan et al. §V.B), not " + fs + ".";
            case PARALLEL -> fs + " stripes each file over several servers' disks, the kind of file system Bonachea et al. assumed (§1.1; Awan et al."
                + " measured none, §VII). Where the MPI has a driver for it (Lustre, GPFS, PanFS, PVFS2), MPI-IO knows the striping; Java's channels"
                + " make plain POSIX calls. How many servers a file is striped over (lfs getstripe on Lustre) sets the ceiling.";
            case MEMORY -> fs + " keeps files in memory: no process waits for a disk, forced writes included, so the figures are memory's and"
                + " the claims about shared storage are not measured here.";
            case LOCAL -> fs + " is one machine's own disk: however many processes (or nodes) share the file, they share one device, so \"parallel\""
                + " is that disk's bandwidth divided. The studies measured shared file systems; their claims about how one scales are not measured"
                + " here (point COURSE_SCRATCH at NFS, Lustre or GPFS: see The same lab on a cluster).";
        };
    }

    /** What an NFS mount's options (the machine card's, "rw,vers=3,noac,…") say of its caching and locks, option by option. */
    static String nfsMount(String options) {
        if (options.equals("unknown")) return "This mount's options are not known here (findmnt -T $COURSE_SCRATCH shows them).";
        List<String> each = List.of(options.split(","));
        boolean localLocks = each.contains("nolock") || each.contains("local_lock=all") || each.contains("local_lock=posix");
        return "This mount " + (each.contains("noac") ? "has noac" : "caches attributes (no noac)")
            + (localLocks ? " and keeps its locks on one node (nolock or local_lock): locked runs from several nodes are not safe." : ".");
    }

    /**
     * The studies' claims about how a shared file system behaves under more processes: judged only where the shared file was
     * on one and the jobs spanned nodes, so that it had several clients, as the study's NFS did.
     */
    static Verdict onASharedFileSystem(Lab lab, String claimId, boolean spansNodes, java.util.function.Supplier<Verdict> judge) {
        String fs = lab.machine().get("filesystem");
        boolean shared = FileSystemKind.of(fs).shared();
        String about = "Awan et al.'s processes wrote and read one file on NFS from the nodes of a cluster (§V.B), and this claim is about how"
            + " that file system behaved under more of them; ";
        return Verdict.when(shared && spansNodes, lab.claim(claimId), about + "the shared file here was on " + fs + (shared
            ? ", but every process ran on this one machine, one client of it: run the lab on several nodes"
            : ", not a file system several nodes share: point COURSE_SCRATCH at one") + " (see The same lab on a cluster).", judge);
    }

    public static List<Context> thenAndHere(Lab lab, Results javaRuns, Results cRuns) {
        Jobs jobs = Jobs.of(javaRuns);
        String fewCores = (jobs.spansNodes() ? "The largest job's processes could run on " + jobs.cores(lab.cores()) + " cores in all, on " + jobs.hosts().size() + " nodes"
            : "This machine has " + lab.cores() + " cores") + ": the studies' 16 to 64 processes each had a processor of their own.";
        Results viewDirect = javaRuns.strategies("view-direct");
        String jitted = "A JIT compiles readInt and writeInt to a few instructions; on the study's JDK 1.1 JVMs (§4.1) each call went through"
            + " several methods and took a lock (§7.1).";
        return List.of(
            Context.rate(lab.claim("bonachea.typed-array.sp-raw-bytes-read.16"), viewDirect.where("op", "read").max("study_mb_per_s"),
                "The SP's parallel file system behind 4 I/O processors (16 disks), against one machine's page cache. " + fewCores),
            Context.rate(lab.claim("bonachea.typed-array.origin-raw-bytes-read.16"), viewDirect.where("op", "read").max("study_mb_per_s"),
                "The Origin2000's 110 disks against one machine's page cache."),
            Context.rate(lab.claim("bonachea.typed-array.sp-raw-bytes-write.32"), viewDirect.where("op", "write").max("study_mb_per_s"),
                "One modern disk, forced per process, against the SP's 16 disks behind 4 I/O processors."),
            Context.rate(lab.claim("bonachea.bulk-io.sp-jni-write.32"), javaRuns.where("op", "write").strategies("bulk").max("study_mb_per_s"),
                "The disk, not the call, sets write speed here."),
            Context.rate(lab.claim("bonachea.bulk-io.sp-c-write.32"), cRuns.where("op", "write").strategies("posix").max("study_mb_per_s"),
                "The disk, not the call, sets write speed here."),
            Context.rate(lab.claim("bonachea.typed-array.origin-buffered-stream-read"), javaRuns.where("op", "read").strategies("streams").max("study_mb_per_s"), jitted),
            Context.rate(lab.claim("bonachea.typed-array.origin-buffered-stream-write"), javaRuns.where("op", "write").strategies("streams").max("study_mb_per_s"), jitted),
            Context.rate(lab.claim("awan.mpi-processes.mapped-read-max"), javaRuns.strategies("mapped").where("op", "read").where("procs", "4").max("study_mb_per_s"),
                FileSystemKind.of(lab.machine().get("filesystem")).shared() ? "4 processes reading your " + lab.machine().get("filesystem")
                    + ", against the study's NFS over InfiniBand." : "4 processes reading one machine's page cache, against NFS over InfiniBand."));
    }

    public static List<Verdict> verdicts(Lab lab, Results javaRuns, Results cold, List<Integer> procs) {
        int withCores = lab.mostWithACoreEach(procs, javaRuns);  // on a cluster, per node
        boolean spansNodes = Jobs.of(javaRuns).spansNodes();
        return List.of(
            onASharedFileSystem(lab, "awan.mpi-processes.write-scaling-start", spansNodes, () -> Verdict.withCores(lab.claim("awan.mpi-processes.write-scaling-start"), withCores, 3, () -> Verdict.above(lab.claim("awan.mpi-processes.write-scaling-start"),
                    Estimate.of(d -> d.from(javaRuns).where("op", "write").where("procs", withCores).max("wall_mb_per_s")
                        / d.from(javaRuns).where("op", "write").where("procs", "2").max("wall_mb_per_s")),
                    "the best Java write by the wall clock with " + withCores + " processes: %s its rate with 2",
                    Why.ifLower("More writers added no bandwidth: the file system's server, or its one path to the disks, was already busy."))))
                .withReading("\"Improved as we increased the number of processes from 2\" as: the best Java write by the wall clock, with as many processes as have a"
                    + " core each (3 at least), faster than with 2."),
            onASharedFileSystem(lab, "awan.mpi-processes.write-drop-beyond-8", spansNodes, () -> Verdict.withCores(lab.claim("awan.mpi-processes.write-drop-beyond-8"), withCores, 9, () -> Verdict.below(lab.claim("awan.mpi-processes.write-drop-beyond-8"),
                    Estimate.of(d -> d.from(javaRuns).where("op", "write").where("procs", withCores).max("wall_mb_per_s")
                        / d.from(javaRuns).where("op", "write").where("procs", "8").max("wall_mb_per_s")),
                    "the best Java write by the wall clock with " + withCores + " processes: %s its rate with 8",
                    Why.ifHigher("More writers kept adding bandwidth here: the file system's servers had room to spare, where the study's one NFS path did not."))))
                .withReading("\"Decreased as we increased number of processes beyond 8\" as: the best Java write by the wall clock, with as many processes as have a core each (9 at least),"
                    + " slower than with 8."),
            onASharedFileSystem(lab, "awan.mpi-processes.read-trend-like-write", spansNodes, () -> Verdict.withCores(lab.claim("awan.mpi-processes.read-trend-like-write"), withCores, 2, () -> Verdict.near(lab.claim("awan.mpi-processes.read-trend-like-write"),
                    Estimate.of(d -> readGainOverWriteGain(d.from(javaRuns), withCores)),
                    "reads' gain from 1 to " + withCores + " processes over writes' (wall clock, geometric mean over the Java ways; reading: a similar"
                        + " pattern is a similar gain): %s",
                    Why.ifHigher("Reads gained more from more processes than writes did: each forced write waits until the server holds it on disk.")
                       .orIfLower("Writes gained more from more processes than reads did: reads served from the client's cache were already as fast as one core copies."))))
                .withReading("\"Read performance had similar results\" as a similar gain: what each Java way's reads gained by the wall clock from 1 process to as many"
                    + " as have a core each, over its writes' gain (geometric mean), within ×1.25."),
            Verdict.below(lab.claim("awan.mpi-processes.read-above-write"),
                Estimate.of(d -> d.from(cold).where("language", "java").strategies("view-direct")
                    .ratioTo(d.from(javaRuns).where("op", "write").strategies("view-direct"), "median_ms", "op", "cache")),
                "cold reads took %s the time of forced writes (Java's direct view buffer, geometric mean over process counts; the claim's first"
                    + " half: reads faster)",
                Why.ifHigher("Reading this device is no faster than writing it, once both reach it: its write cache absorbs the forced writes."))
                .at("cold reads and forced writes on one machine; study: NFS")
                .withReading("\"Read bandwidth was higher than write bandwidth\" (the claim's first half) as: cold reads take less time than writes forced to disk, so that"
                    + " both reach the device as the study's did. How reads scaled is in the charts."));
    }

    /**
     * For each Java way, what its reads gained by the wall clock from one process to procs over what its writes gained
     * (1: the same pattern); their geometric mean, so that no one way's noisy round decides.
     */
    static double readGainOverWriteGain(Results javaRuns, int procs) {
        List<String> ways = javaRuns.typed().stream().map(r -> r.strategy()).distinct().toList();
        double logs = 0;
        for (String way : ways) {
            Results mine = javaRuns.where("strategy", way);
            logs += Math.log(gain(mine.where("op", "read"), procs) / gain(mine.where("op", "write"), procs));
        }
        return Math.exp(logs / ways.size());
    }

    private static double gain(Results runs, int procs) {
        return runs.where("procs", procs).median("wall_mb_per_s") / runs.where("procs", 1).median("wall_mb_per_s");
    }

    /** Reads by the wall clock over process counts (past the cores shaded), and how far the study's way overstates it at the most processes. */
    public static void wallClockReads(Lab lab, Results all, int most) {
        int cores = lab.cores(all);  // on a cluster, the cores the job's processes could run on
        lab.chart(Charts.withRange(Charts.lines(all.where("op", "read"), true, "procs", "wall_mb_per_s", true, "Reads: aggregate MB/s by the wall clock"),
            cores, most, "more processes than cores"));
        Results atMost = all.where("procs", most);
        System.out.println(String.format(Locale.ROOT, "With %d processes on %d cores, the study's way gives %s the wall-clock bandwidth (median over ways and operations).",
            most, cores, Estimate.of(d -> d.from(atMost).studyOverWall()).format("%.2f×")));
    }

    /** The locked runs beside the same ways unlocked at the same process count, and what the lock cost in time. */
    public static void lockCost(Lab lab, Results locked, Results all, int most) {
        Results unlocked = all.where("procs", most).strategies("view-direct", "independent");
        lab.chart(Charts.methodBars(locked.and(unlocked), "With and without a lock on each process's region, " + most + " processes, MB per second"));
        System.out.println(String.format(Locale.ROOT, "Locked runs took %s the time of unlocked ones (geometric mean over languages and operations).",
            Estimate.of(d -> d.from(locked).ratioTo(d.from(unlocked))).format("%.2f×")));
    }

    /** The learner's guesses beside this run: the best Java read the study's way, and Java's fastest way over C's for the same work. */
    public static void againstYourGuesses(Results javaRuns, Results cRuns, double readMBs, double javaOverC) {
        System.out.println(String.format(Locale.ROOT, "%s; here the best Java read was %s MB/s the study's way, and Java's best way took %s C's.",
            Guess.said("%.0f\u00a0MB/s and %.1f×", readMBs, javaOverC),
            Estimate.of(d -> d.from(javaRuns).where("op", "read").strategies("view-direct", "mapped", "bulk", "streams").max("study_mb_per_s")).format("%.0f"),
            Estimate.of(d -> d.from(javaRuns).fastest().ratioTo(d.from(cRuns).fastest(), "median_ms", "language")).format("%.2f×")));  // each language's fastest way, same work
    }
}
