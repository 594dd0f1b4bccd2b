/* The JNI glue between dev.corelogic.Native and libcorelogic.
 *
 * Thin on purpose: each native method copies its arguments in, makes one corelogic_*
 * call, and copies the result out. Everything a Java caller can get wrong (null, NUL
 * bytes, closed systems) is checked in Java before the call; what is left is turned
 * into a dev.corelogic exception here, from the status and corelogic_last_error().
 *
 *  - Strings go both ways as UTF-8 byte arrays (never JNI's modified UTF-8): the Java
 *    side encodes and decodes them, so every byte the library sees is the host's own.
 *  - Handles are the library's 64-bit handles held in a Java long; the library detects
 *    freed and foreign handles, so nothing here can dereference a stale pointer.
 *  - Handlers: the library's context pointer is the system's handle itself, and the C
 *    callback calls the static Native.dispatch(kind, handle, json), which looks the
 *    system up in a Java map. No global reference or native allocation outlives a call,
 *    so there is nothing to leak or free twice.
 *  - The glue does not link libcorelogic: Native.open(path) loads it (corelogic_dl.h),
 *    before any other native method is called. */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "corelogic_dl.h" /* the library is dlopen()ed by path, see Native.open */

static JavaVM *java_vm;
static jclass native_class;      /* global ref: dev.corelogic.Native */
static jmethodID dispatch_method; /* static void dispatch(int kind, long handle, byte[] json) */
static jmethodID error_method;    /* static RuntimeException error(int status, byte[] message) */

enum { KIND_COMMAND = 0, KIND_STATE = 1 };

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    java_vm = vm;
    jclass local = (*env)->FindClass(env, "dev/corelogic/Native");
    if (local == NULL) return JNI_ERR;
    native_class = (*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    dispatch_method = (*env)->GetStaticMethodID(env, native_class, "dispatch", "(IJ[B)V");
    error_method = (*env)->GetStaticMethodID(env, native_class, "error", "(I[B)Ljava/lang/RuntimeException;");
    if (native_class == NULL || dispatch_method == NULL || error_method == NULL) return JNI_ERR;
    return JNI_VERSION_1_8;
}

/* ---- conversions ------------------------------------------------------------ */

/* A NUL-terminated copy of a Java byte[] (NULL for a null array); *failed is set (and an
 * OutOfMemoryError is pending) if memory runs out. */
static char *copy_in(JNIEnv *env, jbyteArray bytes, int *failed) {
    *failed = 0;
    if (bytes == NULL) return NULL;
    jsize length = (*env)->GetArrayLength(env, bytes);
    char *text = malloc((size_t)length + 1);
    if (text == NULL) {
        jclass oom = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
        if (oom != NULL) (*env)->ThrowNew(env, oom, "corelogic: cannot copy an argument");
        *failed = 1;
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, bytes, 0, length, (jbyte *)text);
    text[length] = '\0';
    return text;
}

/* copy_in of two arrays; 0, with nothing to free, if memory runs out. */
static int copy_in_two(JNIEnv *env, jbyteArray first_bytes, char **first, jbyteArray second_bytes, char **second) {
    int failed;
    *first = copy_in(env, first_bytes, &failed);
    if (failed) return 0;
    *second = copy_in(env, second_bytes, &failed);
    if (failed) { free(*first); return 0; }
    return 1;
}

static jbyteArray bytes_of(JNIEnv *env, const char *text) {
    if (text == NULL) return NULL;
    jsize length = (jsize)strlen(text);
    jbyteArray out = (*env)->NewByteArray(env, length);
    if (out != NULL) (*env)->SetByteArrayRegion(env, out, 0, length, (const jbyte *)text);
    return out;
}

/* Moves a string the library returned into a Java byte[] and frees it. */
static jbyteArray take(JNIEnv *env, char *text) {
    jbyteArray out = bytes_of(env, text);
    corelogic_free(text);
    return out;
}

