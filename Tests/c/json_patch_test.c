/* The JSON Patch applier of the examples' JSON library (Examples/c/json.c): RFC 6902's
 * add/remove/replace examples (appendix A), JSON Pointer escaping (RFC 6901), and the
 * rule that a patch that fails leaves the document exactly as it was.
 * Ends with "json-patch: N passed, N failed"; exit status 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

static int passed, failed;

static json_value *parse(const char *text) {
    char error[256];
    json_value *v = json_parse(text, strlen(text), error, sizeof error);
    if (v == NULL) { fprintf(stderr, "json_patch_test: bad test JSON %s: %s\n", text, error); exit(2); }
    return v;
}

/* The patch applies and gives `expected` (compared as JSON). */
static void applies(const char *name, const char *document, const char *patch, const char *expected) {
    json_value *doc = parse(document), *ops = parse(patch), *want = parse(expected);
    char error[256];
    if (json_patch_apply(&doc, ops, error, sizeof error) != 0) {
        printf("FAIL %s: did not apply: %s\n", name, error);
        failed++;
    } else if (!json_equal(doc, want)) {
        char *got = json_write(doc);
        printf("FAIL %s: expected %s, got %s\n", name, expected, got);
        free(got);
        failed++;
    } else {
        passed++;
    }
    json_free(doc); json_free(ops); json_free(want);
}

/* The patch is refused with a message containing `message`, and the document is
 * byte for byte what it was. */
static void refused(const char *name, const char *document, const char *patch, const char *message) {
    json_value *doc = parse(document), *ops = parse(patch);
    char *before = json_write(doc);
    char error[256];
    if (json_patch_apply(&doc, ops, error, sizeof error) == 0) {
        printf("FAIL %s: applied, expected an error containing '%s'\n", name, message);
        failed++;
    } else {
        char *after = json_write(doc);
        if (strstr(error, message) == NULL) {
            printf("FAIL %s: expected an error containing '%s', got '%s'\n", name, message, error);
            failed++;
        } else if (strcmp(before, after) != 0) {
            printf("FAIL %s: the document changed on a refused patch: %s -> %s\n", name, before, after);
            failed++;
        } else {
            passed++;
        }
        free(after);
    }
    free(before);
    json_free(doc); json_free(ops);
}

