/* json.c: the strict parser and compact writer declared in json.h. */
#define _POSIX_C_SOURCE 200809L  /* strdup */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_BYTES ((size_t)16 << 20)

/* ------------------------------------------------------------------------------
 * Values
 * ---------------------------------------------------------------------------- */

static json_value *new_value(json_kind kind) {
    json_value *v = calloc(1, sizeof *v);
    if (v != NULL) v->kind = kind;
    return v;
}

void json_free(json_value *v) {
    if (v == NULL) return;
    for (size_t i = 0; i < v->length && v->items != NULL; i++) json_free(v->items[i]);
    if (v->keys != NULL) {
        for (size_t i = 0; i < v->length; i++) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
    free(v);
}

const json_value *json_get(const json_value *object, const char *key) {
    if (object == NULL || object->kind != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < object->length; i++) {
        if (strcmp(object->keys[i], key) == 0) return object->items[i];
    }
    return NULL;
}

const json_value *json_at(const json_value *array, size_t index) {
    if (array == NULL || array->kind != JSON_ARRAY || index >= array->length) return NULL;
    return array->items[index];
}

/* Appends a member; `key` (malloc'd or NULL for arrays) is owned by the container. */
static int add_member(json_value *container, char *key, json_value *item) {
    if (container->length == container->capacity) {
        size_t capacity = container->capacity ? container->capacity * 2 : 4;
        json_value **items = realloc(container->items, capacity * sizeof *items);
        if (items == NULL) return -1;
        container->items = items;
        if (container->kind == JSON_OBJECT) {
            char **keys = realloc(container->keys, capacity * sizeof *keys);
            if (keys == NULL) return -1;
            container->keys = keys;
        }
        container->capacity = capacity;
    }
    container->items[container->length] = item;
    if (container->kind == JSON_OBJECT) container->keys[container->length] = key;
    container->length++;
    return 0;
}

json_value *json_new_null(void) { return new_value(JSON_NULL); }

json_value *json_new_int(int64_t value) {
    json_value *v = new_value(JSON_INT);
    if (v != NULL) { v->integer = value; v->number = (double)value; }
    return v;
}

static json_value *new_string_bytes(const char *bytes, size_t length) {
    json_value *v = new_value(JSON_STRING);
    if (v == NULL) return NULL;
    v->string = malloc(length + 1);
    if (v->string == NULL) { free(v); return NULL; }
    memcpy(v->string, bytes, length);
    v->string[length] = '\0';
    v->length = length;
    return v;
}

json_value *json_new_string(const char *text) { return new_string_bytes(text, strlen(text)); }
json_value *json_new_array(void) { return new_value(JSON_ARRAY); }
json_value *json_new_object(void) { return new_value(JSON_OBJECT); }

json_value *json_copy(const json_value *v) {
    if (v == NULL) return NULL;
    if (v->kind == JSON_STRING) return new_string_bytes(v->string, v->length);
    json_value *copy = new_value(v->kind);
    if (copy == NULL) return NULL;
    copy->boolean = v->boolean;
    copy->integer = v->integer;
    copy->uinteger = v->uinteger;
    copy->number = v->number;
    if (v->kind == JSON_ARRAY || v->kind == JSON_OBJECT) {
        for (size_t i = 0; i < v->length; i++) {
            char *key = NULL;
            if (v->kind == JSON_OBJECT && (key = strdup(v->keys[i])) == NULL) { json_free(copy); return NULL; }
            json_value *item = json_copy(v->items[i]);
            if (item == NULL || add_member(copy, key, item) != 0) {
                free(key); json_free(item); json_free(copy);
                return NULL;
            }
        }
    }
    return copy;
}

int json_set(json_value *object, const char *key, json_value *item) {
    if (object == NULL || object->kind != JSON_OBJECT || item == NULL) { json_free(item); return -1; }
    for (size_t i = 0; i < object->length; i++) {
        if (strcmp(object->keys[i], key) == 0) {
            json_free(object->items[i]);
            object->items[i] = item;
            return 0;
        }
    }
    char *copy = strdup(key);
    if (copy == NULL || add_member(object, copy, item) != 0) { free(copy); json_free(item); return -1; }
    return 0;
}

/* ------------------------------------------------------------------------------
 * Parser (recursive descent; depth is bounded by JSON_MAX_DEPTH)
 * ---------------------------------------------------------------------------- */

typedef struct {
    const unsigned char *text;
    size_t length, at;
    char *error;
    size_t error_size;
    int failed;
} parser;

static void fail(parser *p, size_t at, const char *format, ...) {
    if (p->failed) return;
    p->failed = 1;
    if (p->error == NULL || p->error_size == 0) return;
    char what[160];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at && i < p->length; i++) {
        if (p->text[i] == '\n') { line++; column = 1; } else { column++; }
    }
    snprintf(p->error, p->error_size, "%s at byte %zu (line %zu, column %zu)", what, at, line, column);
}

