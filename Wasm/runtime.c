/*
 * The C runtime of the WebAssembly module (docs/web.md). Embedded Swift for
 * wasm32-unknown-none-wasm needs a handful of C functions and the module has no C library:
 * a memory allocator (malloc/free/posix_memalign, also exported so that a host can pass
 * strings in the module's memory), the memory and string functions, 128-bit
 * multiplication, and the conversion of decimal text to a double, which is imported from
 * the host (JavaScript's Number() rounds correctly, as strtod does).
 */
typedef unsigned long size_t;
typedef unsigned long uintptr_t;

extern unsigned char __heap_base;

/* ---- memory ----------------------------------------------------------------------
 * Segregated free lists: a block holds 2^k bytes (k = 5...30) with an 8-byte header just
 * before the pointer handed out: the class k and the block's start. Freed blocks go back
 * to their class's list; memory grows by whole pages and is never given back, as with
 * any wasm module's linear memory. */
#define HEADER 8
#define MIN_CLASS 5
#define MAX_CLASS 30
#define ALIGNED_CLASS 63 /* a block handed out by posix_memalign with a larger alignment */

static uintptr_t heap_top;
static void *free_lists[MAX_CLASS + 1];

static void *grow(size_t bytes) {
    if (!heap_top) heap_top = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
    uintptr_t start = heap_top, end = start + bytes;
    if (end < start) return 0;
    size_t have = __builtin_wasm_memory_size(0) * 65536ul;
    if (end > have) {
        size_t pages = (end - have + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
    }
    heap_top = end;
    return (void *)start;
}

static unsigned size_class(size_t bytes) {
    unsigned k = MIN_CLASS;
    while (k <= MAX_CLASS && ((size_t)1 << k) < bytes) k++;
    return k;
}

static void *mark(char *block, size_t offset, size_t cls) {
    char *p = block + offset;
    ((size_t *)p)[-2] = cls;
    ((void **)p)[-1] = block;
    return p;
}

void *malloc(size_t n) {
    if (n > ((size_t)1 << MAX_CLASS) - 16) return 0;
    unsigned k = size_class(n + 16);
    char *block = free_lists[k];
    if (block) free_lists[k] = *(void **)block;
    else if (!(block = grow((size_t)1 << k))) return 0;
    return mark(block, 16, k); /* 16: the header, and pointers aligned to 16 */
}

void free(void *p) {
    if (!p) return;
    size_t k = ((size_t *)p)[-2];
    char *block = ((void **)p)[-1];
    if (k == ALIGNED_CLASS) { free(block); return; }
    *(void **)block = free_lists[k];
    free_lists[k] = block;
}

int posix_memalign(void **out, size_t alignment, size_t n) {
    if (alignment <= 16) {
        void *p = malloc(n);
        if (!p) return 12; /* ENOMEM */
        *out = p;
        return 0;
    }
    if (n > ((size_t)1 << MAX_CLASS) - alignment - 16) return 12;
    char *raw = malloc(n + alignment + HEADER);
    if (!raw) return 12;
    uintptr_t at = ((uintptr_t)raw + HEADER + alignment - 1) & ~(uintptr_t)(alignment - 1);
    *out = mark(raw, at - (uintptr_t)raw, ALIGNED_CLASS);
    return 0;
}

/* ---- memory and string functions (bulk-memory instructions) ---------------------- */
void *memcpy(void *dst, const void *src, size_t n) { return __builtin_memcpy(dst, src, n); }
void *memmove(void *dst, const void *src, size_t n) { return __builtin_memmove(dst, src, n); }
void *memset(void *dst, int c, size_t n) { return __builtin_memset(dst, c, n); }

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++) if (*x != *y) return *x - *y;
    return 0;
}

void *memchr(const void *s, int c, size_t n) {
    const unsigned char *p = s;
    for (; n; n--, p++) if (*p == (unsigned char)c) return (void *)p;
    return 0;
}

size_t strlen(const char *s) {
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

/* ---- what the Swift runtime asks for ---------------------------------------------- */
/* Hashing seeds: fixed, so that the module behaves the same on every run (nothing here
 * relies on unpredictable hashing: inputs are a host's own). */
void arc4random_buf(void *buffer, size_t n) {
    unsigned char *p = buffer;
    unsigned x = 2463534242u;
    while (n--) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; *p++ = (unsigned char)x; }
}

void abort(void) { __builtin_trap(); }
int putchar(int c) { return c; }

typedef unsigned long long u64;
typedef struct { u64 lo, hi; } u128;

/* Low 128 bits of a 128-bit product (compiler-rt's __multi3, which this toolchain does not
 * ship for wasm32). */
u128 __multi3(u64 a_lo, u64 a_hi, u64 b_lo, u64 b_hi) {
    u64 a0 = a_lo & 0xffffffffu, a1 = a_lo >> 32, b0 = b_lo & 0xffffffffu, b1 = b_lo >> 32;
    u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    u64 mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    u128 r;
    r.lo = (p00 & 0xffffffffu) | (mid << 32);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + a_lo * b_hi + a_hi * b_lo;
    return r;
}

/* Decimal text to double, for the numbers the JSON parser's exact fast path does not
 * cover: the host parses the text (JavaScript's Number, correctly rounded). */
__attribute__((import_module("env"), import_name("corelogic_wasm_parse_double")))
double corelogic_wasm_parse_double(const char *text, size_t length);

const char *_swift_stdlib_strtod_clocale(const char *text, double *out) {
    size_t n = strlen(text);
    double value = corelogic_wasm_parse_double(text, n);
    if (value != value) return 0; /* not a number: nothing read */
    *out = value;
    return text + n;
}

/* ---- handlers -----------------------------------------------------------------------
 * corelogic_system_on_command/on_state take a C function. A JavaScript host cannot make
 * one, so the module offers this one: it passes the handler's context and the JSON to
 * the host's imported function, and the host tells its handlers apart by the context. */
__attribute__((import_module("env"), import_name("corelogic_wasm_handler")))
void corelogic_wasm_handler(void *context, const char *json);

static void call_host_handler(void *context, const char *json) { corelogic_wasm_handler(context, json); }

/* The function to pass as corelogic_command_fn or corelogic_state_fn. */
__attribute__((export_name("corelogic_wasm_host_handler")))
void (*corelogic_wasm_host_handler(void))(void *, const char *) { return call_host_handler; }