int main(void) {
    /* RFC 6902 appendix A, the add/remove/replace examples. */
    applies("A.1 add an object member", "{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\"}]",
            "{\"baz\":\"qux\",\"foo\":\"bar\"}");
    applies("A.2 add an array element", "{\"foo\":[\"bar\",\"baz\"]}", "[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"}]",
            "{\"foo\":[\"bar\",\"qux\",\"baz\"]}");
    applies("A.3 remove an object member", "{\"baz\":\"qux\",\"foo\":\"bar\"}", "[{\"op\":\"remove\",\"path\":\"/baz\"}]",
            "{\"foo\":\"bar\"}");
    applies("A.4 remove an array element", "{\"foo\":[\"bar\",\"qux\",\"baz\"]}", "[{\"op\":\"remove\",\"path\":\"/foo/1\"}]",
            "{\"foo\":[\"bar\",\"baz\"]}");
    applies("A.5 replace a value", "{\"baz\":\"qux\",\"foo\":\"bar\"}", "[{\"op\":\"replace\",\"path\":\"/baz\",\"value\":\"boo\"}]",
            "{\"baz\":\"boo\",\"foo\":\"bar\"}");
    applies("A.10 add a nested member object", "{\"foo\":\"bar\"}",
            "[{\"op\":\"add\",\"path\":\"/child\",\"value\":{\"grandchild\":{}}}]", "{\"foo\":\"bar\",\"child\":{\"grandchild\":{}}}");
    applies("A.16 add an array value", "{\"foo\":[\"bar\"]}", "[{\"op\":\"add\",\"path\":\"/foo/-\",\"value\":[\"abc\",\"def\"]}]",
            "{\"foo\":[\"bar\",[\"abc\",\"def\"]]}");

    /* What the library emits. */
    applies("appends at - in order", "{\"items\":[1]}",
            "[{\"op\":\"add\",\"path\":\"/items/-\",\"value\":2},{\"op\":\"add\",\"path\":\"/items/-\",\"value\":3}]",
            "{\"items\":[1,2,3]}");
    applies("insert at the end index", "{\"items\":[1]}", "[{\"op\":\"add\",\"path\":\"/items/1\",\"value\":2}]", "{\"items\":[1,2]}");
    applies("insert at 0", "[1,2]", "[{\"op\":\"add\",\"path\":\"/0\",\"value\":0}]", "[0,1,2]");
    applies("replace the whole document", "{\"a\":1}", "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"b\":[2]}}]", "{\"b\":[2]}");
    applies("add onto an existing member replaces it", "{\"a\":1}", "[{\"op\":\"add\",\"path\":\"/a\",\"value\":null}]", "{\"a\":null}");
    applies("the empty patch", "{\"a\":1}", "[]", "{\"a\":1}");
    applies("nested replace", "{\"a\":{\"b\":[{\"c\":1}]}}", "[{\"op\":\"replace\",\"path\":\"/a/b/0/c\",\"value\":2}]",
            "{\"a\":{\"b\":[{\"c\":2}]}}");
    applies("~1 is a slash, ~0 a tilde", "{\"a/b\":1,\"m~n\":2}",
            "[{\"op\":\"replace\",\"path\":\"/a~1b\",\"value\":3},{\"op\":\"remove\",\"path\":\"/m~0n\"}]", "{\"a/b\":3}");
    applies("~01 is ~1, not /", "{\"~1\":1}", "[{\"op\":\"replace\",\"path\":\"/~01\",\"value\":2}]", "{\"~1\":2}");
    applies("the empty key", "{\"\":1}", "[{\"op\":\"replace\",\"path\":\"/\",\"value\":2}]", "{\"\":2}");
    applies("later operations see earlier ones", "{\"list\":[]}",
            "[{\"op\":\"add\",\"path\":\"/list/-\",\"value\":{\"x\":1}},{\"op\":\"replace\",\"path\":\"/list/0/x\",\"value\":2},"
            "{\"op\":\"add\",\"path\":\"/list/0/y\",\"value\":3},{\"op\":\"remove\",\"path\":\"/list/0/x\"}]",
            "{\"list\":[{\"y\":3}]}");

    /* Refused, and the document is untouched (also after earlier operations applied). */
    refused("A.12 add to a nonexistent target", "{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz/bat\",\"value\":\"qux\"}]",
            "no member \"baz\"");
    refused("remove a missing member", "{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/b\"}]", "no member \"b\" to remove");
    refused("replace a missing member", "{\"a\":1}", "[{\"op\":\"replace\",\"path\":\"/b\",\"value\":1}]", "no member \"b\" to replace");
    refused("index past the end", "{\"a\":[1]}", "[{\"op\":\"add\",\"path\":\"/a/2\",\"value\":1}]", "index 2 is out of range");
    refused("replace at -", "{\"a\":[1]}", "[{\"op\":\"replace\",\"path\":\"/a/-\",\"value\":1}]", "index - is out of range");
    refused("leading zero index", "{\"a\":[1,2]}", "[{\"op\":\"remove\",\"path\":\"/a/01\"}]", "\"01\" is not an array index");
    refused("bad escape", "{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/~2\"}]", "'~' must be followed by '0' or '1'");
    refused("path without slash", "{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"a\"}]", "must be empty or start with '/'");
    refused("into a scalar", "{\"a\":1}", "[{\"op\":\"add\",\"path\":\"/a/b\",\"value\":1}]", "neither an object nor an array");
    refused("remove the root", "{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"\"}]", "cannot remove the whole document");
    refused("missing value", "{\"a\":1}", "[{\"op\":\"add\",\"path\":\"/b\"}]", "\"value\" is missing");
    refused("move is not supported", "{\"a\":1}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/b\"}]", "unsupported op");
    refused("not an array", "{\"a\":1}", "{\"op\":\"remove\",\"path\":\"/a\"}", "a patch is a JSON array");
    refused("an operation that is not an object", "{\"a\":1}", "[1]", "patch operation 0");
    refused("every earlier operation is undone", "{\"a\":1,\"b\":[1,2,3],\"c\":{\"d\":4}}",
            "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":9},{\"op\":\"remove\",\"path\":\"/b/1\"},"
            "{\"op\":\"add\",\"path\":\"/b/0\",\"value\":0},{\"op\":\"add\",\"path\":\"/b/-\",\"value\":7},"
            "{\"op\":\"remove\",\"path\":\"/c\"},{\"op\":\"add\",\"path\":\"/e\",\"value\":5},{\"op\":\"remove\",\"path\":\"/a\"},"
            "{\"op\":\"replace\",\"path\":\"\",\"value\":[]},{\"op\":\"add\",\"path\":\"/-\",\"value\":1},"
            "{\"op\":\"remove\",\"path\":\"/nothing\"}]",
            "patch operation 9 (remove \"/nothing\")");

    printf("json-patch: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