static int peek(const parser *p) { return p->at < p->length ? p->text[p->at] : -1; }

static void skip_space(parser *p) {
    while (p->at < p->length) {
        unsigned char c = p->text[p->at];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        p->at++;
    }
}

static int literal(parser *p, const char *word) {
    size_t n = strlen(word);
    if (p->length - p->at < n || memcmp(p->text + p->at, word, n) != 0) {
        fail(p, p->at, "invalid literal");
        return 0;
    }
    p->at += n;
    return 1;
}

/* A growable byte buffer for string contents and the writer. */
typedef struct { char *bytes; size_t length, capacity; int oom; } buffer;

static void put_bytes(buffer *b, const void *bytes, size_t n) {
    if (b->oom) return;
    if (b->length + n + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 64;
        while (b->length + n + 1 > capacity) capacity *= 2;
        char *grown = realloc(b->bytes, capacity);
        if (grown == NULL) { b->oom = 1; return; }
        b->bytes = grown;
        b->capacity = capacity;
    }
    memcpy(b->bytes + b->length, bytes, n);
    b->length += n;
    b->bytes[b->length] = '\0';
}

static void put_char(buffer *b, char c) { put_bytes(b, &c, 1); }
static void put_text(buffer *b, const char *s) { put_bytes(b, s, strlen(s)); }

static void put_utf8(buffer *b, uint32_t cp) {
    char out[4];
    if (cp < 0x80) { out[0] = (char)cp; put_bytes(b, out, 1); }
    else if (cp < 0x800) { out[0] = (char)(0xC0 | cp >> 6); out[1] = (char)(0x80 | (cp & 0x3F)); put_bytes(b, out, 2); }
    else if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12); out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F)); put_bytes(b, out, 3);
    } else {
        out[0] = (char)(0xF0 | cp >> 18); out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[3] = (char)(0x80 | (cp & 0x3F)); put_bytes(b, out, 4);
    }
}

/* Length of the valid UTF-8 sequence at p->at (non-ASCII lead byte), or 0. */
static size_t utf8_sequence(const parser *p) {
    const unsigned char *s = p->text + p->at;
    size_t left = p->length - p->at;
    unsigned char b0 = s[0];
    size_t n;
    if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
    else if (b0 >= 0xE0 && b0 <= 0xEF) n = 3;
    else if (b0 >= 0xF0 && b0 <= 0xF4) n = 4;
    else return 0;                                    /* continuation, overlong C0/C1, > F4 */
    if (left < n) return 0;
    for (size_t i = 1; i < n; i++) if ((s[i] & 0xC0) != 0x80) return 0;
    if (b0 == 0xE0 && s[1] < 0xA0) return 0;          /* overlong */
    if (b0 == 0xED && s[1] >= 0xA0) return 0;         /* encoded surrogate */
    if (b0 == 0xF0 && s[1] < 0x90) return 0;          /* overlong */
    if (b0 == 0xF4 && s[1] >= 0x90) return 0;         /* above U+10FFFF */
    return n;
}

static int hex4(parser *p, uint32_t *out) {
    if (p->length - p->at < 4) { fail(p, p->at, "truncated \\u escape"); return 0; }
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int c = p->text[p->at + i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
        else { fail(p, p->at + i, "invalid hex digit in \\u escape"); return 0; }
    }
    p->at += 4;
    *out = v;
    return 1;
}

