/*
 * Library entry and the natives of dev.proactor.jni.internal.LibraryNative.
 *
 * JNI_OnLoad registers LibraryNative only. The Java side then checks the ABI version and asks for
 * every other module to be registered on a Class object it passes in (register_module). Why not
 * FindClass them all here: JNI FindClass initialises the class, and binding classes fetch their
 * constants from this library in their static initialisers, which would re-enter the Java loader
 * while System.load is still running.
 *
 * JNI_OnLoad is the only symbol this library exports (-fvisibility=hidden; JNIEXPORT makes it visible).
 */
#define _GNU_SOURCE
#include "proactor_jni.h"

#include <stdio.h>
#include <string.h>

/* Every module; a new engine is added here and to NativeRegistration.BINDINGS in Java. */
static const struct pj_module *const modules[] = {
    &pj_library_module,
    &pj_errno_module,
    &pj_buffer_module,
    &pj_io_module,
    &pj_socket_module,
    &pj_epoll_module,
    &pj_file_module,
    &pj_aio_module,
    &pj_uring_module,
};

/* Returned by constant() for an unknown name; no real constant has this value. */
#define PJ_NO_SUCH_CONSTANT INT64_MIN

/* The ABI this library was built for; the Java side refuses to use it unless it matches its own. */
static jint proactor_abi_version(JNIEnv *env, jclass cls) {
    PJ_UNUSED(env);
    PJ_UNUSED(cls);
    return PROACTOR_ABI_VERSION;
}

/*
 * "class.name(signature)" of every registered native, for the Java-side completeness check; NULL with an exception
 * pending on failure.
 */
static jobjectArray registered_methods(JNIEnv *env, jclass cls) {
    PJ_UNUSED(cls);
    jsize total = 0;
    for (int m = 0; m < PJ_COUNT(modules); m++) {
        total += modules[m]->method_count;
    }
    jclass string_class = (*env)->FindClass(env, "java/lang/String");
    if (string_class == NULL) {
        return NULL;
    }
    jobjectArray result = (*env)->NewObjectArray(env, total, string_class, NULL);
    if (result == NULL) {
        return NULL;
    }
    jsize index = 0;
    for (int m = 0; m < PJ_COUNT(modules); m++) {
        const struct pj_module *module = modules[m];
        for (int i = 0; i < module->method_count; i++) {
            char text[512];
            int length = snprintf(text, sizeof text, "%s.%s%s", module->class_name,
                                  module->methods[i].name, module->methods[i].signature);
            if (length < 0 || (size_t) length >= sizeof text) {
                (*env)->ThrowNew(env, (*env)->FindClass(env, "java/lang/IllegalStateException"),
                                 "native method description too long");
                return NULL;
            }
            jstring entry = (*env)->NewStringUTF(env, text);
            if (entry == NULL) {
                return NULL;
            }
            (*env)->SetObjectArrayElement(env, result, index++, entry);
            (*env)->DeleteLocalRef(env, entry);
        }
    }
    return result;
}

/* The value of a named constant of any module, or Long.MIN_VALUE if no module defines it. */
static jlong constant(JNIEnv *env, jclass cls, jstring name) {
    PJ_UNUSED(cls);
    if (name == NULL) {
        return PJ_NO_SUCH_CONSTANT;
    }
    const char *chars = (*env)->GetStringUTFChars(env, name, NULL);
    if (chars == NULL) {
        return PJ_NO_SUCH_CONSTANT; /* OutOfMemoryError pending */
    }
    jlong value = PJ_NO_SUCH_CONSTANT;
    for (int m = 0; m < PJ_COUNT(modules) && value == PJ_NO_SUCH_CONSTANT; m++) {
        const struct pj_module *module = modules[m];
        for (int i = 0; i < module->constant_count; i++) {
            if (strcmp(module->constants[i].name, chars) == 0) {
                value = module->constants[i].value;
                break;
            }
        }
    }
    (*env)->ReleaseStringUTFChars(env, name, chars);
    return value;
}

/*
 * Registers the natives of the module named class_name (JNI internal form) on target.
 * Returns 0, -ENOENT if no module has that name, or -1 with the JNI exception pending
 * (NoSuchMethodError when a C entry's name or signature has no Java counterpart).
 */
static jint register_module(JNIEnv *env, jclass cls, jstring class_name, jclass target) {
    PJ_UNUSED(cls);
    if (class_name == NULL || target == NULL) {
        return -EINVAL;
    }
    const char *chars = (*env)->GetStringUTFChars(env, class_name, NULL);
    if (chars == NULL) {
        return -1; /* OutOfMemoryError pending */
    }
    const struct pj_module *found = NULL;
    for (int m = 0; m < PJ_COUNT(modules) && found == NULL; m++) {
        if (strcmp(modules[m]->class_name, chars) == 0) {
            found = modules[m];
        }
    }
    (*env)->ReleaseStringUTFChars(env, class_name, chars);
    if (found == NULL) {
        return -ENOENT;
    }
    return (*env)->RegisterNatives(env, target, found->methods, found->method_count) == JNI_OK ? 0 : -1;
}

static const JNINativeMethod methods[] = {
    { "abiVersion", "()I", (void *) proactor_abi_version },
    { "registerModule", "(Ljava/lang/String;Ljava/lang/Class;)I", (void *) register_module },
    { "registeredMethods", "()[Ljava/lang/String;", (void *) registered_methods },
    { "constant", "(Ljava/lang/String;)J", (void *) constant },
};

const struct pj_module pj_library_module = {
    "dev/proactor/jni/internal/LibraryNative", methods, PJ_COUNT(methods), NULL, 0,
};

/*
 * Registers LibraryNative's natives (the class has no static initialiser, so FindClass is harmless).
 * On failure the JNI exception stays pending, so System.load throws it to the Java caller.
 */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    PJ_UNUSED(reserved);
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_8) != JNI_OK) {
        return JNI_ERR;
    }
    jclass cls = (*env)->FindClass(env, pj_library_module.class_name);
    if (cls == NULL) {
        return JNI_ERR;
    }
    jint status = (*env)->RegisterNatives(env, cls, pj_library_module.methods, pj_library_module.method_count);
    (*env)->DeleteLocalRef(env, cls);
    return status == JNI_OK ? JNI_VERSION_1_8 : JNI_ERR;
}
