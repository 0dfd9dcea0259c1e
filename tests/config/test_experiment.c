/* tests/config/test_experiment.c: reading experiment files (src/config/experiment.c):
 * the settings of a valid file, the measurement keys (timing, graph_calls,
 * determinism_runs, peak), and for each kind of mistake the error, its
 * FILE:LINE and what it says is valid; repeated sections; the 16 MiB bound
 * on what is read (a large file, /dev/zero, a pipe). */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <redbench/backend.h>

#include "base/diag.h"
#include "base/names.h"
#include "config/experiment.h"
#include "capture.h"
#include "tap.h"

/* The same, silently, for checks that something is absent. */
static int mentions(const char *want)
{
    return strstr(captured, want) != NULL;
}

/* Loads text as "t.ini"; returns the number of errors, messages captured. */
static int load_text(const char *text, rb_experiment *exp)
{
    capture_start();
    int errors = experiment_load_text("t.ini", text, exp);
    capture_end();
    return errors;
}

/* One broken file: `errors` errors, the first message contains `want`. */
static void refused(const char *what, const char *text, int errors, const char *want)
{
    rb_experiment exp;
    int got = load_text(text, &exp);
    ok(got == errors && says(want), "%s: %d error(s), '%s'", what, errors, want);
    if (got != errors)
        diag("  got %d errors", got);
    experiment_free(&exp);
}

/* Each broken file of a table, as refused() checks one. */
static void refused_each(const struct refusal *cases, size_t n)
{
    for (size_t k = 0; k < n; k++)
        refused(cases[k].what, cases[k].text, cases[k].errors, cases[k].want);
}

static const char *fixture(const char *name)
{
    static char path[4096];
    const char *top = getenv("top_srcdir");
    snprintf(path, sizeof path, "%s/tests/config/fixtures/%s", top ? top : ".", name);
    return path;
}

/* ---- valid files ---- */

static void test_valid_file(void)
{
    rb_experiment exp;
    const char *path = fixture("valid.ini");
    capture_start();
    int errors = experiment_load(path, &exp);
    capture_end();
    is_int(errors, 0, "valid.ini loads without errors");
    is_str(exp.name, "full", "name");
    is_int(exp.warmup, 2, "warmup");
    is_double(exp.min_time, 0.25, 0, "min_time");
    is_int(exp.min_reps, 3, "min_reps");
    is_int(exp.max_reps, 50, "max_reps");
    is_double(exp.noise, 0.05, 0, "noise, with an inline comment after it");
    is_int(exp.cache, RB_CACHE_COLD, "cache = cold");
    is_int((long long)exp.seed, 42, "seed");
    is_str(exp.output, "results.json", "output");
    is_str(exp.format, "json", "format");
    is_int(exp.device, 1, "device");
    is_double(exp.timeout, 30, 0, "timeout");
    ok(exp.text && strncmp(exp.text, "; A complete experiment", 23) == 0 &&
           strstr(exp.text, "\n[run atomics.v2]\n"),
       "the file is kept verbatim");

    is_int((long long)exp.n_data, 3, "[data] has 3 keys");
    ok(exp.n_data == 3 && strcmp(exp.data[0].key, "op") == 0 && exp.data[0].n_values == 2 &&
           strcmp(exp.data[0].values[1], "max") == 0 && exp.data[0].line == 17,
       "op = sum, max: a list of 2 at line 17");
    ok(exp.n_data == 3 && strcmp(exp.data[2].text, "4M, 32M") == 0, "n is kept as written");

    is_int((long long)exp.n_runs, 2, "two runs");
    if (exp.n_runs == 2) {
        const rb_run_section *tree = &exp.runs[0], *atomic = &exp.runs[1];
        ok(strcmp(tree->name, "tree") == 0 && tree->line == 22, "[run tree] at line 22");
        ok(strcmp(tree->plugin, "tree") == 0 && tree->plugin_line == 23 && !tree->optional,
           "plugin = tree at line 23, not optional");
        ok(tree->n_settings == 2 && strcmp(tree->settings[0].key, "variant") == 0 &&
               tree->settings[0].n_values == 2 &&
               strcmp(tree->settings[0].values[0], "divergent") == 0 &&
               strcmp(tree->settings[0].values[1], "sequential") == 0,
           "variant = divergent, sequential");
        ok(tree->n_settings == 2 && strcmp(tree->settings[1].key, "block") == 0 &&
               strcmp(tree->settings[1].text, "128, 256") == 0 && tree->settings[1].line == 25,
           "an indented key is a key of its own, not a continuation");
        ok(strcmp(atomic->name, "atomics.v2") == 0 && strcmp(atomic->plugin, "atomic") == 0 &&
               atomic->optional == 1,
           "[run atomics.v2] is optional");
        ok(atomic->n_settings == 1 && strcmp(atomic->settings[0].key, "n") == 0 &&
               atomic->settings[0].line == 30,
           "a data key in a run is kept as a setting");
    } else {
        for (int k = 0; k < 6; k++)
            ok(0, "run sections");
    }
    experiment_free(&exp);
}