/* Parses a string literal at p->at (the opening quote) into `out`. */
static int parse_string_into(parser *p, buffer *out) {
    p->at++;
    for (;;) {
        if (p->at >= p->length) { fail(p, p->at, "unterminated string"); return 0; }
        unsigned char c = p->text[p->at];
        if (c == '"') { p->at++; put_bytes(out, "", 0); return !out->oom; }
        if (c < 0x20) { fail(p, p->at, "raw control character in string"); return 0; }
        if (c >= 0x80) {
            size_t n = utf8_sequence(p);
            if (n == 0) { fail(p, p->at, "invalid UTF-8"); return 0; }
            put_bytes(out, p->text + p->at, n);
            p->at += n;
            continue;
        }
        if (c != '\\') { put_char(out, (char)c); p->at++; continue; }
        size_t escape_at = p->at;
        p->at++;
        int e = peek(p);
        p->at++;
        switch (e) {
        case '"': put_char(out, '"'); break;
        case '\\': put_char(out, '\\'); break;
        case '/': put_char(out, '/'); break;
        case 'b': put_char(out, '\b'); break;
        case 'f': put_char(out, '\f'); break;
        case 'n': put_char(out, '\n'); break;
        case 'r': put_char(out, '\r'); break;
        case 't': put_char(out, '\t'); break;
        case 'u': {
            uint32_t cp;
            if (!hex4(p, &cp)) return 0;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t low;
                if (p->length - p->at < 2 || p->text[p->at] != '\\' || p->text[p->at + 1] != 'u') {
                    fail(p, escape_at, "unpaired high surrogate escape");
                    return 0;
                }
                p->at += 2;
                if (!hex4(p, &low)) return 0;
                if (low < 0xDC00 || low > 0xDFFF) { fail(p, escape_at, "unpaired high surrogate escape"); return 0; }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                fail(p, escape_at, "unpaired low surrogate escape");
                return 0;
            }
            put_utf8(out, cp);
            break;
        }
        default:
            fail(p, escape_at, "invalid escape");
            return 0;
        }
    }
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static json_value *parse_number(parser *p) {
    size_t start = p->at;
    int negative = 0, is_integer = 1, overflow = 0;
    uint64_t mantissa = 0;
    if (peek(p) == '-') { negative = 1; p->at++; }
    if (peek(p) == '0') {
        p->at++;
        if (is_digit(peek(p))) { fail(p, start, "leading zero in number"); return NULL; }
    } else if (is_digit(peek(p))) {
        while (is_digit(peek(p))) {
            unsigned digit = (unsigned)(peek(p) - '0');
            if (mantissa > (UINT64_MAX - digit) / 10) overflow = 1;
            else mantissa = mantissa * 10 + digit;
            p->at++;
        }
    } else {
        fail(p, start, "invalid number");
        return NULL;
    }
    if (peek(p) == '.') {
        is_integer = 0;
        p->at++;
        if (!is_digit(peek(p))) { fail(p, p->at, "expected a digit after '.'"); return NULL; }
        while (is_digit(peek(p))) p->at++;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        is_integer = 0;
        p->at++;
        if (peek(p) == '+' || peek(p) == '-') p->at++;
        if (!is_digit(peek(p))) { fail(p, p->at, "expected a digit in the exponent"); return NULL; }
        while (is_digit(peek(p))) p->at++;
    }
    json_value *v = NULL;
    if (is_integer && !overflow) {
        if (negative && mantissa <= (uint64_t)INT64_MAX + 1) {
            v = new_value(JSON_INT);
            if (v != NULL) v->integer = mantissa == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mantissa;
            if (v != NULL) v->number = (double)v->integer;
            return v;
        }
        if (!negative) {
            if (mantissa <= (uint64_t)INT64_MAX) {
                v = new_value(JSON_INT);
                if (v != NULL) { v->integer = (int64_t)mantissa; v->number = (double)mantissa; }
            } else {
                v = new_value(JSON_UINT);
                if (v != NULL) { v->uinteger = mantissa; v->number = (double)mantissa; }
            }
            return v;
        }
    }
    size_t n = p->at - start;
    char *lexeme = malloc(n + 1);
    if (lexeme == NULL) return NULL;
    memcpy(lexeme, p->text + start, n);
    lexeme[n] = '\0';
    double d = strtod(lexeme, NULL);
    free(lexeme);
    if (!isfinite(d)) { fail(p, start, "number out of range"); return NULL; }
    v = new_value(JSON_DOUBLE);
    if (v != NULL) v->number = d;
    return v;
}

static json_value *parse_value(parser *p, int depth);