/* Throws the dev.corelogic exception for `status`, with this thread's last error. */
static void throw_status(JNIEnv *env, int status) {
    if ((*env)->ExceptionCheck(env)) return;
    jbyteArray message = bytes_of(env, corelogic_last_error());
    if (message == NULL && (*env)->ExceptionCheck(env)) return;
    jthrowable error = (*env)->CallStaticObjectMethod(env, native_class, error_method, (jint)status, message);
    if (error != NULL && !(*env)->ExceptionCheck(env)) (*env)->Throw(env, error);
}

/* A string the library returned with `status`, as a Java byte[] (freed); or the
 * exception thrown. */
static jbyteArray string_result(JNIEnv *env, int status, char *out) {
    if (status != CORELOGIC_OK) { throw_status(env, status); return NULL; }
    return take(env, out);
}

/* Moves a string the library returned into array[index] (left null if it is NULL). */
static void put(JNIEnv *env, jobjectArray array, jsize index, char *text) {
    jbyteArray bytes = take(env, text);
    if (bytes != NULL) (*env)->SetObjectArrayElement(env, array, index, bytes);
}

typedef int (*system_fn)(corelogic_system);
typedef int (*read_fn)(corelogic_system, char **);
typedef int (*text_read_fn)(corelogic_system, const char *, char **);

/* A call on a system with no result but its status. */
static void system_call(JNIEnv *env, jlong system, system_fn function) {
    int status = function((corelogic_system)system);
    if (status != CORELOGIC_OK) throw_status(env, status);
}

/* A read of a system: the library's string. */
static jbyteArray read_call(JNIEnv *env, jlong system, read_fn function) {
    char *out = NULL;
    int status = function((corelogic_system)system, &out);
    return string_result(env, status, out);
}

/* A read with one string argument. */
static jbyteArray text_read_call(JNIEnv *env, jlong system, jbyteArray argument, text_read_fn function) {
    int failed;
    char *text = copy_in(env, argument, &failed);
    if (failed) return NULL;
    char *out = NULL;
    int status = function((corelogic_system)system, text, &out);
    free(text);
    return string_result(env, status, out);
}

/* ---- library ---------------------------------------------------------------- */

/* Loads libcorelogic from `path` (once per process); returns null, or why it cannot. */
JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_open(JNIEnv *env, jclass cls, jbyteArray path) {
    (void)cls;
    int failed;
    char *text = copy_in(env, path, &failed);
    if (failed) return NULL;
    const char *error = corelogic_dl_open(text);
    free(text);
    return bytes_of(env, error);
}

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_version(JNIEnv *env, jclass cls) {
    (void)cls;
    return bytes_of(env, corelogic_version());
}

JNIEXPORT jint JNICALL Java_dev_corelogic_Native_abiVersion(JNIEnv *env, jclass cls) {
    (void)env; (void)cls;
    return corelogic_abi_version();
}

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_statusName(JNIEnv *env, jclass cls, jint status) {
    (void)cls;
    return bytes_of(env, corelogic_status_name(status));
}

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_features(JNIEnv *env, jclass cls) {
    (void)cls;
    char *out = NULL;
    int status = corelogic_features(&out);
    return string_result(env, status, out);
}

/* ---- systems ---------------------------------------------------------------- */

/* Creates a system; returns its handle and puts the creation batch in batch_out[0]. */
JNIEXPORT jlong JNICALL Java_dev_corelogic_Native_systemNew(JNIEnv *env, jclass cls, jbyteArray feature,
                                                            jbyteArray state, jobjectArray batch_out) {
    (void)cls;
    char *name, *state_json;
    if (!copy_in_two(env, feature, &name, state, &state_json)) return 0;
    corelogic_system system = 0;
    char *batch = NULL;
    int status = corelogic_system_new(name, state_json, &system, &batch);
    free(name);
    free(state_json);
    if (status != CORELOGIC_OK) { throw_status(env, status); return 0; }
    put(env, batch_out, 0, batch);
    return (jlong)system;
}

