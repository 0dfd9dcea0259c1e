/* tests/capture.h: standard error captured for unit tests that check the
 * core's messages (header only):
 *   capture_start(); ...code that prints...; capture_end();
 *   ok(says("t.ini:3: error"), "...");  -- `captured` holds the text
 * and the cases of a table of bad inputs, each with the message it must
 * give (struct refusal). */
#ifndef RB_TEST_CAPTURE_H
#define RB_TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

static char captured[65536];
static int saved_stderr = -1;
static FILE *capture_file;

static inline void capture_start(void)
{
    fflush(stderr);
    capture_file = tmpfile();
    if (!capture_file) {
        perror("tmpfile");
        exit(99);
    }
    saved_stderr = dup(2);
    dup2(fileno(capture_file), 2);
}

/* Restores standard error and returns what was written to it. */
static inline const char *capture_end(void)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    rewind(capture_file);
    size_t n = fread(captured, 1, sizeof captured - 1, capture_file);
    captured[n] = '\0';
    fclose(capture_file);
    return captured;
}

/* Whether the captured messages contain `want`; shows them when not. */
static inline int says(const char *want)
{
    if (strstr(captured, want))
        return 1;
    diag("missing: %s\nmessages:", want);
    for (const char *line = captured; *line;) {
        const char *end = strchr(line, '\n');
        int len = end ? (int)(end - line) : (int)strlen(line);
        diag("  %.*s", len, line);
        line += len + (end ? 1 : 0);
    }
    return 0;
}

/* A bad input: what the test is called, the input, how many errors it
 * gives, and text that one of their messages contains. */
struct refusal {
    const char *what;
    const char *text;
    int errors;
    const char *want;
};

#define N_REFUSALS(table) (sizeof(table) / sizeof((table)[0]))

#endif
