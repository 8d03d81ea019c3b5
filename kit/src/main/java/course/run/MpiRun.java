package course.run;

import course.base.Exec;
import course.base.Html;
import course.record.Machine;
import course.show.Notebook;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Where MPI is and how an MPI job starts: which mpirun and mpicc, and the command in front of a snippet given --procs. */
public final class MpiRun {
    private MpiRun() {
    }

    /**
     * An MPI tool (mpirun, mpicc): from beside COURSE_MPIRUN when it names one MPI among several (a
     * cluster's module, say), else from PATH.
     */
    public static String tool(String tool) {
        String chosen = System.getenv("COURSE_MPIRUN");
        return chosen == null || chosen.isBlank() ? tool : Path.of(chosen).resolveSibling(tool).toString();
    }

    /** Whether MPI can run here: its mpirun and mpicc exist. */
    public static boolean available() {
        return Machine.onPath(tool("mpirun")) && Machine.onPath(tool("mpicc"));
    }

    public static String missing() {
        return "MPI is not installed here (no " + tool("mpirun") + " and " + tool("mpicc") + "). Lab 08 needs Open MPI: "
                + Machine.installHint("mpirun") + " (Debian, Ubuntu) or conda install -c conda-forge openmpi";
    }

    /** Names the MPI found, in a line, or stops right here (before anything is written) saying how to install it. */
    public static void require() {
        if (!available()) throw new Exec.RunFailed(missing() + "; then restart the kernel and run this lab again");
        String version = Exec.run(List.of(tool("mpirun"), "--version"), "mpirun --version").lines().findFirst().orElse("mpirun");
        String line = "MPI: " + version + ", mpicc; processes start with: " + (Slurm.PMIX ? "srun --mpi=pmix, a step of this allocation: srun … -n N"
                : String.join(" ", launcher(List.of("--procs", "1"))).replace("-np 1", "-np N")) + " …";
        Notebook.html("<small>" + Html.escape(line) + "</small>", line);
    }