JNIEXPORT void JNICALL Java_dev_corelogic_Native_systemFree(JNIEnv *env, jclass cls, jlong system) {
    (void)cls;
    system_call(env, system, corelogic_system_free);
}

/* What send, deliver and complete return: the status (OK or STALE), with the batch in
 * batch_out[0] when it was asked for; an exception for any error. */
static jint input_result(JNIEnv *env, int status, char *batch, jobjectArray batch_out) {
    if (status == CORELOGIC_OK) {
        if (batch != NULL) put(env, batch_out, 0, batch);
        return status;
    }
    corelogic_free(batch);
    if (status != CORELOGIC_STALE) throw_status(env, status);
    return status;
}

/* The three inputs return a status (OK or STALE) and, when want_batch, the batch in
 * batch_out[0]. */
JNIEXPORT jint JNICALL Java_dev_corelogic_Native_send(JNIEnv *env, jclass cls, jlong system, jbyteArray event,
                                                      jobjectArray batch_out) {
    (void)cls;
    int failed;
    char *text = copy_in(env, event, &failed);
    if (failed) return 0;
    char *batch = NULL;
    int status = corelogic_system_send((corelogic_system)system, text, batch_out != NULL ? &batch : NULL);
    free(text);
    return input_result(env, status, batch, batch_out);
}

JNIEXPORT jint JNICALL Java_dev_corelogic_Native_deliver(JNIEnv *env, jclass cls, jlong system, jlong effect,
                                                         jbyteArray event, jobjectArray batch_out) {
    (void)cls;
    int failed;
    char *text = copy_in(env, event, &failed);
    if (failed) return 0;
    char *batch = NULL;
    int status = corelogic_system_deliver((corelogic_system)system, (uint64_t)effect, text,
                                          batch_out != NULL ? &batch : NULL);
    free(text);
    return input_result(env, status, batch, batch_out);
}

JNIEXPORT jint JNICALL Java_dev_corelogic_Native_complete(JNIEnv *env, jclass cls, jlong system, jlong effect,
                                                          jobjectArray batch_out) {
    (void)cls;
    char *batch = NULL;
    int status = corelogic_system_complete((corelogic_system)system, (uint64_t)effect,
                                           batch_out != NULL ? &batch : NULL);
    return input_result(env, status, batch, batch_out);
}

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_state(JNIEnv *env, jclass cls, jlong system) {
    (void)cls;
    return read_call(env, system, corelogic_system_state);
}

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_query(JNIEnv *env, jclass cls, jlong system, jbyteArray name) {
    (void)cls;
    return text_read_call(env, system, name, corelogic_system_query);
}

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_effects(JNIEnv *env, jclass cls, jlong system) {
    (void)cls;
    return read_call(env, system, corelogic_system_effects);
}

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_check(JNIEnv *env, jclass cls, jlong system) {
    (void)cls;
    return read_call(env, system, corelogic_system_check);
}

/* ---- handlers ---------------------------------------------------------------- */

