/* The C library functions the framework's Swift code calls directly, for the WebAssembly
 * build, which has no C library module: Wasm/runtime.c defines them. */
#ifndef CORELOGIC_WASM_LIBC_H
#define CORELOGIC_WASM_LIBC_H
#include <stddef.h>
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
size_t strlen(const char *s);
void *malloc(size_t n);
void free(void *p);
#endif
