/* libcorelogic loaded at run time, for the JVM and Node.js glue.
 *
 * The glue is not linked against libcorelogic: the host names the library's path
 * (bindings/jvm/README.md, bindings/node/README.md), corelogic_dl_open() dlopen()s it with
 * RTLD_LOCAL and resolves every corelogic_* function the glue calls through that handle.
 * RTLD_LOCAL keeps the library's symbols out of the process's global scope, so another
 * copy of libcorelogic (another app's build, loaded by another binding or by the host)
 * is not picked up in its place and does not pick up this one.
 *
 * After this header, the glue's calls such as corelogic_system_send(...) go through
 * the resolved pointers (the macros at the end). Include it instead of corelogic.h. */
#ifndef CORELOGIC_DL_H
#define CORELOGIC_DL_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

#include <corelogic.h>

#define CORELOGIC_DL_FUNCTIONS(X) \
    X(corelogic_version) X(corelogic_abi_version) X(corelogic_status_name) X(corelogic_last_error) \
    X(corelogic_free) X(corelogic_features) X(corelogic_system_new) X(corelogic_system_free) \
    X(corelogic_system_send) X(corelogic_system_deliver) X(corelogic_system_complete) \
    X(corelogic_system_state) X(corelogic_system_query) X(corelogic_system_effects) X(corelogic_system_check) \
    X(corelogic_system_on_command) X(corelogic_system_on_state) X(corelogic_system_set_output) \
    X(corelogic_system_resync) X(corelogic_system_watch_queries) X(corelogic_system_open_journal) \
    X(corelogic_system_checkpoint) X(corelogic_system_sync_journal) X(corelogic_system_close_journal) \
    X(corelogic_system_restore)

static struct {
    void *handle;
#define CORELOGIC_DL_FIELD(name) __typeof__(&name) name;
    CORELOGIC_DL_FUNCTIONS(CORELOGIC_DL_FIELD)
#undef CORELOGIC_DL_FIELD
} corelogic_dl;

/* Loads the library at `path` once per process. Returns NULL when it is loaded (now or
 * by an earlier call), else why it cannot be (dlerror's text, valid until the next
 * dl* call, or the ABI mismatch below). A later call with another path does not
 * replace the loaded library.
 *
 * The glue is compiled against corelogic.h, so CORELOGIC_ABI_VERSION is the ABI it was
 * built for: a library whose corelogic_abi_version() differs is refused before any
 * other function is looked up, with both numbers in the message. */
static const char *corelogic_dl_open(const char *path) {
    static char mismatch[256];
    if (corelogic_dl.handle != NULL) return NULL;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return dlerror();
    int (*abi_version)(void);
    if ((*(void **)&abi_version = dlsym(handle, "corelogic_abi_version")) == NULL) {
        dlclose(handle);
        return "not a corelogic library: no corelogic_abi_version()";
    }
    int found = abi_version();
    if (found != CORELOGIC_ABI_VERSION) {
        dlclose(handle);
        snprintf(mismatch, sizeof mismatch,
                 "the library has C ABI version %d, but this binding was built for version %d; "
                 "install matching versions of the library and the binding", found, CORELOGIC_ABI_VERSION);
        return mismatch;
    }
#define CORELOGIC_DL_RESOLVE(name) \
    if ((*(void **)&corelogic_dl.name = dlsym(handle, #name)) == NULL) { dlclose(handle); return dlerror(); }
    CORELOGIC_DL_FUNCTIONS(CORELOGIC_DL_RESOLVE)
#undef CORELOGIC_DL_RESOLVE
    corelogic_dl.handle = handle;
    return NULL;
}

#define corelogic_version corelogic_dl.corelogic_version
#define corelogic_abi_version corelogic_dl.corelogic_abi_version
#define corelogic_status_name corelogic_dl.corelogic_status_name
#define corelogic_last_error corelogic_dl.corelogic_last_error
#define corelogic_free corelogic_dl.corelogic_free
#define corelogic_features corelogic_dl.corelogic_features
#define corelogic_system_new corelogic_dl.corelogic_system_new
#define corelogic_system_free corelogic_dl.corelogic_system_free
#define corelogic_system_send corelogic_dl.corelogic_system_send
#define corelogic_system_deliver corelogic_dl.corelogic_system_deliver
#define corelogic_system_complete corelogic_dl.corelogic_system_complete
#define corelogic_system_state corelogic_dl.corelogic_system_state
#define corelogic_system_query corelogic_dl.corelogic_system_query
#define corelogic_system_effects corelogic_dl.corelogic_system_effects
#define corelogic_system_check corelogic_dl.corelogic_system_check
#define corelogic_system_on_command corelogic_dl.corelogic_system_on_command
#define corelogic_system_on_state corelogic_dl.corelogic_system_on_state
#define corelogic_system_set_output corelogic_dl.corelogic_system_set_output
#define corelogic_system_resync corelogic_dl.corelogic_system_resync
#define corelogic_system_watch_queries corelogic_dl.corelogic_system_watch_queries
#define corelogic_system_open_journal corelogic_dl.corelogic_system_open_journal
#define corelogic_system_checkpoint corelogic_dl.corelogic_system_checkpoint
#define corelogic_system_sync_journal corelogic_dl.corelogic_system_sync_journal
#define corelogic_system_close_journal corelogic_dl.corelogic_system_close_journal
#define corelogic_system_restore corelogic_dl.corelogic_system_restore

#endif
