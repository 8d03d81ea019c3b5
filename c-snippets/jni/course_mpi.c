/* The native half of Mpi (java-snippets/Mpi.java): the few MPI calls a Java process of an MPI job
 * needs, each a thin wrapper over the system's MPI. Built by the kit with mpicc (it finds <mpi.h> and
 * the MPI library) and the running JDK's JNI headers. Only the main thread calls MPI. */
#include <jni.h>
#include <mpi.h>

#include <stdint.h>

JNIEXPORT void JNICALL Java_Mpi_init(JNIEnv *env, jclass mpi) {
    int provided;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided); /* the JVM has many threads; only main calls MPI */
}

JNIEXPORT jint JNICALL Java_Mpi_commRank(JNIEnv *env, jclass mpi) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

JNIEXPORT jint JNICALL Java_Mpi_commSize(JNIEnv *env, jclass mpi) {
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

JNIEXPORT void JNICALL Java_Mpi_barrierAll(JNIEnv *env, jclass mpi) {
    MPI_Barrier(MPI_COMM_WORLD);
}

JNIEXPORT jlong JNICALL Java_Mpi_sumAll(JNIEnv *env, jclass mpi, jlong value) {
    int64_t in = value, out;
    MPI_Allreduce(&in, &out, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    return out;
}

JNIEXPORT jlong JNICALL Java_Mpi_minAll(JNIEnv *env, jclass mpi, jlong value) {
    int64_t in = value, out;
    MPI_Allreduce(&in, &out, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    return out;
}

/* Every process's value, in rank order, at rank 0; null elsewhere. */
JNIEXPORT jlongArray JNICALL Java_Mpi_gatherAt0(JNIEnv *env, jclass mpi, jlong value) {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int64_t in = value, all[size];
    MPI_Gather(&in, 1, MPI_INT64_T, all, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (rank != 0) return NULL;
    jlongArray out = (*env)->NewLongArray(env, size);
    if (out) (*env)->SetLongArrayRegion(env, out, 0, size, (const jlong *)all);
    return out;
}

JNIEXPORT jstring JNICALL Java_Mpi_processorName(JNIEnv *env, jclass mpi) {
    char name[MPI_MAX_PROCESSOR_NAME];
    int length;
    MPI_Get_processor_name(name, &length);
    return (*env)->NewStringUTF(env, name);
}

JNIEXPORT void JNICALL Java_Mpi_finish(JNIEnv *env, jclass mpi) {
    MPI_Finalize();
}
