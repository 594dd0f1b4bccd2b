#ifndef CORELOGIC_FFI_HOOK_H
#define CORELOGIC_FFI_HOOK_H

/* The one symbol an app's library defines for the C ABI (docs/adopting.md):
 *
 *     @c(corelogic_app_catalog)
 *     public func appCatalog() -> UnsafeRawPointer { catalog.reference }
 *
 * It is resolved inside the app's library when that library is linked, and the export
 * map (include/corelogic.map) keeps it local, so two app libraries in one process each
 * serve their own catalog.
 *
 * Weak, so a library linked without it still loads and answers with
 * CORELOGIC_ERR_NOT_FOUND and a message naming the symbol. Header-only (a module map,
 * no C source): the check below is compiled into CoreFFI's Swift code. */
extern const void *corelogic_app_catalog(void) __attribute__((weak));

/* The C contract itself: CoreFFI takes the version macros from it (the header is their one
 * source), and the compiler checks each export against the declaration it implements. */
#include "../../include/corelogic.h"

/* The app's catalog, or NULL when the library defines no corelogic_app_catalog. */
static inline const void *corelogic_ffi_app_catalog(void) {
    return corelogic_app_catalog ? corelogic_app_catalog() : (const void *)0;
}

#endif