    /** A process count mpirun can start: 1 to 256 (mpirun itself reads -np 0 as "one per core"). */
    static void checkProcs(String value) {
        if (!value.matches("[0-9]{1,3}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > 256) {
            throw new IllegalArgumentException("procs " + value + ": must be a whole number between 1 and 256");
        }
    }

    /** The launcher a learner may choose (COURSE_MPI_LAUNCHER): srun where Slurm offers PMIx (the default), or mpirun. */
    static void checkLauncher(String value) {
        if (value != null && !value.isBlank() && !value.equals("srun") && !value.equals("mpirun")) {
            throw new IllegalArgumentException("COURSE_MPI_LAUNCHER " + value + ": must be srun (where Slurm offers PMIx, the default) or mpirun");
        }
    }

    /**
     * What starts a snippet's processes, given its flags: nothing for most snippets; for a snippet given --procs N, inside
     * a Slurm allocation whose srun offers PMIx, srun (see slurmStep); else mpirun with N processes (more than the cores
     * allowed, and said so in the lab), the run's environment passed on to every node, `--allow-run-as-root` only for
     * root, and COURSE_MPI_ARGS (a --hostfile, say) in front, or, on one machine, Open MPI's shared-memory layer (ob1).
     * COURSE_MPIRUN picks the mpirun (and the mpicc beside it).
     */
    public static List<String> launcher(List<String> flags) {
        int at = flags.indexOf("--procs");
        if (at < 0) return List.of();
        String procs = at + 1 < flags.size() ? flags.get(at + 1) : "";
        checkProcs(procs);
        checkLauncher(System.getenv("COURSE_MPI_LAUNCHER"));
        if (!available()) throw new Exec.RunFailed(missing());
        if (Slurm.PMIX) return slurmStep(procs);
        List<String> cmd = new ArrayList<>(List.of(tool("mpirun"), "-q", "--oversubscribe", "-np", procs,
                "-x", "COURSE_EVICT", "-x", "COURSE_SCRATCH"));
        if ("root".equals(System.getProperty("user.name"))) cmd.add(1, "--allow-run-as-root");
        boolean given = argsGiven(), allocated = System.getenv("SLURM_JOB_ID") != null;
        if (given) cmd.addAll(1, List.of(System.getenv("COURSE_MPI_ARGS").trim().split("\\s+")));
        else if (allocated) cmd.addAll(1, List.of("--map-by", "node"));  // an allocation's nodes, dealt out as srun's are
        // One machine: Open MPI's ob1 layer (shared memory) starts a job in about half the time its UCX layer spends
        // probing for networks (0.13 against 0.33 s on the course's test machine), and a sweep starts a hundred jobs. On
        // a cluster (COURSE_MPI_ARGS given, an allocation of several nodes) or with a layer the learner chose
        // (OMPI_MCA_pml), Open MPI decides.
        if (!given && (!allocated || slurm("SLURM_JOB_NUM_NODES", 1) == 1) && System.getenv("OMPI_MCA_pml") == null) {
            cmd.addAll(1, List.of("--mca", "pml", "ob1"));
        }
        return cmd;
    }

    /** Whether the learner gave mpirun's own arguments (COURSE_MPI_ARGS: a --hostfile, say). */
    private static boolean argsGiven() {
        String extra = System.getenv("COURSE_MPI_ARGS");
        return extra != null && !extra.isBlank();
    }

    /** What starts MPI jobs here, for the machine card: "srun --mpi=pmix" inside a Slurm allocation that offers it, else "mpirun". */
    public static String launcherName() {
        return Slurm.PMIX ? "srun --mpi=pmix" : "mpirun";
    }

    /**
     * A job step of the allocation, as Slurm starts MPI jobs itself: PMIx wires the processes up, with the whole
     * environment (--export=ALL), on as many of the allocation's nodes as there are processes (-N, with the tasks per
     * node said, not inherited from the allocation), dealt out one node at a time (cyclic, as mpirun's --map-by node),
     * more of them than the allocation's CPUs where the lab asks (--overcommit), and ended together when one fails.
     * Slurm's CPU binding stays as the cluster sets it: the record's host_cores then says what the processes had. On
     * one node, Open MPI's shared-memory layer, as mpirun's jobs have it there (a step took 0.27 s with it, 0.48 s with
     * UCX probing for networks, on the course's test machine). More processes on a node than its CPUs: they yield the
     * CPU while they wait, as mpirun has them do when it sees a node oversubscribed, which srun does not tell Open MPI
     * (4 processes on 2 CPUs spinning took 0.6 s for a collective write of 8 MB that yielding took 17 ms for).
     */
    private static List<String> slurmStep(String procs) {
        int n = Integer.parseInt(procs), nodes = Math.max(1, Math.min(n, slurm("SLURM_JOB_NUM_NODES", 1))), perNode = (n + nodes - 1) / nodes;
        int cpus = slurm("SLURM_CPUS_ON_NODE", slurm("SLURM_JOB_CPUS_PER_NODE", 0));  // 0: Slurm does not say, and nothing is assumed
        String env = "ALL" + (nodes == 1 && System.getenv("OMPI_MCA_pml") == null ? ",OMPI_MCA_pml=ob1" : "")
                + (cpus > 0 && perNode > cpus ? ",OMPI_MCA_mpi_yield_when_idle=1" : "");
        List<String> cmd = new ArrayList<>(List.of("srun", "--mpi=pmix", "--export=" + env, "--overcommit", "--distribution=cyclic",
                "--kill-on-bad-exit=1", "-N", String.valueOf(nodes), "-n", procs));
        if (n % nodes == 0) cmd.add(cmd.size() - 2, "--ntasks-per-node=" + perNode);  // uneven: srun would say it cannot honour it
        return cmd;
    }

    /** The first count in one of the allocation's variables (its nodes; this node's CPUs; "8(x2),4"), or otherwise where Slurm does not say. */
    private static int slurm(String variable, int otherwise) {
        java.util.regex.Matcher count = java.util.regex.Pattern.compile("^([0-9]{1,6})").matcher(String.valueOf(System.getenv(variable)));
        return count.find() && Integer.parseInt(count.group(1)) > 0 ? Integer.parseInt(count.group(1)) : otherwise;
    }

    /** Whether this kernel runs inside a Slurm allocation whose srun offers PMIx: asked once (srun --mpi=list). */
    private static final class Slurm {
        static final boolean PMIX = offered();

        /**
         * Inside a job (SLURM_JOB_ID) with srun's PMIx plugin, unless the learner gave mpirun's own arguments
         * (COURSE_MPI_ARGS) or chose it (COURSE_MPI_LAUNCHER=mpirun).
         */
        private static boolean offered() {
            if (System.getenv("SLURM_JOB_ID") == null || argsGiven()
                    || "mpirun".equals(System.getenv("COURSE_MPI_LAUNCHER")) || !Machine.onPath("srun")) return false;
            try {
                return Exec.run(List.of("srun", "--mpi=list"), "srun --mpi=list").lines().anyMatch(l -> l.strip().equals("pmix"));
            } catch (Exec.RunFailed e) {
                return false;
            }
        }
    }
}