static void test_defaults(void)
{
    rb_experiment exp;
    capture_start();
    int errors = experiment_load_text("conf/quick.ini", "[run a]\r\nplugin = serial\r\n", &exp);
    capture_end();
    is_int(errors, 0, "a minimal file (CRLF) loads");
    is_str(exp.name, "quick", "name defaults to the file's base name without .ini");
    ok(exp.warmup == 3 && exp.min_time == 0.5 && exp.min_reps == 5 && exp.max_reps == 1000 &&
           exp.noise == 0.01 && exp.cache == RB_CACHE_HOT && exp.seed == 1 &&
           exp.output == NULL && exp.format == NULL && exp.device == 0 && exp.timeout == 60 &&
           exp.timing == RB_TIMING_DEVICE && exp.graph_calls == 0 &&
           exp.determinism_runs == 2 && exp.peak == RB_PEAK_USE_CACHE && exp.profile == 0,
       "every [experiment] setting has its default");
    ok(exp.n_runs == 1 && strcmp(exp.runs[0].plugin, "serial") == 0, "plugin without the CR");
    experiment_free(&exp);
}

/* ---- mistakes ---- */

/* Mistakes in sections and keys. */
static const struct refusal section_and_key_mistakes[] = {
    {"unknown section", "[expriment]\nwarmup = 1\n[run a]\nplugin = p\n", 1,
     "t.ini:1: error: unknown section [expriment]; valid sections: [experiment], "
     "[data], [run NAME]"},
    {"unknown key in [experiment]", "[experiment]\nwarmups = 1\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: unknown key 'warmups' in [experiment]; valid keys: name, warmup, "
     "min_time, min_reps, max_reps, noise, cache, seed, output, format, device, "
     "timeout, timing, graph_calls, determinism_runs, peak"},
    {"unknown key in [data]", "[data]\nsize = 4M\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: unknown key 'size' in [data]; valid keys: op, dtype, n, "
     "distribution, bins"},
    {"key before any section", "warmup = 1\n[run a]\nplugin = p\n", 1,
     "t.ini:1: error: 'warmup' is outside any section"},
    {"run without a name", "[run]\nplugin = p\n[run b]\nplugin = p\n", 1,
     "t.ini:1: error: a run section needs a name"},
    {"run name with a space", "[run a b]\nplugin = p\n", 1,
     "t.ini:1: error: run name 'a b' is not valid; a run name is made of letters, digits"},
    {"duplicate run", "[run a]\nplugin = p\n\n[run a]\nplugin = q\n", 1,
     "t.ini:4: error: duplicate run 'a' (first defined at line 1)"},
    {"duplicate key in a run", "[run a]\nplugin = p\nblock = 1\nblock = 2\n", 1,
     "t.ini:4: error: duplicate key 'block' in [run a] (first set at line 3)"},
    {"duplicate plugin key", "[run a]\nplugin = p\nplugin = q\n", 1,
     "t.ini:3: error: duplicate key 'plugin' in [run a] (first set at line 2)"},
    {"a second [experiment] section",
     "[experiment]\nseed = 1\n[experiment]\nseed = 2\n[run a]\nplugin = p\n", 1,
     "t.ini:3: error: duplicate section [experiment] (first at line 1); write its keys "
     "in one [experiment] section"},
    {"a second [experiment] section with other keys",
     "[experiment]\nseed = 1\n[run a]\nplugin = p\n\n[experiment]\nwarmup = 2\n", 1,
     "t.ini:6: error: duplicate section [experiment] (first at line 1)"},
    {"a second [data] section",
     "[data]\nn = 1M\n[run a]\nplugin = p\n[ data ]\ndtype = f64\n", 1,
     "t.ini:5: error: duplicate section [data] (first at line 1); write its keys in one "
     "[data] section"},
    {"duplicate key in [data]", "[data]\nn = 1M\nn = 2M\n[run a]\nplugin = p\n", 1,
     "t.ini:3: error: duplicate key 'n' in [data] (first set at line 2)"},
    {"missing plugin key", "[run a]\nblock = 256\n[run b]\nplugin = p\n", 1,
     "t.ini:1: error: [run a] has no 'plugin' key"},
    {"two plugins in one run", "[run a]\nplugin = p, q\n", 1,
     "t.ini:2: error: plugin = p, q: a run names exactly one plugin"},
    {"empty value", "[run a]\nplugin = p\nblock =\n", 1,
     "t.ini:3: error: empty value for 'block'"},
    {"empty value after a comment is stripped", "[run a]\nplugin = p\nblock = ; none\n", 1,
     "t.ini:3: error: empty value for 'block'"},
    {"no run at all", "[experiment]\nseed = 3\n", 1,
     "t.ini: error: no [run NAME] section: nothing to run"},
};