static void dispatch(int kind, void *context, const char *json) {
    JNIEnv *env = NULL;
    int attached = 0;
    if ((*java_vm)->GetEnv(java_vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) {
        /* A call made by a thread the JVM does not know (another host in the process). */
        if ((*java_vm)->AttachCurrentThreadAsDaemon(java_vm, (void **)&env, NULL) != JNI_OK) return;
        attached = 1;
    }
    /* A Java exception pending from the caller must not be lost or make the call fail. */
    jthrowable pending = (*env)->ExceptionOccurred(env);
    if (pending != NULL) (*env)->ExceptionClear(env);
    jbyteArray bytes = bytes_of(env, json);
    if (bytes != NULL) {
        (*env)->CallStaticVoidMethod(env, native_class, dispatch_method, (jint)kind,
                                     (jlong)(uintptr_t)context, bytes);
        (*env)->DeleteLocalRef(env, bytes);
    }
    /* Native.dispatch catches everything; this only guards against errors like OOM. */
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    if (pending != NULL) {
        (*env)->Throw(env, pending);
        (*env)->DeleteLocalRef(env, pending);
    }
    if (attached) (*java_vm)->DetachCurrentThread(java_vm);
}

static void on_command(void *context, const char *json) { dispatch(KIND_COMMAND, context, json); }
static void on_state(void *context, const char *json) { dispatch(KIND_STATE, context, json); }

/* Installs (install != 0) or removes the C trampoline of one handler kind. */
JNIEXPORT void JNICALL Java_dev_corelogic_Native_setHandler(JNIEnv *env, jclass cls, jlong system, jint kind,
                                                            jboolean install) {
    (void)cls;
    void *context = (void *)(uintptr_t)system;
    int status = kind == KIND_COMMAND
        ? corelogic_system_on_command((corelogic_system)system, install ? on_command : NULL, context)
        : corelogic_system_on_state((corelogic_system)system, install ? on_state : NULL, context);
    if (status != CORELOGIC_OK) throw_status(env, status);
}

/* ---- output: patches and watched queries ------------------------------------- */

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_setOutput(JNIEnv *env, jclass cls, jlong system, jint mode) {
    (void)cls;
    char *out = NULL;
    int status = corelogic_system_set_output((corelogic_system)system, mode, &out);
    return string_result(env, status, out);
}

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_resync(JNIEnv *env, jclass cls, jlong system) {
    (void)cls;
    return read_call(env, system, corelogic_system_resync);
}

JNIEXPORT jbyteArray JNICALL Java_dev_corelogic_Native_watchQueries(JNIEnv *env, jclass cls, jlong system,
                                                                   jbyteArray names) {
    (void)cls;
    return text_read_call(env, system, names, corelogic_system_watch_queries);
}

/* ---- persistence ------------------------------------------------------------- */

JNIEXPORT void JNICALL Java_dev_corelogic_Native_openJournal(JNIEnv *env, jclass cls, jlong system,
                                                             jbyteArray directory, jint durability) {
    (void)cls;
    int failed;
    char *path = copy_in(env, directory, &failed);
    if (failed) return;
    int status = corelogic_system_open_journal((corelogic_system)system, path, durability);
    free(path);
    if (status != CORELOGIC_OK) throw_status(env, status);
}

JNIEXPORT void JNICALL Java_dev_corelogic_Native_checkpoint(JNIEnv *env, jclass cls, jlong system) {
    (void)cls;
    system_call(env, system, corelogic_system_checkpoint);
}

JNIEXPORT void JNICALL Java_dev_corelogic_Native_syncJournal(JNIEnv *env, jclass cls, jlong system) {
    (void)cls;
    system_call(env, system, corelogic_system_sync_journal);
}

JNIEXPORT void JNICALL Java_dev_corelogic_Native_closeJournal(JNIEnv *env, jclass cls, jlong system) {
    (void)cls;
    system_call(env, system, corelogic_system_close_journal);
}

/* Restores a system; out[0] receives the report, out[1] the creation batch. */
JNIEXPORT jlong JNICALL Java_dev_corelogic_Native_restore(JNIEnv *env, jclass cls, jbyteArray feature,
                                                          jbyteArray directory, jobjectArray out) {
    (void)cls;
    char *name, *path;
    if (!copy_in_two(env, feature, &name, directory, &path)) return 0;
    corelogic_system system = 0;
    char *report = NULL, *batch = NULL;
    int status = corelogic_system_restore(name, path, &system, &report, &batch);
    free(name);
    free(path);
    if (status != CORELOGIC_OK) { throw_status(env, status); return 0; }
    put(env, out, 0, report);
    put(env, out, 1, batch);
    return (jlong)system;
}