static json_value *parse_container(parser *p, int depth, int is_object) {
    size_t open_at = p->at;
    if (depth + 1 > JSON_MAX_DEPTH) { fail(p, open_at, "nesting deeper than %d levels", JSON_MAX_DEPTH); return NULL; }
    json_value *container = new_value(is_object ? JSON_OBJECT : JSON_ARRAY);
    if (container == NULL) return NULL;
    char close = is_object ? '}' : ']';
    p->at++;
    skip_space(p);
    if (peek(p) == close) { p->at++; return container; }
    for (;;) {
        char *key = NULL;
        if (is_object) {
            skip_space(p);
            size_t key_at = p->at;
            if (peek(p) != '"') { fail(p, p->at, "expected a string key"); break; }
            buffer b = {0};
            if (!parse_string_into(p, &b)) { free(b.bytes); break; }
            key = b.bytes;
            if (strlen(key) != b.length) {
                /* Keys with NUL cannot be looked up by C strings; such files are not ours. */
                free(key); fail(p, key_at, "object key containing U+0000"); break;
            }
            if (json_get(container, key) != NULL) {
                fail(p, key_at, "duplicate key \"%s\"", key);
                free(key);
                break;
            }
            skip_space(p);
            if (peek(p) != ':') { free(key); fail(p, p->at, "expected ':'"); break; }
            p->at++;
        }
        json_value *item = parse_value(p, depth + 1);
        if (item == NULL) { free(key); break; }
        if (add_member(container, key, item) != 0) { free(key); json_free(item); fail(p, p->at, "out of memory"); break; }
        skip_space(p);
        if (peek(p) == ',') {
            p->at++;
            skip_space(p);
            if (peek(p) == close) { fail(p, p->at, "trailing comma"); break; }
            continue;
        }
        if (peek(p) == close) { p->at++; return container; }
        fail(p, p->at, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
        break;
    }
    json_free(container);
    return NULL;
}

static json_value *parse_value(parser *p, int depth) {
    skip_space(p);
    json_value *v;
    switch (peek(p)) {
    case -1: fail(p, p->at, "unexpected end of input"); return NULL;
    case '{': return parse_container(p, depth, 1);
    case '[': return parse_container(p, depth, 0);
    case '"': {
        buffer b = {0};
        if (!parse_string_into(p, &b)) { free(b.bytes); return NULL; }
        v = new_value(JSON_STRING);
        if (v == NULL) { free(b.bytes); return NULL; }
        v->string = b.bytes != NULL ? b.bytes : strdup("");
        v->length = b.length;
        return v;
    }
    case 't': if (!literal(p, "true")) return NULL; v = new_value(JSON_BOOL); if (v) v->boolean = 1; return v;
    case 'f': if (!literal(p, "false")) return NULL; v = new_value(JSON_BOOL); return v;
    case 'n': if (!literal(p, "null")) return NULL; return new_value(JSON_NULL);
    default:
        if (peek(p) == '-' || is_digit(peek(p))) return parse_number(p);
        fail(p, p->at, "unexpected character");
        return NULL;
    }
}

json_value *json_parse(const char *text, size_t length, char *error, size_t error_size) {
    parser p = {(const unsigned char *)text, length, 0, error, error_size, 0};
    if (error != NULL && error_size > 0) error[0] = '\0';
    if (length > JSON_MAX_BYTES) {
        if (error != NULL) snprintf(error, error_size, "input of %zu bytes exceeds the limit of %zu bytes", length, JSON_MAX_BYTES);
        return NULL;
    }
    if (length == 0) { fail(&p, 0, "empty input"); return NULL; }
    json_value *v = parse_value(&p, 0);
    if (v == NULL) {
        if (!p.failed) fail(&p, p.at, "out of memory");
        return NULL;
    }
    skip_space(&p);
    if (p.at != length) { fail(&p, p.at, "trailing characters after the document"); json_free(v); return NULL; }
    return v;
}

/* ------------------------------------------------------------------------------
 * Writer
 * ---------------------------------------------------------------------------- */

static void write_string(buffer *b, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    put_char(b, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        put_bytes(b, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': put_text(b, "\\\""); break;
        case '\\': put_text(b, "\\\\"); break;
        case '\n': put_text(b, "\\n"); break;
        case '\t': put_text(b, "\\t"); break;
        case '\r': put_text(b, "\\r"); break;
        case '\b': put_text(b, "\\b"); break;
        case '\f': put_text(b, "\\f"); break;
        default: {
            char u[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF], '\0'};
            put_text(b, u);
        }
        }
    }
    put_bytes(b, s + run, n - run);
    put_char(b, '"');
}