static void test_sections_and_keys(void)
{
    refused_each(section_and_key_mistakes, N_REFUSALS(section_and_key_mistakes));
    refused("three [data] sections: each repeat is named",
            "[data]\nn = 1M\n[data]\n[data]\n[run a]\nplugin = p\n", 2,
            "t.ini:3: error: duplicate section [data] (first at line 1)");
    ok(mentions("t.ini:4: error: duplicate section [data] (first at line 1)"),
       "... and the third, naming the first");
}

/* Values out of range or of the wrong kind. */
static const struct refusal value_mistakes[] = {
    {"bad number", "[experiment]\nwarmup = many\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: warmup = many is not a whole number; valid: 0 to 1000000"},
    {"negative warmup", "[experiment]\nwarmup = -1\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: warmup = -1 is out of range; valid: 0 to 1000000"},
    {"number with a size suffix", "[experiment]\nmax_reps = 1K\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: max_reps = 1K is not a whole number"},
    {"max_reps 0", "[experiment]\nmax_reps = 0\nmin_reps = 0\n[run a]\nplugin = p\n", 2,
     "t.ini:2: error: max_reps = 0 is out of range; valid: 1 to"},
    {"noise of 1", "[experiment]\nnoise = 1\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: noise = 1 is out of range; valid: a fraction between 0 and 1"},
    {"negative min_time", "[experiment]\nmin_time = -0.5\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: min_time = -0.5 is out of range; valid: seconds, 0 or more"},
    {"min_time with a unit", "[experiment]\nmin_time = 2s\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: min_time = 2s is not a decimal number; valid: seconds"},
    {"zero timeout", "[experiment]\ntimeout = 0\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: timeout = 0 is out of range"},
    {"min_reps above max_reps",
     "[experiment]\nmax_reps = 10\nmin_reps = 20\n[run a]\nplugin = p\n", 1,
     "t.ini:3: error: min_reps = 20 is larger than max_reps = 10 (line 2)"},
    {"bad cache", "[experiment]\ncache = warm\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: cache = warm is not valid; valid: hot, cold"},
    {"bad format", "[experiment]\nformat = xml\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: format = xml is not valid; valid: table, csv, json, md, html, sqlite"},
};

static void test_values(void)
{
    rb_experiment exp;
    int errors = load_text("[experiment]\nmax_reps = 2\n[run a]\nplugin = p\n", &exp);
    ok(errors == 0 && exp.max_reps == 2 && exp.min_reps == 2,
       "max_reps = 2 alone lowers the default min_reps to 2");
    experiment_free(&exp);
    errors = load_text("[experiment]\nmin_reps = 2000\n[run a]\nplugin = p\n", &exp);
    ok(errors == 0 && exp.min_reps == 2000 && exp.max_reps == 2000,
       "min_reps = 2000 alone raises the default max_reps to 2000");
    experiment_free(&exp);

    refused_each(value_mistakes, N_REFUSALS(value_mistakes));
    /* every format of --format is a format of the file: html too */
    rb_experiment html;
    errors = load_text("[experiment]\nformat = html\n[run a]\nplugin = p\n", &html);
    ok(errors == 0 && html.format && strcmp(html.format, "html") == 0, "format = html");
    experiment_free(&html);
    refused("bad seed", "[experiment]\nseed = -3\n[run a]\nplugin = p\n", 1,
            "t.ini:2: error: seed = -3 is out of range; valid: 0 to");
    refused("bad optional", "[run a]\nplugin = p\noptional = perhaps\n", 1,
            "t.ini:3: error: optional = perhaps: not a boolean; valid: true or false");
}

