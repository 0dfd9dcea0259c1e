/* tests/base/test_json_reader.c: the JSON reader: every value type, escapes and
 * surrogate pairs, exact large integers, look-ups on missing members and
 * wrong types, errors with their line and column, a document written by
 * json_writer read back, and json_read_file's message naming file and line.
 * Then what a file may be: the size bound (a regular file and a pipe
 * larger than the limit), devices and folders refused at once, a named
 * pipe no one writes to not waited for, results files told from other
 * JSON, and a value's size (the tree stays compact). A member name given
 * twice in one object is refused at the second's line (readers disagree on
 * which counts), in a small object and in a large one. The streamed array
 * of json_parse_each: each element handed on in order and freed, the tree
 * without it, the same errors as json_parse (a trailing comma, a second
 * array of the same name), and a large array whose text is given back as
 * it goes. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "tap.h"

static json_value *parse(const char *text, json_error *err)
{
    return json_parse(text, strlen(text), err);
}

static void test_values(void)
{
    json_error err;
    json_value *doc = parse("{\n \"s\": \"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\",\n"
                            " \"n\": -12.5e1, \"big\": 18446744073709551615,\n"
                            " \"neg\": -9007199254740993, \"t\": true, \"f\": false,\n"
                            " \"z\": null, \"a\": [1, [2], {}], \"nul\": \"x\\u0000y\"\n}",
                            &err);
    ok(doc != NULL, "a document with every value type parses");
    if (!doc) {
        diag("  %d:%d: %s", err.line, err.column, err.message);
        return;
    }
    is_int(doc->type, JSON_OBJECT, "the root is an object");
    is_int((long long)json_count(doc), 9, "it has 9 members");
    is_str(json_string(json_get(doc, "s")), "a\"b\\c\n\xc3\xa9\xf0\x9f\x98\x80",
           "escapes, \\u00e9 and a surrogate pair decode to UTF-8");
    is_double(json_number(json_get(doc, "n"), 0), -125.0, 0, "-12.5e1 reads as -125");
    uint64_t big = 0;
    ok(json_uint64(json_get(doc, "big"), &big) && big == UINT64_MAX,
       "2^64-1 reads back exactly as an unsigned integer");
    int64_t neg = 0;
    ok(json_int64(json_get(doc, "neg"), &neg) && neg == -9007199254740993LL,
       "-(2^53+1) reads back exactly as a signed integer");
    ok(!json_uint64(json_get(doc, "n"), &big), "-12.5e1 is not an unsigned integer");
    ok(!json_uint64(json_get(doc, "neg"), &big), "a negative number is not unsigned");
    is_int(json_get(doc, "t")->boolean, 1, "true is a boolean 1");
    is_int(json_get(doc, "f")->type, JSON_BOOL, "false is a boolean");
    ok(json_is_null(json_get(doc, "z")), "null is null");
    ok(!json_is_null(json_get(doc, "missing")), "a missing member is not null");
    const json_value *a = json_get(doc, "a");
    is_int((long long)json_count(a), 3, "the array has 3 elements");
    is_double(json_number(json_at(json_at(a, 1), 0), 0), 2, 0, "a nested element reads");
    is_int(json_at(a, 2)->type, JSON_OBJECT, "an empty object parses");
    ok(json_at(a, 3) == NULL, "an index past the end is NULL");
    const json_value *nul = json_get(doc, "nul");
    ok(nul->text_len == 3 && memcmp(nul->text, "x\0y", 3) == 0, "\\u0000 is kept inside a string");
    is_int(json_get(doc, "n")->line, 3, "a value records its line");
    is_str(json_key_at(doc, 1), "n", "member names keep their order");
    ok(json_string(json_get(doc, "n")) == NULL, "a number is not a string");
    is_double(json_number(json_get(doc, "s"), -1), -1, 0, "a string gives the fallback number");
    ok(json_get(json_get(doc, "missing"), "deeper") == NULL, "look-ups chain through NULL");
    ok(json_get(a, "x") == NULL, "json_get on an array is NULL");
    json_free(doc);
}

static void expect_error(const char *text, int line, int column, const char *words,
                         const char *name)
{
    json_error err;
    json_value *doc = parse(text, &err);
    int pass = !doc && err.line == line && err.column == column && strstr(err.message, words);
    ok(pass, "%s: error at %d:%d mentioning '%s'", name, line, column, words);
    if (!pass)
        diag("  got %s at %d:%d: %s", doc ? "a document" : "an error", err.line,
             err.column, err.message);
    json_free(doc);
}

/* Broken documents: the text, where the error is (line, column), words of
 * its message, and what the test is called. */
