/* The native half of BulkRandomAccessFile (java-snippets/BulkRandomAccessFile.java), in both of its
 * designs. convert is the study's (Bonachea et al. §6): it only copies a range of a primitive array into
 * a byte[] or back, and Java's RandomAccessFile does the I/O. transfer is the design the study declined:
 * one call moves the range between the Java heap and the file itself, at the file's own position,
 * through the descriptor it reads out of RandomAccessFile's private fields.
 * The arrays are reached either with GetPrimitiveArrayCritical (usually the array itself: no copy, but
 * the garbage collector may have to wait until we release it) or with Get<Type>ArrayElements (the JVM
 * may hand over a copy, which Release copies back). Elements are swapped to the file's byte order when
 * the machine's differs. Built by the kit: gcc -O2 -shared -fPIC with the running JDK's JNI headers. */
#include <jni.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static size_t width_of(jchar type) {
    switch (type) {
        case 'Z': case 'B': return 1;
        case 'C': case 'S': return 2;
        case 'I': case 'F': return 4;
        default: return 8; /* 'J', 'D' */
    }
}

/* The int inside the RandomAccessFile's FileDescriptor (private fields, which JNI may read). */
static int fd_of(JNIEnv *env, jobject self) {
    jclass file = (*env)->FindClass(env, "java/io/RandomAccessFile");
    jclass descriptor = (*env)->FindClass(env, "java/io/FileDescriptor");
    jobject fd = (*env)->GetObjectField(env, self, (*env)->GetFieldID(env, file, "fd", "Ljava/io/FileDescriptor;"));
    return (*env)->GetIntField(env, fd, (*env)->GetFieldID(env, descriptor, "fd", "I"));
}

/* Reverses the bytes of each element, big-endian <-> little-endian, one width's loop at a time (a load,
 * a bswap and a store per element, as C's typed_arrays does: the comparison is of like work). */
static void swap(unsigned char *to, const unsigned char *from, size_t bytes, size_t width) {
    if (width == 2) {
        for (size_t i = 0; i < bytes; i += 2) {
            uint16_t v;
            memcpy(&v, from + i, 2);
            v = __builtin_bswap16(v);
            memcpy(to + i, &v, 2);
        }
    } else if (width == 4) {
        for (size_t i = 0; i < bytes; i += 4) {
            uint32_t v;
            memcpy(&v, from + i, 4);
            v = __builtin_bswap32(v);
            memcpy(to + i, &v, 4);
        }
    } else {
        for (size_t i = 0; i < bytes; i += 8) {
            uint64_t v;
            memcpy(&v, from + i, 8);
            v = __builtin_bswap64(v);
            memcpy(to + i, &v, 8);
        }
    }
}

/* The array's elements: GetPrimitiveArrayCritical, or Get<Type>ArrayElements (which may copy them). */
static void *reach(JNIEnv *env, jobject array, jchar type, jboolean critical) {
    if (critical) return (*env)->GetPrimitiveArrayCritical(env, array, NULL);
    switch (type) {
        case 'Z': return (*env)->GetBooleanArrayElements(env, array, NULL);
        case 'B': return (*env)->GetByteArrayElements(env, array, NULL);
        case 'C': return (*env)->GetCharArrayElements(env, array, NULL);
        case 'S': return (*env)->GetShortArrayElements(env, array, NULL);
        case 'I': return (*env)->GetIntArrayElements(env, array, NULL);
        case 'J': return (*env)->GetLongArrayElements(env, array, NULL);
        case 'F': return (*env)->GetFloatArrayElements(env, array, NULL);
        default: return (*env)->GetDoubleArrayElements(env, array, NULL);
    }
}

/* Gives back what reach took; mode 0 keeps what was written into it, JNI_ABORT drops it (nothing changed). */
static void let_go(JNIEnv *env, jobject array, jchar type, void *base, jint mode, jboolean critical) {
    if (critical) {
        (*env)->ReleasePrimitiveArrayCritical(env, array, base, mode);
        return;
    }
    switch (type) {
        case 'Z': (*env)->ReleaseBooleanArrayElements(env, array, base, mode); break;
        case 'B': (*env)->ReleaseByteArrayElements(env, array, base, mode); break;
        case 'C': (*env)->ReleaseCharArrayElements(env, array, base, mode); break;
        case 'S': (*env)->ReleaseShortArrayElements(env, array, base, mode); break;
        case 'I': (*env)->ReleaseIntArrayElements(env, array, base, mode); break;
        case 'J': (*env)->ReleaseLongArrayElements(env, array, base, mode); break;
        case 'F': (*env)->ReleaseFloatArrayElements(env, array, base, mode); break;
        default: (*env)->ReleaseDoubleArrayElements(env, array, base, mode); break;
    }
}