/* Mistakes in the measurement keys. */
static const struct refusal measurement_mistakes[] = {
    {"bad timing", "[experiment]\ntiming = wall\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: timing = wall is not valid; valid: launch (one call timed, launch "
     "cost included), graph (a captured batch replayed, time per call), device (one "
     "call on a held queue), eager (a batch of calls launched back to back, time per "
     "call)"},
    {"graph_calls of 0", "[experiment]\ntiming = graph\ngraph_calls = 0\n[run a]\n"
     "plugin = p\n", 1,
     "t.ini:3: error: graph_calls = 0 is not valid; valid: auto or a whole number from "
     "1 to 100000"},
    {"graph_calls as a word", "[experiment]\ntiming = graph\ngraph_calls = many\n"
     "[run a]\nplugin = p\n", 1, "t.ini:3: error: graph_calls = many is not valid"},
    {"graph_calls without graph timing", "[experiment]\ngraph_calls = 10\n[run a]\n"
     "plugin = p\n", 1,
     "t.ini:2: error: graph_calls applies to timing = graph and eager only; remove it "
     "or add 'timing = graph' or 'timing = eager'"},
    {"graph_calls with launch timing", "[experiment]\ntiming = launch\ngraph_calls = 10\n"
     "[run a]\nplugin = p\n", 1,
     "t.ini:3: error: graph_calls applies to timing = graph and eager only"},
    {"determinism_runs too many", "[experiment]\ndeterminism_runs = 101\n[run a]\n"
     "plugin = p\n", 1,
     "t.ini:2: error: determinism_runs = 101 is out of range; valid: 0 to 100"},
    {"bad peak", "[experiment]\npeak = fresh\n[run a]\nplugin = p\n", 1,
     "t.ini:2: error: peak = fresh is not valid; valid: cached (measured once per "
     "device and kept in the cache folder), measure (measured again)"},
    {"graph timing with a cold cache", "[experiment]\ncache = cold\ntiming = graph\n"
     "[run a]\nplugin = p\n", 1,
     "t.ini:3: error: timing = graph runs calls back to back, with no cache flush "
     "between them, so cache = cold (line 2) cannot hold; use timing = launch or device "
     "with cache = cold"},
    {"eager timing with a cold cache", "[experiment]\ntiming = eager\ncache = cold\n"
     "[run a]\nplugin = p\n", 1,
     "t.ini:2: error: timing = eager runs calls back to back, with no cache flush "
     "between them, so cache = cold (line 3) cannot hold"},
    {"duplicate timing", "[experiment]\ntiming = launch\ntiming = graph\n[run a]\n"
     "plugin = p\n", 1,
     "t.ini:3: error: duplicate key 'timing' in [experiment] (first set at line 2)"},
};

/* The measurement keys: timing, graph_calls, determinism_runs, peak. */
static void test_measurement_keys(void)
{
    static const struct {
        const char *word;
        int mode;
    } timings[] = {{"launch", RB_TIMING_LAUNCH}, {"graph", RB_TIMING_GRAPH},
                   {"device", RB_TIMING_DEVICE}, {"eager", RB_TIMING_EAGER}};
    rb_experiment exp;
    char text[256];
    for (size_t k = 0; k < sizeof timings / sizeof *timings; k++) {
        snprintf(text, sizeof text, "[experiment]\ntiming = %s\n[run a]\nplugin = p\n",
                 timings[k].word);
        int errors = load_text(text, &exp);
        ok(errors == 0 && exp.timing == timings[k].mode, "timing = %s", timings[k].word);
        experiment_free(&exp);
    }
    int errors = load_text("[experiment]\ntiming = graph\ngraph_calls = 250\n"
                           "determinism_runs = 0\npeak = measure\n[run a]\nplugin = p\n",
                           &exp);
    ok(errors == 0 && exp.timing == RB_TIMING_GRAPH && exp.graph_calls == 250 &&
           exp.determinism_runs == 0 && exp.peak == RB_PEAK_MEASURE,
       "graph_calls = 250, determinism_runs = 0, peak = measure");
    experiment_free(&exp);
    errors = load_text("[experiment]\ntiming = graph\ngraph_calls = auto\npeak = cached\n"
                       "[run a]\nplugin = p\n", &exp);
    ok(errors == 0 && exp.graph_calls == 0 && exp.peak == RB_PEAK_USE_CACHE,
       "graph_calls = auto is 0; peak = cached");
    experiment_free(&exp);
    errors = load_text("[experiment]\ntiming = eager\ngraph_calls = 64\n[run a]\nplugin = p\n",
                       &exp);
    ok(errors == 0 && exp.timing == RB_TIMING_EAGER && exp.graph_calls == 64,
       "graph_calls = 64 under timing = eager");
    experiment_free(&exp);

    refused_each(measurement_mistakes, N_REFUSALS(measurement_mistakes));
}