static const struct broken_json {
    const char *text;
    int line, column;
    const char *words, *name;
} broken[] = {
    {"{\"a\": 1,\n \"b\" 2}", 2, 6, "expected ':'", "a missing colon"},
    {"[1, 2", 1, 6, "expected ',' or ']'", "an unclosed array"},
    {"{\"a\": [1, }", 1, 11, "expected a value", "a trailing comma"},
    {"\"abc", 1, 5, "not closed", "an unclosed string"},
    {"[tru]", 1, 2, "expected a value", "a misspelt literal"},
    {"[01]", 1, 3, "expected ',' or ']'", "a leading zero"},
    {"[1.]", 1, 4, "digits after '.'", "a number without fraction digits"},
    {"\"\\x\"", 1, 3, "unknown escape", "an unknown escape"},
    {"\"\\ud800x\"", 1, 8, "low one", "a lone high surrogate"},
    {"{} {}", 1, 4, "after the document", "two documents"},
    {"", 1, 1, "end of the document", "an empty document"},
    {"{'a': 1}", 1, 2, "double quotes", "single quotes"},
};

static void test_errors(void)
{
    for (size_t k = 0; k < sizeof broken / sizeof broken[0]; k++)
        expect_error(broken[k].text, broken[k].line, broken[k].column, broken[k].words,
                     broken[k].name);
    char deep[2 * JSON_MAX_DEPTH + 8];
    memset(deep, '[', JSON_MAX_DEPTH + 1);
    memset(deep + JSON_MAX_DEPTH + 1, ']', JSON_MAX_DEPTH + 1);
    deep[2 * JSON_MAX_DEPTH + 2] = '\0';
    expect_error(deep, 1, JSON_MAX_DEPTH + 1, "nested deeper", "nesting past the limit");
}

/* What json_writer writes, json_reader reads back. */
static void test_round_trip(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json_writer w;
    jw_init(&w, f, 2);
    jw_begin_object(&w);
    jw_key(&w, "pi");
    jw_double(&w, 3.141592653589793);
    jw_key(&w, "tiny");
    jw_double(&w, 5e-324);
    jw_key(&w, "nan");
    jw_double(&w, NAN);
    jw_key(&w, "ctl");
    jw_string(&w, "tab\there\x01");
    jw_key(&w, "list");
    jw_begin_array_compact(&w);
    jw_int(&w, -3);
    jw_uint(&w, 1ULL << 40);
    jw_end_array(&w);
    jw_end_object(&w);
    jw_finish(&w);
    fclose(f);
    json_value *doc = json_parse(buf, len, NULL);
    ok(doc != NULL, "json_writer's output parses");
    is_double(json_number(json_get(doc, "pi"), 0), 3.141592653589793, 0, "a double round-trips");
    is_double(json_number(json_get(doc, "tiny"), 0), 5e-324, 0, "a subnormal round-trips");
    ok(json_is_null(json_get(doc, "nan")), "NaN was written as null");
    is_str(json_string(json_get(doc, "ctl")), "tab\there\x01", "control characters round-trip");
    uint64_t big = 0;
    ok(json_uint64(json_at(json_get(doc, "list"), 1), &big) && big == 1ULL << 40,
       "2^40 round-trips in a compact array");
    json_free(doc);
    free(buf);
}

