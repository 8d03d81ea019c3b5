// Mpi: the Java processes of an MPI job learn their rank and the job's size, wait at barriers and
// combine numbers through the system's own MPI, by a small JNI binding (c-snippets/jni/course_mpi.c,
// which the kit compiles with mpicc). Started by mpirun, every process calls Mpi.join() first; the
// harness then runs as one process of a team (Workers.Team) and only process 0 prints results.
// Why JNI: Debian builds Open MPI's Java bindings but ships no mpi.jar to compile against; MPJ Express
// (Debian's libmpj-java) has its own runtime and launcher instead of mpirun. Nine thin wrappers, built
// with mpicc, work with whatever MPI the machine has (Open MPI, MPICH) under the C twin's mpirun.
final class Mpi implements Workers.Team {
    static {
        System.loadLibrary("course_mpi");
    }

    private final int rank, size;

    private Mpi() {
        init();
        rank = commRank();
        size = commSize();
    }

    /** Initialises MPI and makes this process the harness's team member. */
    static void join() {
        Workers.team = new Mpi();
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public void barrier() {
        barrierAll();
    }

    public long sum(long value) {
        return sumAll(value);
    }

    public long min(long value) {
        return minAll(value);
    }

    public long[] gather(long value) {
        return gatherAt0(value);
    }

    public String host() {
        return processorName();
    }

    public void end() {
        finish();
    }

    private static native void init();                  // MPI_Init_thread, MPI_THREAD_FUNNELED
    private static native int commRank();               // MPI_Comm_rank
    private static native int commSize();               // MPI_Comm_size
    private static native void barrierAll();            // MPI_Barrier
    private static native long sumAll(long value);      // MPI_Allreduce, MPI_SUM
    private static native long minAll(long value);      // MPI_Allreduce, MPI_MIN
    private static native long[] gatherAt0(long value); // MPI_Gather to rank 0 (null elsewhere)
    private static native String processorName();      // MPI_Get_processor_name
    private static native void finish();                // MPI_Finalize
}
