/* The native half of jni_ops (java-snippets/JniOps.java): the buffer lives here, and every operation
 * is one JNI call that copies its bytes between the buffer and the Java array (Get/SetByteArrayRegion).
 * One file at a time, as the snippet uses it. Built by the kit with the running JDK's JNI headers. */
#include <jni.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
    int fd, writing;
    unsigned char *buffer;
    size_t size, next, filled; /* reading: buffer[next, filled) is unread; writing: buffer[0, next) is waiting */
} f = {-1, 0, NULL, 0, 0, 0};

static void throw_io(JNIEnv *env, const char *what) {
    (*env)->ThrowNew(env, (*env)->FindClass(env, "java/io/IOException"), what);
}

static int flush(JNIEnv *env) {
    for (size_t done = 0; done < f.next;) {
        ssize_t put = write(f.fd, f.buffer + done, f.next - done);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) {
            throw_io(env, strerror(errno));
            return -1;
        }
        done += (size_t)put;
    }
    f.next = 0;
    return 0;
}

JNIEXPORT void JNICALL Java_JniOps_00024NativeBuffer_open(JNIEnv *env, jclass cls, jstring path, jboolean writing, jint size) {
    (void)cls;
    const char *name = (*env)->GetStringUTFChars(env, path, NULL);
    f.fd = writing ? open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644) : open(name, O_RDONLY);
    int error = errno;
    (*env)->ReleaseStringUTFChars(env, path, name);
    f.writing = writing;
    f.size = (size_t)size;
    f.next = f.filled = 0;
    f.buffer = malloc(f.size);
    if (f.fd < 0) throw_io(env, strerror(error));
    else if (!f.buffer) throw_io(env, "cannot allocate the buffer");
}

JNIEXPORT jint JNICALL Java_JniOps_00024NativeBuffer_read(JNIEnv *env, jclass cls, jbyteArray op, jint n) {
    (void)cls;
    if (f.next == f.filled) { /* empty: one system call refills it */
        size_t got = 0;
        while (got < f.size) {
            ssize_t r = read(f.fd, f.buffer + got, f.size - got);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) {
                throw_io(env, strerror(errno));
                return 0;
            }
            if (r == 0) break;
            got += (size_t)r;
        }
        f.next = 0;
        f.filled = got;
    }
    size_t take = f.filled - f.next < (size_t)n ? f.filled - f.next : (size_t)n;
    (*env)->SetByteArrayRegion(env, op, 0, (jsize)take, (const jbyte *)(f.buffer + f.next));
    f.next += take;
    return (jint)take;
}

JNIEXPORT void JNICALL Java_JniOps_00024NativeBuffer_write(JNIEnv *env, jclass cls, jbyteArray op, jint off, jint n) {
    (void)cls;
    if (f.next == f.size && flush(env) != 0) return; /* full: one system call */
    (*env)->GetByteArrayRegion(env, op, off, n, (jbyte *)(f.buffer + f.next));
    f.next += (size_t)n;
}

JNIEXPORT void JNICALL Java_JniOps_00024NativeBuffer_close(JNIEnv *env, jclass cls) {
    (void)cls;
    int failed = f.writing && f.fd >= 0 ? flush(env) : 0;
    if (f.fd >= 0 && close(f.fd) != 0 && !failed) throw_io(env, strerror(errno));
    free(f.buffer);
    f.buffer = NULL;
    f.fd = -1;
}