static void test_read_file(void)
{
    char path[] = "/tmp/test_json_reader_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("{\n  \"a\": 1,\n  \"b\": [2,, 3]\n}\n", f);
    fclose(f);
    fflush(stderr);
    int saved = dup(2);
    char err_path[] = "/tmp/test_json_reader_err_XXXXXX";
    int err_fd = mkstemp(err_path);
    dup2(err_fd, 2);
    json_value *doc = json_read_file(path);
    json_value *none = json_read_file("/nonexistent/results.json");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ok(doc == NULL && none == NULL, "json_read_file refuses a bad and a missing file");
    char text[1024] = {0};
    FILE *e = fdopen(err_fd, "r");
    rewind(e);
    size_t got = fread(text, 1, sizeof text - 1, e);
    text[got] = '\0';
    fclose(e);
    char want[128];
    snprintf(want, sizeof want, "%s:3: error: column 11", path);
    ok(strstr(text, want) != NULL, "the error names the file, line 3 and column 11");
    ok(strstr(text, "/nonexistent/results.json") && strstr(text, "cannot read"),
       "a missing file is named and says why");
    if (!strstr(text, want))
        diag("  stderr: %s", text);
    unlink(path);
    unlink(err_path);
}

/* Runs `read` with standard error going to a file; returns what it printed. */
static char *capture_stderr(json_value *(*read)(const char *, size_t), const char *path,
                            size_t max, json_value **doc)
{
    fflush(stderr);
    int saved = dup(2);
    char err_path[] = "/tmp/test_json_reader_err_XXXXXX";
    int err_fd = mkstemp(err_path);
    dup2(err_fd, 2);
    *doc = read(path, max);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    static char text[2048];
    ssize_t got = pread(err_fd, text, sizeof text - 1, 0);
    text[got > 0 ? got : 0] = '\0';
    close(err_fd);
    unlink(err_path);
    return text;
}

static json_value *read_max(const char *path, size_t max) { return json_read_file_max(path, max); }
static json_value *read_results(const char *path, size_t max)
{
    (void)max;
    return json_read_results(path);
}

static void test_bounds(void)
{
    char dir[] = "/tmp/test_json_reader_dir_XXXXXX";
    if (!mkdtemp(dir))
        return;
    char path[256];
    snprintf(path, sizeof path, "%s/big.json", dir);
    FILE *f = fopen(path, "w");
    fputs("[\"0123456789012345678901234567890123456789\", 1, 2, 3]", f);
    fclose(f);
    json_value *doc;
    char *err = capture_stderr(read_max, path, 40, &doc);
    ok(doc == NULL && strstr(err, path) && strstr(err, "larger than 40 bytes"),
       "a file over the limit is refused, naming the file and the limit");
    json_free(doc);
    capture_stderr(read_max, path, 60, &doc);
    ok(doc && json_count(doc) == 4, "a file under the limit is read");
    json_free(doc);

    /* A pipe longer than the limit: read up to the limit, then refused. */
    int fds[2];
    if (pipe(fds) == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            char block[4096];
            memset(block, ' ', sizeof block);
            for (int k = 0; k < 1024; k++) /* 4 MiB, more than the 1 MiB limit */
                if (write(fds[1], block, sizeof block) < 0)
                    _exit(0);
            _exit(0);
        }
        close(fds[1]);
        char fd_path[64];
        snprintf(fd_path, sizeof fd_path, "/dev/fd/%d", fds[0]);
        err = capture_stderr(read_max, fd_path, 1 << 20, &doc);
        ok(doc == NULL && strstr(err, "larger than 1 MiB"),
           "a pipe that goes on past the limit is refused at the limit");
        close(fds[0]);
        waitpid(pid, NULL, 0);
    }

    err = capture_stderr(read_max, "/dev/zero", JSON_MAX_FILE_BYTES, &doc);
    ok(doc == NULL && strstr(err, "/dev/zero: error:") && strstr(err, "character device"),
       "/dev/zero is refused at once, named");
    err = capture_stderr(read_max, dir, JSON_MAX_FILE_BYTES, &doc);
    ok(doc == NULL && strstr(err, "a folder"), "a folder is refused");
    snprintf(path, sizeof path, "%s/fifo", dir);
    if (mkfifo(path, 0600) == 0) {
        err = capture_stderr(read_max, path, JSON_MAX_FILE_BYTES, &doc);
        ok(doc == NULL && strstr(err, "end of the document"),
           "a named pipe no one writes to is not waited for");
        unlink(path);
    } else {
        skip("mkfifo failed");
    }
    snprintf(path, sizeof path, "%s/big.json", dir);
    unlink(path);
    rmdir(dir);
}

