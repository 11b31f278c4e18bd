/*
 * Natives of dev.proactor.jni.internal.BufferNative: the native address of a direct ByteBuffer.
 *
 * This is the one place the library looks inside a buffer object. Callers fetch the address once
 * per buffer and pass plain longs on the hot path; position/limit checks stay in Java.
 */
#include "proactor_jni.h"

/* The base address of a direct buffer, or 0 if the object is not a direct buffer (null, heap, foreign). */
static jlong buffer_address(JNIEnv *env, jclass cls, jobject buffer) {
    PJ_UNUSED(cls);
    if (buffer == NULL) {
        return 0;
    }
    void *address = (*env)->GetDirectBufferAddress(env, buffer);
    return (jlong) (uintptr_t) address;
}

static const JNINativeMethod methods[] = {
    { "address", "(Ljava/nio/ByteBuffer;)J", (void *) buffer_address },
};

const struct pj_module pj_buffer_module = {
    "dev/proactor/jni/internal/BufferNative", methods, PJ_COUNT(methods), NULL, 0,
};