static void test_syntax(void)
{
    rb_experiment exp;
    int errors = load_text("[run a]\nplugin = p\nblock 256\n[run b\nplugin = q\n[run c] extra\n"
                           "variant: x\n[data\n",
                           &exp);
    is_int(errors, 4, "every syntax error is reported, not only the first");
    ok(says("t.ini:3: error: cannot read 'block 256': expected 'key = value'"),
       "a line without '=' is reported at its line");
    ok(says("t.ini:4: error: section header '[run b' has no closing ']'"),
       "an unclosed section header is reported at its line");
    ok(says("t.ini:6: error: unexpected text 'extra' after the section header"),
       "text after a section header is reported");
    ok(says("t.ini:8: error: section header '[data' has no closing ']'"),
       "the last line is reported too");
    experiment_free(&exp);

    errors = load_text("[experiment]\nwarmup = x\nnoise = 2\n[bogus]\nkey = 1\n[run a]\nplugin = p\n"
                       "plugin = q\n",
                       &exp);
    is_int(errors, 4, "errors of different kinds in one file are all reported");
    ok(says("t.ini:2:") && says("t.ini:3:") && says("t.ini:4:") && says("t.ini:8:") &&
           !mentions("t.ini:5:"),
       "each at its own line; keys of an unknown section are not reported again");
    experiment_free(&exp);
}

static void test_long_lines(void)
{
    rb_experiment exp;
    const char *path = fixture("long-line.ini");
    char want[4200];
    capture_start();
    int errors = experiment_load(path, &exp);
    capture_end();
    is_int(errors, 2, "long-line.ini: the long line and the line after it are reported");
    snprintf(want, sizeof want, "%s:4: error: line is 250 characters long; the longest line "
             "redbench can read is 199 characters", path);
    ok(says(want), "a 250-character line is reported with its line number and the limit");
    snprintf(want, sizeof want, "%s:5: error: cannot read 'this line is not a key'", path);
    ok(says(want), "line numbers after a long line stay right");
    snprintf(want, sizeof want, "%s:3:", path);
    ok(!mentions(want), "a 199-character line is read");
    ok(exp.n_runs == 1 && exp.runs[0].n_settings == 1 &&
           strcmp(exp.runs[0].settings[0].key, "block") == 0 && exp.runs[0].settings[0].line == 6,
       "the long line's key is not taken; the keys after it are");
    experiment_free(&exp);

    /* 199 characters exactly, then 200: the limit itself. */
    char text[1024];
    snprintf(text, sizeof text, "[run a]\nplugin = p\nvariant = %0189d\n", 0);
    errors = load_text(text, &exp);
    ok(errors == 0 && exp.runs[0].n_settings == 1 &&
           strlen(exp.runs[0].settings[0].text) == 189,
       "a key line of 199 characters is read whole");
    experiment_free(&exp);
    snprintf(text, sizeof text, "[run a]\nplugin = p\nvariant = %0190d\n", 0);
    errors = load_text(text, &exp);
    ok(errors == 1 && says("t.ini:3: error: line is 200 characters long"),
       "a key line of 200 characters is refused");
    experiment_free(&exp);
}

/* Experiment files are read up to RB_EXPERIMENT_MAX_BYTES (16 MiB), from
 * regular files, pipes and devices alike. */