/* Writes all bytes, a swapped chunk at a time when asked to swap; 0 or the errno of the failure. */
static int write_all(int fd, const unsigned char *data, size_t bytes, size_t width, int swapping) {
    unsigned char chunk[1 << 16];
    for (size_t done = 0; done < bytes;) {
        size_t n = bytes - done;
        const unsigned char *from = data + done;
        if (swapping) {
            n = n < sizeof chunk ? n : sizeof chunk; /* a multiple of every width */
            swap(chunk, from, n, width);
            from = chunk;
        }
        for (size_t put = 0; put < n;) {
            ssize_t w = write(fd, from + put, n - put);
            if (w < 0 && errno == EINTR) continue;
            if (w < 0) return errno;
            put += (size_t)w;
        }
        done += n;
    }
    return 0;
}

/* Reads until all bytes arrived or the file ended; the bytes read, or -1 with errno set. */
static ssize_t read_all(int fd, unsigned char *data, size_t bytes) {
    size_t done = 0;
    while (done < bytes) {
        ssize_t got = read(fd, data + done, bytes - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        if (got == 0) break;
        done += (size_t)got;
    }
    return (ssize_t)done;
}

JNIEXPORT jint JNICALL Java_BulkRandomAccessFile_transfer(JNIEnv *env, jobject self, jobject array, jint offset, jint count,
                                                          jchar type, jboolean write, jboolean swapping, jboolean critical) {
    size_t width = width_of(type), bytes = (size_t)count * width;
    int fd = fd_of(env, self);
    if ((*env)->ExceptionCheck(env)) return 0;
    void *base = reach(env, array, type, critical);
    if (!base) return 0; /* the JVM has thrown OutOfMemoryError */
    unsigned char *data = (unsigned char *)base + (size_t)offset * width;
    int error = 0;
    size_t done = bytes;
    if (write) {
        error = write_all(fd, data, bytes, width, swapping && width > 1);
    } else {
        ssize_t got = read_all(fd, data, bytes);
        if (got < 0) error = errno;
        done = got < 0 ? 0 : (size_t)got;
        if (swapping && width > 1) swap(data, data, done - done % width, width);
    }
    /* a write leaves the array as it was (JNI_ABORT: nothing to copy back); a read keeps what it read */
    let_go(env, array, type, base, write ? JNI_ABORT : 0, critical);
    if (error) {
        (*env)->ThrowNew(env, (*env)->FindClass(env, "java/io/IOException"), strerror(error));
        return 0;
    }
    return (jint)(done / width);
}

/* The study's design: count elements of the array, from index offset, copied into bytes (to_bytes) or back
 * out of it, swapped when the file's byte order is not the machine's. The I/O is RandomAccessFile's own. */
JNIEXPORT void JNICALL Java_BulkRandomAccessFile_convert(JNIEnv *env, jobject self, jobject array, jint offset, jint count,
                                                         jchar type, jbyteArray bytes, jboolean to_bytes, jboolean swapping,
                                                         jboolean critical) {
    (void)self;
    size_t width = width_of(type), n = (size_t)count * width;
    void *base = reach(env, array, type, critical);
    if (!base) return;
    void *raw = reach(env, bytes, 'B', critical);
    if (!raw) {
        let_go(env, array, type, base, JNI_ABORT, critical);
        return;
    }
    unsigned char *elements = (unsigned char *)base + (size_t)offset * width;
    unsigned char *to = to_bytes ? raw : elements, *from = to_bytes ? elements : raw;
    if (swapping && width > 1) swap(to, from, n, width);
    else memcpy(to, from, n);
    /* what was copied into is kept (mode 0); what was copied from is left as it was (JNI_ABORT) */
    let_go(env, bytes, 'B', raw, to_bytes ? 0 : JNI_ABORT, critical);
    let_go(env, array, type, base, to_bytes ? JNI_ABORT : 0, critical);
}