/* Shortest round-trip spelling, as the engine's writer does: positional with ".0" for
 * 1e-4 <= |d| <= 2^53 ("100.0", "0.0001"), else exponential ("1e+16", "2.5e-07"). */
static void write_double(buffer *b, double d) {
    if (!isfinite(d)) { put_text(b, "null"); return; }
    if (d == 0) { put_text(b, signbit(d) ? "-0.0" : "0.0"); return; }
    char sci[40];
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(sci, sizeof sci, "%.*e", precision - 1, d);
        if (strtod(sci, NULL) == d) break;
    }
    /* sci is "-d.ddde+XX": collect the digits and the decimal exponent. */
    char digits[24];
    size_t count = 0;
    const char *s = sci;
    int negative = *s == '-';
    if (negative) s++;
    for (; *s != 'e'; s++) if (is_digit(*s)) digits[count++] = *s;
    int exponent = atoi(s + 1);
    while (count > 1 && digits[count - 1] == '0') count--;
    digits[count] = '\0';
    if (negative) put_char(b, '-');
    double magnitude = fabs(d);
    if (magnitude >= 1e-4 && magnitude <= 9007199254740992.0) {
        if (exponent < 0) {
            put_text(b, "0.");
            for (int i = -1; i > exponent; i--) put_char(b, '0');
            put_text(b, digits);
        } else {
            for (int i = 0; i <= exponent; i++) put_char(b, (size_t)i < count ? digits[i] : '0');
            put_char(b, '.');
            if ((size_t)exponent + 1 < count) put_text(b, digits + exponent + 1);
            else put_char(b, '0');
        }
        return;
    }
    put_char(b, digits[0]);
    if (count > 1) { put_char(b, '.'); put_text(b, digits + 1); }
    char tail[16];
    snprintf(tail, sizeof tail, "e%c%02d", exponent < 0 ? '-' : '+', abs(exponent));
    put_text(b, tail);
}

static void write_value(buffer *b, const json_value *v) {
    char number[32];
    switch (v->kind) {
    case JSON_NULL: put_text(b, "null"); break;
    case JSON_BOOL: put_text(b, v->boolean ? "true" : "false"); break;
    case JSON_INT: snprintf(number, sizeof number, "%lld", (long long)v->integer); put_text(b, number); break;
    case JSON_UINT: snprintf(number, sizeof number, "%llu", (unsigned long long)v->uinteger); put_text(b, number); break;
    case JSON_DOUBLE: write_double(b, v->number); break;
    case JSON_STRING: write_string(b, v->string, v->length); break;
    case JSON_ARRAY:
        put_char(b, '[');
        for (size_t i = 0; i < v->length; i++) {
            if (i > 0) put_char(b, ',');
            write_value(b, v->items[i]);
        }
        put_char(b, ']');
        break;
    case JSON_OBJECT:
        put_char(b, '{');
        for (size_t i = 0; i < v->length; i++) {
            if (i > 0) put_char(b, ',');
            write_string(b, v->keys[i], strlen(v->keys[i]));
            put_char(b, ':');
            write_value(b, v->items[i]);
        }
        put_char(b, '}');
        break;
    }
}

char *json_write(const json_value *value) {
    buffer b = {0};
    if (value == NULL) put_text(&b, "null"); else write_value(&b, value);
    if (b.oom) { free(b.bytes); return NULL; }
    return b.bytes;
}

/* ------------------------------------------------------------------------------
 * Equality
 * ---------------------------------------------------------------------------- */

int json_equal(const json_value *a, const json_value *b) {
    if (a == NULL || b == NULL) return a == b;
    int a_number = a->kind == JSON_INT || a->kind == JSON_UINT || a->kind == JSON_DOUBLE;
    int b_number = b->kind == JSON_INT || b->kind == JSON_UINT || b->kind == JSON_DOUBLE;
    if (a_number || b_number) {
        if (!a_number || !b_number) return 0;
        if (a->kind == b->kind && a->kind == JSON_INT) return a->integer == b->integer;
        if (a->kind == b->kind && a->kind == JSON_UINT) return a->uinteger == b->uinteger;
        return a->number == b->number;
    }
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case JSON_NULL: return 1;
    case JSON_BOOL: return a->boolean == b->boolean;
    case JSON_STRING: return a->length == b->length && memcmp(a->string, b->string, a->length) == 0;
    case JSON_ARRAY:
        if (a->length != b->length) return 0;
        for (size_t i = 0; i < a->length; i++) if (!json_equal(a->items[i], b->items[i])) return 0;
        return 1;
    case JSON_OBJECT:
        if (a->length != b->length) return 0;
        for (size_t i = 0; i < a->length; i++) {
            /* Same position first: objects written by one writer keep one key order. */
            const json_value *other = i < b->length && strcmp(a->keys[i], b->keys[i]) == 0
                                      ? b->items[i] : json_get(b, a->keys[i]);
            if (other == NULL || !json_equal(a->items[i], other)) return 0;
        }
        return 1;
    default: return 0;
    }
}