static void test_results_marker(void)
{
    char path[] = "/tmp/test_json_reader_XXXXXX";
    static const struct {
        const char *text, *why, *name;
    } cases[] = {
        {"{\"tool\": \"redbench compare\", \"results\": []}", "its tool is \"redbench compare\"",
         "compare's output"},
        {"{\"results\": []}", "it has no \"tool\"", "a file without the tool marker"},
        {"{\"tool\": \"redbench\", \"winners\": []}", "no \"results\" array", "tune's output"},
        {"[1, 2]", "it is array", "an array"},
        {"{\"tool\": \"other\\u001b[31m\", \"results\": []}", "its tool is \"other\\x1b[31m\"",
         "another tool, its name made printable"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int fd = mkstemp(path);
        if (write(fd, cases[k].text, strlen(cases[k].text)) < 0)
            break;
        close(fd);
        json_value *doc;
        char *err = capture_stderr(read_results, path, 0, &doc);
        ok(doc == NULL && strstr(err, path) && strstr(err, "not a redbench results file") &&
               strstr(err, cases[k].why),
           "%s is refused: %s", cases[k].name, cases[k].why);
        if (doc || !strstr(err, cases[k].why))
            diag("  %s", err);
        json_free(doc);
        unlink(path);
        strcpy(path, "/tmp/test_json_reader_XXXXXX");
    }
    int fd = mkstemp(path);
    const char *good = "{\"tool\": \"redbench\", \"results\": [{\"run\": \"a\"}]}";
    if (write(fd, good, strlen(good)) < 0)
        return;
    close(fd);
    json_value *doc = json_read_results(path);
    ok(doc && json_count(json_get(doc, "results")) == 1, "a redbench results file is read");
    json_free(doc);
    unlink(path);
}

/* The same name twice: refused at the second's line, naming the first. */
static void test_duplicate_keys(void)
{
    json_error err;
    json_value *doc = parse("{\"a\": 1,\n \"b\": {\"x\": 1,\n \"x\": 2}}", &err);
    ok(doc == NULL, "a nested object with a name given twice is refused");
    is_int(err.line, 3, "... at the second's line");
    ok(strstr(err.message, "\"x\" is given twice") && strstr(err.message, "first at line 2"),
       "... naming the member and the first's line (%s)", err.message);
    json_free(doc);
    /* 1000 members, the last repeating member 500: found by sorting. */
    size_t cap = 1000 * 24 + 64, used = 0;
    char *text = malloc(cap);
    used += (size_t)snprintf(text + used, cap - used, "{");
    for (int k = 0; k < 1000; k++)
        used += (size_t)snprintf(text + used, cap - used, "%s\"k%d\": %d\n", k ? "," : "", k, k);
    used += (size_t)snprintf(text + used, cap - used, ", \"k500\": 0}");
    doc = json_parse(text, used, &err);
    ok(doc == NULL && strstr(err.message, "\"k500\" is given twice") && err.line == 1001 &&
           strstr(err.message, "first at line 501"),
       "in 1001 members, the repeated one is found at line 1001 (%d: %s)", err.line, err.message);
    json_free(doc);
    text[used - 12] = '\0'; /* drop the repeat: "..., \"k999\": 999\n" */
    strcat(text, "}");
    doc = json_parse(text, strlen(text), &err);
    ok(doc != NULL && json_count(doc) == 1000, "1000 distinct names read (%s)",
       doc ? "" : err.message);
    json_free(doc);
    free(text);
    doc = parse("[{\"a\": 1}, {\"a\": 2}]", &err);
    ok(doc != NULL, "the same name in two objects is not a repeat");
    json_free(doc);
}

/* What json_parse_each handed on: each element's "n", and its line. */
typedef struct handed {
    size_t count, stop_after;
    double sum;
    int lines[8];
} handed;

static int take(void *user, size_t index, const json_value *element)
{
    handed *h = user;
    if (index != h->count)
        return 1;
    if (h->count < 8)
        h->lines[h->count] = element->line;
    h->sum += json_number(json_get(element, "n"), 0);
    h->count++;
    return h->stop_after && h->count == h->stop_after;
}

static json_value *parse_each(const char *text, handed *h, json_error *err)
{
    memset(h, 0, sizeof *h);
    return json_parse_each(text, strlen(text), "rows", take, h, err);
}

static void test_each(void)
{
    json_error err;
    handed h;
    json_value *doc = parse_each("{\"tool\": \"t\",\n \"rows\": [{\"n\": 1},\n {\"n\": 2}],\n"
                                 " \"after\": [3]}", &h, &err);
    ok(doc && h.count == 2 && h.sum == 3 && h.lines[0] == 2 && h.lines[1] == 3,
       "each element handed on in order, on its line (%zu: %g)", h.count, h.sum);
    const json_value *rows = json_get(doc, "rows");
    ok(rows && rows->type == JSON_ARRAY && json_count(rows) == 0 && rows->line == 2,
       "the tree keeps the array empty, on its line");
    ok(json_number(json_at(json_get(doc, "after"), 0), 0) == 3 &&
           strcmp(json_string(json_get(doc, "tool")), "t") == 0,
       "... and the members before and after it whole");
    json_free(doc);

    memset(&h, 0, sizeof h);
    h.stop_after = 1;
    const char *three = "{\"rows\": [{\"n\": 1}, {\"n\": 2}, {\"n\": 4}]}";
    doc = json_parse_each(three, strlen(three), "rows", take, &h, &err);
    ok(doc && h.count == 1, "no more elements once `each` asks for none (%zu)", h.count);
    json_free(doc);
    doc = parse_each("{\"rows\": [{\"n\": 1}, {\"n\": 2}, x]}", &h, &err);
    ok(!doc && err.line == 1 && err.column == 31 && strstr(err.message, "expected a value"),
       "an element that is not JSON: the parse fails there (%d:%d: %s)", err.line, err.column,
       err.message);
    doc = parse_each("{\"rows\": [1, ]}", &h, &err);
    ok(!doc && strstr(err.message, "expected a value") && strstr(err.message, "']'"),
       "a trailing comma is refused, as json_parse refuses it (%s)", err.message);
    doc = parse_each("{\"rows\": [],\n \"rows\": [{\"n\": 5}]}", &h, &err);
    ok(!doc && err.line == 2 && strstr(err.message, "\"rows\" is given twice") && h.count == 0,
       "a second array of the name is kept whole and refused as given twice (%s)", err.message);
    doc = parse_each("{\"a\": {\"rows\": [{\"n\": 1}]}, \"rows\": {\"n\": 2}}", &h, &err);
    ok(doc && h.count == 0 && json_count(json_get(json_get(doc, "a"), "rows")) == 1,
       "only the root's array is streamed (a nested one, an object of the name, kept)");
    json_free(doc);
    doc = parse_each("[{\"n\": 1}]", &h, &err);
    ok(doc && h.count == 0 && json_count(doc) == 1, "a root that is not an object comes back whole");
    json_free(doc);

    /* 200,000 elements, about 5 MB: handed on one at a time, the text
     * behind them given back as the parse goes */
    size_t n = 200000, cap = n * 32 + 64, used = 0;
    char *text = malloc(cap);
    used += (size_t)sprintf(text, "{\"rows\": [");
    for (size_t k = 0; k < n; k++)
        used += (size_t)sprintf(text + used, "%s{\"n\": %zu, \"s\": \"x\"}", k ? ",\n" : "", k % 7);
    strcpy(text + used, "],\n\"end\": true}");
    memset(&h, 0, sizeof h);
    doc = json_parse_each(text, strlen(text), "rows", take, &h, &err);
    double sum = 0;
    for (size_t k = 0; k < n; k++)
        sum += (double)(k % 7);
    ok(doc && h.count == n && h.sum == sum && json_get(doc, "end")->line == (int)n + 1,
       "200000 elements handed on, the member after them on its line (%zu, %s)", h.count,
       doc ? "" : err.message);
    json_free(doc);
    free(text);
}

int main(void)
{
    plan(75);
    test_duplicate_keys();
    test_values();
    test_errors();
    test_round_trip();
    test_read_file();
    test_bounds();
    test_results_marker();
    test_each();
    ok(sizeof(json_value) <= 4 * sizeof(double), "a value takes %zu bytes (at most 32)",
       sizeof(json_value));
    return done();
}