static void test_bounds(const char *dir)
{
    rb_experiment exp;
    char path[4200], want[4300];
    int errors;

    capture_start();
    errors = experiment_load("/dev/zero", &exp);
    capture_end();
    ok(errors == 1 && says("/dev/zero: error: the experiment file is larger than 16 MiB, the "
                           "most redbench reads"),
       "/dev/zero is read up to 16 MiB and refused, naming it");
    experiment_free(&exp);

    snprintf(path, sizeof path, "%s/huge.ini", dir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int sized = fd >= 0 && ftruncate(fd, (off_t)RB_EXPERIMENT_MAX_BYTES + 1) == 0;
    if (fd >= 0)
        close(fd);
    capture_start();
    errors = experiment_load(path, &exp);
    capture_end();
    snprintf(want, sizeof want, "%s: error: the experiment file is larger than 16 MiB", path);
    ok(sized && errors == 1 && says(want), "a file of 16 MiB + 1 byte is refused, naming it");
    experiment_free(&exp);
    unlink(path);

    /* A pipe that gives more than the bound: refused once the bound is
     * passed, while the writer still has more to give. */
    snprintf(path, sizeof path, "%s/pipe.ini", dir);
    if (mkfifo(path, 0600) != 0) {
        perror("mkfifo");
        exit(99);
    }
    pid_t writer = fork();
    if (writer == 0) {
        int out = open(path, O_WRONLY);
        static char comment[65536];
        memset(comment, ';', sizeof comment - 1);
        comment[sizeof comment - 1] = '\n';
        for (int k = 0; k < 1024; k++) /* 64 MiB */
            if (write(out, comment, sizeof comment) < 0)
                _exit(0);
        _exit(0);
    }
    capture_start();
    errors = experiment_load(path, &exp);
    capture_end();
    snprintf(want, sizeof want, "%s: error: the experiment file is larger than 16 MiB", path);
    ok(errors == 1 && says(want), "a pipe giving 64 MiB is refused after 16 MiB, naming it");
    experiment_free(&exp);
    kill(writer, SIGKILL);
    waitpid(writer, NULL, 0);

    /* A small file through a pipe (`-c <(...)`) is read as usual. */
    writer = fork();
    if (writer == 0) {
        int out = open(path, O_WRONLY);
        static const char text[] = "[run a]\nplugin = p\n";
        _exit(write(out, text, sizeof text - 1) == (ssize_t)(sizeof text - 1) ? 0 : 1);
    }
    capture_start();
    errors = experiment_load(path, &exp);
    capture_end();
    ok(errors == 0 && exp.n_runs == 1, "a small experiment through a pipe is read");
    experiment_free(&exp);
    kill(writer, SIGKILL);
    waitpid(writer, NULL, 0);
    unlink(path);
}

static void test_files(void)
{
    rb_experiment exp;
    char dir[] = "/tmp/test_experiment.XXXXXX";
    char path[4200];
    int errors;

    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(99);
    }

    capture_start();
    errors = experiment_load(fixture("empty.ini"), &exp);
    capture_end();
    ok(errors == 1 && says("empty.ini: error: the experiment file is empty"),
       "an empty file is refused, naming it");
    experiment_free(&exp);

    refused("empty text", "", 1, "t.ini: error: the experiment file is empty");
    refused("only comments", "; nothing\n\n# here\n", 1,
            "t.ini: error: no [run NAME] section: nothing to run");

    snprintf(path, sizeof path, "%s/missing.ini", dir);
    capture_start();
    errors = experiment_load(path, &exp);
    capture_end();
    ok(errors == 1 && says("missing.ini: error: cannot open the experiment file: No such file"),
       "a missing file is refused, naming it");
    experiment_free(&exp);

    capture_start();
    errors = experiment_load(dir, &exp);
    capture_end();
    snprintf(path, sizeof path, "%s: error: is a directory", dir);
    ok(errors == 1 && says(path), "a directory is refused, naming it");
    experiment_free(&exp);

    snprintf(path, sizeof path, "%s/binary.ini", dir);
    FILE *f = fopen(path, "wb");
    fwrite("[run a]\nplugin = p\nx\0y = 1\n", 1, 27, f);
    fclose(f);
    capture_start();
    errors = experiment_load(path, &exp);
    capture_end();
    ok(errors == 1 && says("binary.ini:3: error: the file contains a NUL byte"),
       "a file with a NUL byte is refused, naming the file and line");
    experiment_free(&exp);
    unlink(path);

    snprintf(path, sizeof path, "%s/locked.ini", dir);
    f = fopen(path, "w");
    fputs("[run a]\nplugin = p\n", f);
    fclose(f);
    chmod(path, 0);
    if (geteuid() == 0) {
        skip("root reads files without read permission");
    } else {
        capture_start();
        errors = experiment_load(path, &exp);
        capture_end();
        ok(errors == 1 && says("locked.ini: error: cannot open the experiment file: Permission"),
           "an unreadable file is refused, naming it");
        experiment_free(&exp);
    }
    unlink(path);
    test_bounds(dir);
    rmdir(dir);
}

int main(void)
{
    plan(106);
    test_valid_file();
    test_defaults();
    test_sections_and_keys();
    test_values();
    test_measurement_keys();
    test_syntax();
    test_long_lines();
    test_files();
    return done();
}
