/* json.h: a small strict JSON DOM for the C hosts (the golden runner and the examples).
 *
 * Parsing follows RFC 8259 as strictly as the engine's parser: no trailing commas,
 * comments, leading zeros or bare NaN; invalid UTF-8, unpaired surrogate escapes and
 * duplicate object keys are errors; nesting is limited to JSON_MAX_DEPTH. Objects keep
 * their key order. Numbers keep their kind the way the engine does: an integer literal
 * that fits int64 is JSON_INT, one above INT64_MAX that fits uint64 is JSON_UINT,
 * anything else is JSON_DOUBLE; `number` always holds the value as a double.
 *
 * The writer is compact and spells values like the engine's writer, so a value read
 * from a file and written back is byte for byte what the Swift runner sends.
 */
#ifndef CORELOGIC_TESTS_JSON_H
#define CORELOGIC_TESTS_JSON_H

#include <stddef.h>
#include <stdint.h>

#define JSON_MAX_DEPTH 128

typedef enum {
    JSON_NULL, JSON_BOOL, JSON_INT, JSON_UINT, JSON_DOUBLE, JSON_STRING, JSON_ARRAY, JSON_OBJECT
} json_kind;

typedef struct json_value json_value;

struct json_value {
    json_kind kind;
    int boolean;          /* JSON_BOOL */
    int64_t integer;      /* JSON_INT */
    uint64_t uinteger;    /* JSON_UINT */
    double number;        /* every number kind */
    char *string;         /* JSON_STRING: decoded UTF-8, NUL-terminated; may hold NULs */
    size_t length;        /* JSON_STRING: bytes; JSON_ARRAY/JSON_OBJECT: members */
    json_value **items;   /* JSON_ARRAY: elements; JSON_OBJECT: values */
    char **keys;          /* JSON_OBJECT: keys, in document order */
    size_t capacity;
};

/* Parses `length` bytes. Returns the value (free with json_free), or NULL with a
 * message naming the byte offset in `error` (of `error_size` bytes) when invalid. */
json_value *json_parse(const char *text, size_t length, char *error, size_t error_size);

/* Frees a value and everything it holds. NULL is ignored. */
void json_free(json_value *value);

/* The member `key` of an object (NULL when absent or not an object). */
const json_value *json_get(const json_value *object, const char *key);

/* Element `index` of an array (NULL when out of range or not an array). */
const json_value *json_at(const json_value *array, size_t index);

/* The compact JSON text of a value, malloc'd (free with free()). */
char *json_write(const json_value *value);

/* Builders, for values made in C rather than parsed. Each returns a new value, or
 * NULL when out of memory. json_set takes ownership of `item` (also on failure) and
 * returns 0, or -1 when out of memory. */
json_value *json_new_null(void);
json_value *json_new_int(int64_t value);
json_value *json_new_string(const char *text);
json_value *json_new_array(void);
json_value *json_new_object(void);
json_value *json_copy(const json_value *value);
int json_set(json_value *object, const char *key, json_value *item);

/* Applies a JSON Patch (RFC 6902) to *document in place: `patch` is an array of
 * operations {"op":"add"|"remove"|"replace","path":"/a/0","value":...} whose paths are
 * JSON Pointers (RFC 6901: "" is the whole document, "~1" stands for "/" and "~0" for
 * "~" in a token, "-" after an array is the position past its last element). The
 * operations run in order; each costs what it touches (an append at "/items/-" does not
 * walk the array), plus a copy of its "value".
 *
 * Returns 0. On a malformed patch or an operation that does not apply (a missing
 * member, an index out of range, "move"/"copy"/"test", which the library never emits),
 * returns -1 with a message naming the operation in `error` (of `error_size` bytes), and
 * *document is exactly as it was: the operations already applied are undone. */
int json_patch_apply(json_value **document, const json_value *patch, char *error, size_t error_size);

/* Structural equality as JSON: objects by key whatever their order, numbers by value
 * (1 equals 1.0), strings byte for byte. */
int json_equal(const json_value *a, const json_value *b);

#endif