/* ------------------------------------------------------------------------------
 * JSON Patch (RFC 6902) over JSON Pointers (RFC 6901)
 *
 * Every operation records how to undo itself; the values it replaces or removes are kept
 * in that record, not freed, so every container pointer stays valid until the patch has
 * either applied completely (the kept values are freed) or failed (the records are
 * replayed backwards and the document is what it was).
 * ---------------------------------------------------------------------------- */

typedef enum { UNDO_ROOT, UNDO_SLOT, UNDO_INSERTED, UNDO_REMOVED } undo_kind;

typedef struct {
    undo_kind kind;
    json_value *container;   /* UNDO_SLOT, UNDO_INSERTED, UNDO_REMOVED */
    size_t index;
    char *key;               /* UNDO_REMOVED from an object: the member's key */
    json_value *old;         /* UNDO_ROOT, UNDO_SLOT, UNDO_REMOVED: the value taken out */
} undo_record;

typedef struct {
    undo_record *records;
    size_t count, capacity;
} undo_log;

static int undo_push(undo_log *log, undo_record record) {
    if (log->count == log->capacity) {
        size_t capacity = log->capacity ? log->capacity * 2 : 8;
        undo_record *grown = realloc(log->records, capacity * sizeof *grown);
        if (grown == NULL) return -1;
        log->records = grown;
        log->capacity = capacity;
    }
    log->records[log->count++] = record;
    return 0;
}

/* Inserts `item` (and `key`, for objects) at `index`, shifting what follows. */
static int insert_member(json_value *container, size_t index, char *key, json_value *item) {
    if (add_member(container, key, item) != 0) return -1;
    size_t last = container->length - 1;
    if (index < last) {
        memmove(container->items + index + 1, container->items + index, (last - index) * sizeof *container->items);
        container->items[index] = item;
        if (container->kind == JSON_OBJECT) {
            memmove(container->keys + index + 1, container->keys + index, (last - index) * sizeof *container->keys);
            container->keys[index] = key;
        }
    }
    return 0;
}

/* Takes the member at `index` out of its container (the caller owns item and key). */
static void take_member(json_value *container, size_t index, char **key, json_value **item) {
    *item = container->items[index];
    *key = container->kind == JSON_OBJECT ? container->keys[index] : NULL;
    size_t after = container->length - index - 1;
    memmove(container->items + index, container->items + index + 1, after * sizeof *container->items);
    if (container->kind == JSON_OBJECT) memmove(container->keys + index, container->keys + index + 1, after * sizeof *container->keys);
    container->length--;
}

static void undo_all(json_value **document, undo_log *log) {
    while (log->count > 0) {
        undo_record *r = &log->records[--log->count];
        switch (r->kind) {
        case UNDO_ROOT:
            json_free(*document);
            *document = r->old;
            break;
        case UNDO_SLOT:
            json_free(r->container->items[r->index]);
            r->container->items[r->index] = r->old;
            break;
        case UNDO_INSERTED: {
            char *key;
            json_value *item;
            take_member(r->container, r->index, &key, &item);
            free(key);
            json_free(item);
            break;
        }
        case UNDO_REMOVED:
            /* Room for it was there a moment ago; capacity never shrinks. */
            (void)insert_member(r->container, r->index, r->key, r->old);
            break;
        }
    }
}

static void commit_all(undo_log *log) {
    for (size_t i = 0; i < log->count; i++) {
        undo_record *r = &log->records[i];
        if (r->kind == UNDO_REMOVED) free(r->key);
        if (r->kind != UNDO_INSERTED) json_free(r->old);
    }
    log->count = 0;
}

/* One reference token of a pointer, unescaped (~1 -> "/", ~0 -> "~"). */
static int next_token(const char **cursor, const char *end, buffer *token) {
    token->length = 0;
    put_bytes(token, "", 0);   /* allocated and NUL-terminated even when empty */
    const char *p = *cursor;
    while (p < end && *p != '/') {
        if (*p == '~') {
            if (p + 1 >= end || (p[1] != '0' && p[1] != '1')) return -1;
            put_char(token, p[1] == '0' ? '~' : '/');
            p += 2;
        } else {
            put_char(token, *p++);
        }
    }
    *cursor = p;
    return token->oom ? -2 : 0;
}

/* An array index token: "0" or digits without a leading zero; -1 when not one. */
static long long array_index(const buffer *token) {
    if (token->length == 0 || token->length > 18) return -1;
    if (token->bytes[0] == '0' && token->length > 1) return -1;
    long long index = 0;
    for (size_t i = 0; i < token->length; i++) {
        if (!is_digit(token->bytes[i])) return -1;
        index = index * 10 + (token->bytes[i] - '0');
    }
    return index;
}

static size_t object_index(const json_value *object, const buffer *token) {
    if (strlen(token->bytes) != token->length) return object->length;   /* a NUL: no such key */
    for (size_t i = 0; i < object->length; i++) {
        if (strcmp(object->keys[i], token->bytes) == 0) return i;
    }
    return object->length;
}

typedef enum { OP_ADD, OP_REMOVE, OP_REPLACE } patch_op;

/* Applies one operation; returns 0, or -1 with the reason in `why`. */
static int apply_operation(json_value **document, patch_op op, const json_value *path,
                           const json_value *value, undo_log *log, char *why, size_t why_size) {
    const char *p = path->string, *end = path->string + path->length;
    if (p == end) {
        /* The whole document. */
        if (op == OP_REMOVE) { snprintf(why, why_size, "cannot remove the whole document"); return -1; }
        json_value *copy = json_copy(value);
        if (copy == NULL || undo_push(log, (undo_record){UNDO_ROOT, NULL, 0, NULL, *document}) != 0) {
            json_free(copy);
            snprintf(why, why_size, "out of memory");
            return -1;
        }
        *document = copy;
        return 0;
    }
    if (*p != '/') { snprintf(why, why_size, "a path must be empty or start with '/'"); return -1; }
    buffer token = {0};
    json_value *parent = *document;
    int result = -1;
    for (;;) {
        p++;   /* the '/' */
        int rc = next_token(&p, end, &token);
        if (rc == -1) { snprintf(why, why_size, "'~' must be followed by '0' or '1'"); break; }
        if (rc == -2) { snprintf(why, why_size, "out of memory"); break; }
        int last = p == end;
        if (parent->kind == JSON_OBJECT) {
            size_t index = object_index(parent, &token);
            if (!last) {
                if (index == parent->length) { snprintf(why, why_size, "no member \"%s\"", token.bytes); break; }
                parent = parent->items[index];
                continue;
            }
            if (op != OP_ADD && index == parent->length) {
                snprintf(why, why_size, "no member \"%s\" to %s", token.bytes, op == OP_REMOVE ? "remove" : "replace");
                break;
            }
            if (op == OP_REMOVE) {
                char *key;
                json_value *item;
                if (undo_push(log, (undo_record){UNDO_REMOVED, parent, index, NULL, NULL}) != 0) { snprintf(why, why_size, "out of memory"); break; }
                take_member(parent, index, &key, &item);
                log->records[log->count - 1].key = key;
                log->records[log->count - 1].old = item;
                result = 0;
                break;
            }
            json_value *copy = json_copy(value);
            if (copy == NULL) { snprintf(why, why_size, "out of memory"); break; }
            if (index < parent->length) {
                /* replace, or add onto an existing member (which replaces it) */
                if (undo_push(log, (undo_record){UNDO_SLOT, parent, index, NULL, parent->items[index]}) != 0) {
                    json_free(copy); snprintf(why, why_size, "out of memory"); break;
                }
                parent->items[index] = copy;
                result = 0;
                break;
            }
            char *key = strdup(token.bytes);
            if (key == NULL || undo_push(log, (undo_record){UNDO_INSERTED, parent, parent->length, NULL, NULL}) != 0) {
                free(key); json_free(copy); snprintf(why, why_size, "out of memory"); break;
            }
            if (add_member(parent, key, copy) != 0) {
                log->count--; free(key); json_free(copy); snprintf(why, why_size, "out of memory"); break;
            }
            result = 0;
            break;
        }
        if (parent->kind == JSON_ARRAY) {
            int append = token.length == 1 && token.bytes[0] == '-';
            long long index = append ? (long long)parent->length : array_index(&token);
            if (index < 0) { snprintf(why, why_size, "\"%s\" is not an array index", token.bytes); break; }
            size_t limit = op == OP_ADD && last ? parent->length + 1 : parent->length;
            if ((size_t)index >= limit || (append && !(op == OP_ADD && last))) {
                snprintf(why, why_size, "index %s is out of range (the array has %zu elements)", token.bytes, parent->length);
                break;
            }
            if (!last) { parent = parent->items[index]; continue; }
            if (op == OP_REMOVE) {
                char *key;
                json_value *item;
                if (undo_push(log, (undo_record){UNDO_REMOVED, parent, (size_t)index, NULL, NULL}) != 0) { snprintf(why, why_size, "out of memory"); break; }
                take_member(parent, (size_t)index, &key, &item);
                log->records[log->count - 1].old = item;
                result = 0;
                break;
            }
            json_value *copy = json_copy(value);
            if (copy == NULL) { snprintf(why, why_size, "out of memory"); break; }
            if (op == OP_REPLACE) {
                if (undo_push(log, (undo_record){UNDO_SLOT, parent, (size_t)index, NULL, parent->items[index]}) != 0) {
                    json_free(copy); snprintf(why, why_size, "out of memory"); break;
                }
                parent->items[index] = copy;
                result = 0;
                break;
            }
            if (undo_push(log, (undo_record){UNDO_INSERTED, parent, (size_t)index, NULL, NULL}) != 0) {
                json_free(copy); snprintf(why, why_size, "out of memory"); break;
            }
            if (insert_member(parent, (size_t)index, NULL, copy) != 0) {
                log->count--; json_free(copy); snprintf(why, why_size, "out of memory"); break;
            }
            result = 0;
            break;
        }
        snprintf(why, why_size, "\"%s\" goes into a value that is neither an object nor an array", token.bytes);
        break;
    }
    free(token.bytes);
    return result;
}

int json_patch_apply(json_value **document, const json_value *patch, char *error, size_t error_size) {
    char why[200];
    if (error != NULL && error_size > 0) error[0] = '\0';
    if (document == NULL || *document == NULL || patch == NULL || patch->kind != JSON_ARRAY) {
        if (error != NULL) snprintf(error, error_size, "a patch is a JSON array of operations");
        return -1;
    }
    undo_log log = {0};
    for (size_t i = 0; i < patch->length; i++) {
        const json_value *operation = patch->items[i];
        const json_value *name = json_get(operation, "op"), *path = json_get(operation, "path");
        const json_value *value = json_get(operation, "value");
        const char *shown_op = name != NULL && name->kind == JSON_STRING ? name->string : "?";
        const char *shown_path = path != NULL && path->kind == JSON_STRING ? path->string : "?";
        patch_op op = OP_ADD;
        int failed = 1;
        if (operation->kind != JSON_OBJECT) snprintf(why, sizeof why, "not an object");
        else if (name == NULL || name->kind != JSON_STRING) snprintf(why, sizeof why, "\"op\" must be a string");
        else if (strcmp(name->string, "add") != 0 && strcmp(name->string, "remove") != 0 && strcmp(name->string, "replace") != 0)
            snprintf(why, sizeof why, "unsupported op (add, remove and replace are supported)");
        else if (path == NULL || path->kind != JSON_STRING) snprintf(why, sizeof why, "\"path\" must be a string");
        else {
            op = strcmp(name->string, "add") == 0 ? OP_ADD : strcmp(name->string, "remove") == 0 ? OP_REMOVE : OP_REPLACE;
            if (op != OP_REMOVE && value == NULL) snprintf(why, sizeof why, "\"value\" is missing");
            else failed = apply_operation(document, op, path, value, &log, why, sizeof why) != 0;
        }
        if (failed) {
            if (error != NULL) snprintf(error, error_size, "patch operation %zu (%s \"%s\"): %s", i, shown_op, shown_path, why);
            undo_all(document, &log);
            free(log.records);
            return -1;
        }
    }
    commit_all(&log);
    free(log.records);
    return 0;
}
