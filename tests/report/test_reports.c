/* tests/report/test_reports.c: the reporters and the JSON writer. Builds a results
 * set by hand (one row of each status, a reason holding a comma, a quote and
 * a line break, rows without samples, a row whose optional plugin is absent,
 * rows timed in graph and launch mode, stopped by each cap, deterministic
 * or not, with a reproducibility level or none, throttled or not), writes every format to a file and checks what
 * is in it. The JSON report is read back with jq ($JQ); without jq those
 * checks are skipped. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/json_writer.h"
#include "base/names.h"
#include "report/reporters.h"
#include "results/rows.h"
#include "tap.h"
#include "base/util.h"

#define N_ROWS 5

static const char experiment_text[] =
    "[experiment]\nname = demo\nseed = 42\n\n[run main]\nplugin = tree\nblock = 256, 512, 128\n"
    "\n[run hist]\nplugin = tree\nop = histogram\n\n[run opt]\nplugin = warp_magic\noptional = true\n";

static const char *const variant_words[] = {"divergent", "sequential", NULL};
static const rb_param_spec tree_params[] = {
    {"block", RB_PARAM_INT, "256", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
    {"variant", RB_PARAM_CHOICE, "sequential", 0, 0, variant_words, 0, "addressing"},
};
static const rb_plugin tree_desc = {
    .abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
    .name = "tree", .summary = "tree reduction", .version = "1.2", .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM), .dtypes = RB_DTYPE_BIT(RB_DTYPE_F32),
    .params = tree_params, .n_params = 2,
};
static rb_loaded_plugin tree_plugin = {
    .path = "/opt/plugins/cpu/tree.so", .pack = "cpu", .desc = &tree_desc};

static rb_experiment experiment;
static rb_run_section runs[3];
static rb_param_value params[4][2];
static rb_configuration configs[N_ROWS];
static rb_results results;

static const char failed_reason[] = "plugin said \"no\", then\nstopped";

static double *copy_samples(const double *samples, size_t count)
{
    double *copy = xmalloc(count * sizeof *copy);
    memcpy(copy, samples, count * sizeof *copy);
    return copy;
}

static void set_params(int k, int64_t block, int variant)
{
    params[k][0] = (rb_param_value){"block", block, xasprintf("%lld", (long long)block)};
    params[k][1] = (rb_param_value){"variant", variant, variant_words[variant]};
    configs[k].params = params[k];
    configs[k].n_params = 2;
    configs[k].params_text = xasprintf("block=%lld variant=%s", (long long)block,
                                       variant_words[variant]);
}

static void build_results(void)
{
    static const double samples_ok[] = {1200, 1234.5, 1300, 1234.5, 1281.5};
    static const double samples_wrong[] = {5000, 5100, 4900};

    experiment = (rb_experiment){.path = "conf/demo.ini", .text = (char *)experiment_text,
                                 .name = "demo", .warmup = 3, .min_time = 0.5, .min_reps = 5,
                                 .max_reps = 1000, .noise = 0.01, .cache = RB_CACHE_HOT,
                                 .seed = 42, .device = 0, .timeout = 60};
    runs[0] = (rb_run_section){.name = "main", .line = 5, .plugin = "tree", .plugin_line = 6};
    runs[1] = (rb_run_section){.name = "hist", .line = 9, .plugin = "tree", .plugin_line = 10};
    runs[2] = (rb_run_section){.name = "opt", .line = 13, .plugin = "warp_magic",
                               .plugin_line = 14, .optional = 1};

    for (size_t k = 0; k < N_ROWS; k++)
        configs[k] = (rb_configuration){.index = k, .run = &runs[0], .plugin = &tree_plugin,
                                        .op = RB_OP_SUM, .dtype = RB_DTYPE_F32, .n = 1024,
                                        .distribution = RB_DIST_UNIFORM, .bins = 256};
    configs[0].n = 1048576;
    set_params(0, 256, 1);
    configs[1].n = 4194304;
    set_params(1, 512, 0);
    set_params(2, 128, 1);
    configs[3].run = &runs[1];
    configs[3].op = RB_OP_HISTOGRAM;
    configs[3].dtype = RB_DTYPE_U8;
    configs[3].bins = 64;
    set_params(3, 256, 1);
    configs[4].run = &runs[2];
    configs[4].plugin = NULL;
    configs[4].params_text = xstrdup("");
    configs[4].skip_reason = "plugin warp_magic not found";

    rb_run_info *info = &results.info;
    info->experiment = &experiment;
    info->tool_version = "0.1.0";
    snprintf(info->started, sizeof info->started, "2024-05-01T12:00:00Z");
    snprintf(info->host, sizeof info->host, "testhost");
    snprintf(info->os, sizeof info->os, "Linux 6.1");
    snprintf(info->cpu, sizeof info->cpu, "Test CPU @ 3 GHz");
    info->command_line = xstrdup("redbench -c conf/demo.ini --format json");
    info->wall_seconds = 2.5;
    info->n_devices = 1;
    rb_device_record *dev = &info->devices[0];
    snprintf(dev->backend, sizeof dev->backend, "cpu");
    dev->info.size = sizeof dev->info;
    snprintf(dev->info.name, sizeof dev->info.name, "Test CPU");
    dev->info.peak_gbs = 100;
    dev->info.memory_bytes = 1ull << 34;
    dev->info.n_props = 1;
    snprintf(dev->info.props[0].key, sizeof dev->info.props[0].key, "threads");
    snprintf(dev->info.props[0].value, sizeof dev->info.props[0].value, "8");
    dev->measured_peak_gbs = 80;

    results.n_rows = N_ROWS;
    results.rows = xcalloc(N_ROWS, sizeof *results.rows);
    for (size_t k = 0; k < N_ROWS; k++) {
        results.rows[k].config = &configs[k];
        results.rows[k].backend = "cpu";
        results.rows[k].device_index = 0;
        results.rows[k].seed = 42 + k;
    }
    rb_row *ok_row = &results.rows[0];
    ok_row->status = RB_ROW_OK;
    snprintf(ok_row->label, sizeof ok_row->label, "reduce2");
    ok_row->stats = (rb_stats){5, 1234.5, 1200, 1300, 1250.25, 40.5, 0.0324, 0.0125};
    ok_row->samples_ns = copy_samples(samples_ok, 5);
    ok_row->bandwidth_gbs = 3.5;
    ok_row->pct_peak = 3.5;
    ok_row->pct_measured_peak = 4.375;
    ok_row->error = 0.25;
    ok_row->tolerance = 2;
    snprintf(ok_row->result_text, sizeof ok_row->result_text, "524288.5");
    snprintf(ok_row->expected_text, sizeof ok_row->expected_text, "524288.25");
    ok_row->timing = "graph";
    ok_row->batch_calls = 64;
    ok_row->stopped_by = "noise";
    ok_row->error_ratio = 0.125;
    ok_row->error_ratio_known = 1;
    ok_row->determinism = RB_DETERMINISM_SAME;
    ok_row->determinism_results = 3;
    ok_row->repro.level = RB_REPRO_LAYOUT;
    ok_row->clocks_known = 1;

    rb_row *wrong_row = &results.rows[1];
    wrong_row->status = RB_ROW_WRONG;
    row_set_reason(wrong_row, "result 1.5 outside tolerance 0.01");
    wrong_row->stats = (rb_stats){3, 5000, 4900, 5100, 5000, 100, 0.02, 0.03};
    wrong_row->samples_ns = copy_samples(samples_wrong, 3);
    wrong_row->bandwidth_gbs = 3.2;
    wrong_row->pct_peak = 3.2;
    wrong_row->pct_measured_peak = 4;
    wrong_row->timing = "launch";
    wrong_row->stopped_by = "max_reps";
    wrong_row->error_ratio = 1.5;
    wrong_row->error_ratio_known = 1;
    wrong_row->determinism = RB_DETERMINISM_DIFFERS;
    wrong_row->determinism_results = 3;
    wrong_row->clocks_known = 1;
    wrong_row->throttled = 1;
    wrong_row->throttle_reasons = RB_THROTTLE_HW_SLOWDOWN | RB_THROTTLE_SW_THERMAL;

    results.rows[2].status = RB_ROW_FAILED;
    row_set_reason(&results.rows[2], "%s", failed_reason);
    results.rows[2].timing = "launch";
    results.rows[2].stopped_by = "timeout";
    results.rows[3].status = RB_ROW_UNSUPPORTED;
    row_set_reason(&results.rows[3], "declines dtype u8 | op histogram");
    results.rows[4].status = RB_ROW_SKIPPED;
    results.rows[4].backend = NULL;
    results.rows[4].device_index = -1;
    row_set_reason(&results.rows[4], "%s", configs[4].skip_reason);
}

static void free_configs(void)
{
    for (size_t k = 0; k < N_ROWS; k++)
        free(configs[k].params_text);
    for (size_t k = 0; k < RB_ARRAY_LEN(params); k++)
        free((char *)params[k][0].text); /* the block values were formatted */
}

static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return xstrdup("");
    strbuf sb = {0};
    sb_append(&sb, "");
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk - 1, f)) > 0) {
        chunk[got] = '\0';
        sb_append(&sb, chunk);
    }
    fclose(f);
    return sb.data;
}

/* Splits text into lines (the text is modified). */
static size_t split_lines(char *text, char ***lines)
{
    size_t count = 0, cap = 0;
    char **out = NULL;
    char *p = text;
    while (*p) {
        char *end = strchr(p, '\n');
        char **slot = grow(&out, &count, &cap, sizeof *out);
        *slot = p;
        if (!end)
            break;
        *end = '\0';
        p = end + 1;
    }
    *lines = out;
    return count;
}

static int write_report(rb_reporter reporter, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = reporter(f, &results);
    return fclose(f) != 0 ? -1 : rc;
}

/* jq's output (-r) for a filter on the JSON report, without the last newline. */
static char *jq(const char *jq_program, const char *json_path, const char *filter)
{
    char *command = xasprintf("'%s' -r '%s' '%s' 2>&1", jq_program, filter, json_path);
    FILE *p = popen(command, "r");
    free(command);
    if (!p)
        return xstrdup("(popen failed)");
    strbuf sb = {0};
    sb_append(&sb, "");
    char chunk[1024];
    while (fgets(chunk, sizeof chunk, p))
        sb_append(&sb, chunk);
    pclose(p);
    if (sb.len > 0 && sb.data[sb.len - 1] == '\n')
        sb.data[--sb.len] = '\0';
    return sb.data;
}

static const struct {
    const char *filter, *want;
} json_checks[] = {
    {".tool", "redbench"},
    {".version", "0.1.0"},
    {".host.name", "testhost"},
    {".experiment.name", "demo"},
    {".experiment.settings.cache", "hot"},
    {".experiment.settings.seed", "42"},
    {".experiment.text == env.RB_WANT_TEXT", "true"},
    {".devices[0].name", "Test CPU"},
    {".devices[0].measured_peak_gbs", "80"},
    {".devices[0].memory_bytes", "17179869184"},
    {".devices[0].compute_capability", "null"},
    {".devices[0].properties.threads", "8"},
    {".summary | [.ok, .wrong, .failed, .unsupported, .skipped] | join(\",\")", "1,1,1,1,1"},
    {".results | length", "5"},
    {".results[0].n", "1048576"},
    {".results[0].params.block", "256"},
    {".results[0].params.block | type", "number"},
    {".results[0].params.variant", "sequential"},
    {".results[0].params_text", "block=256 variant=sequential"},
    {".results[0].plugin_path", "/opt/plugins/cpu/tree.so"},
    {".results[0].median_ns", "1234.5"},
    {".results[0].noise", "0.0125"},
    {".results[0].pct_measured_peak", "4.375"},
    {".results[0].samples_ns | length", "5"},
    {".results[0].samples_ns[4]", "1281.5"},
    {".results[0].tolerance", "2"},
    {".results[0] | has(\"bins\")", "false"},
    {".results[0].cache", "hot"},
    {".results[0] | [.timing, .batch_calls, .stopped_by, .error_ratio, .deterministic, "
     ".throttled] | map(tostring) | join(\",\")",
     "graph,64,noise,0.125,true,false"},
    {".results[0].repro", "layout-independent"},
    {".results[1].repro", "null"},
    {".results[1] | [.timing, .stopped_by, .error_ratio, .deterministic, .throttled, "
     ".throttle_reasons] | map(tostring) | join(\",\")",
     "launch,max_reps,1.5,false,true,hw_slowdown, sw_thermal"},
    {".results[1].status", "wrong"},
    {".results[1].samples_ns | length", "3"},
    {".results[2].status", "failed"},
    {".results[2].reason == env.RB_WANT_REASON", "true"},
    {".results[2] | [.median_ns, .min_ns, .bandwidth_gbs, .pct_peak, .error] | map(. == null) | all",
     "true"},
    {".results[2].reps", "0"},
    {".results[2].samples_ns | length", "0"},
    {".results[3].bins", "64"},
    {".results[3].run", "hist"},
    {".results[4].run", "opt"},
    {".results[4].plugin", "warp_magic"},
    {".results[4].pack", "null"},
    {".results[4].status", "skipped"},
    {".results[4].reason", "plugin warp_magic not found"},
    {".results[4].params | length", "0"},
};

static void check_json(const char *path)
{
    const char *jq_program = getenv("JQ");
    setenv("RB_WANT_TEXT", experiment_text, 1);
    setenv("RB_WANT_REASON", failed_reason, 1);
    for (size_t k = 0; k < RB_ARRAY_LEN(json_checks); k++) {
        if (!jq_program || !*jq_program) {
            skip("jq not found");
            continue;
        }
        char *got = jq(jq_program, path, json_checks[k].filter);
        is_str(got, json_checks[k].want, "json: %s", json_checks[k].filter);
        free(got);
    }
}

/* What the JSON writer wrote, by a function writing to a memory stream. */
static char *written(void (*write)(json_writer *w), int indent, int *rc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    json_writer w;
    jw_init(&w, mem, indent);
    write(&w);
    *rc = jw_finish(&w);
    fclose(mem);
    return text;
}

static void write_awkward_string(json_writer *w)
{
    /* quote, backslash, controls, DEL, valid "é", then invalid UTF-8: a
     * stray byte, an overlong '/', a surrogate and a truncated sequence */
    jw_string(w, "a\"b\\c\n\t\x01\x7f" "\xc3\xa9" "\xff" "\xc0\xaf" "\xed\xa0\x80" "\xe2\x82");
}

static void write_compact_document(json_writer *w)
{
    jw_begin_object(w);
    jw_key(w, "a");
    jw_begin_array(w);
    jw_int(w, -1);
    jw_double(w, 2.5);
    jw_double(w, 0.0 / 0.0);
    jw_double(w, 1.0 / 0.0);
    jw_uint(w, UINT64_MAX);
    jw_end_array(w);
    jw_key(w, "b");
    jw_begin_object(w);
    jw_end_object(w);
    jw_key(w, "c");
    jw_string(w, NULL);
    jw_key(w, "d");
    jw_bool(w, 1);
    jw_end_object(w);
}

static void write_indented_document(json_writer *w)
{
    jw_begin_object(w);
    jw_key(w, "list");
    jw_begin_array_compact(w);
    jw_int(w, 1);
    jw_int(w, 2);
    jw_end_array(w);
    jw_key(w, "inner");
    jw_begin_object(w);
    jw_key(w, "x");
    jw_double(w, 0.1);
    jw_end_object(w);
    jw_key(w, "empty");
    jw_begin_array(w);
    jw_end_array(w);
    jw_end_object(w);
}

static void write_unclosed_document(json_writer *w)
{
    jw_begin_object(w);
    jw_key(w, "a");
    jw_begin_array(w);
    jw_end_array(w);
}

static void write_value_without_key(json_writer *w)
{
    jw_begin_object(w);
    jw_int(w, 1);
    jw_end_object(w);
}

static void check_json_writer(void)
{
    int rc;
    char *text = written(write_awkward_string, 2, &rc);
    is_str(text,
           "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\xc3\xa9\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd"
           "\\ufffd\\ufffd\"\n",
           "json writer: escapes controls, replaces invalid UTF-8");
    free(text);

    text = written(write_compact_document, 0, &rc);
    is_str(text, "{\"a\":[-1,2.5,null,null,18446744073709551615],\"b\":{},\"c\":null,\"d\":true}\n",
           "json writer: one-line document, NaN and inf as null");
    is_int(rc, 0, "json writer: balanced document finishes with 0");
    free(text);

    text = written(write_indented_document, 2, &rc);
    is_str(text, "{\n  \"list\": [1, 2],\n  \"inner\": {\n    \"x\": 0.1\n  },\n  \"empty\": []\n}\n",
           "json writer: indentation, compact array, empty array");
    free(text);

    text = written(write_unclosed_document, 2, &rc);
    is_int(rc, -1, "json writer: an unclosed object is an error");
    free(text);
    text = written(write_value_without_key, 2, &rc);
    is_int(rc, -1, "json writer: a member without a key is an error");
    free(text);

    static const double values[] = {0.1, 1.0 / 3, 2.0 / 3, 1e300, 5e-324, 123456789.123456789,
                                    -0.0, 1e-7, 4.35, 0.30000000000000004};
    int round_trips = 1;
    char buf[40];
    for (size_t k = 0; k < RB_ARRAY_LEN(values); k++) {
        json_format_double(values[k], buf, sizeof buf);
        if (strtod(buf, NULL) != values[k] || strlen(buf) > 24) {
            round_trips = 0;
            diag("%.17g written as %s", values[k], buf);
        }
    }
    ok(round_trips, "json writer: doubles read back to the same value");
    json_format_double(0.1, buf, sizeof buf);
    is_str(buf, "0.1", "json writer: 0.1 in its shortest form");
    json_format_double(0.30000000000000004, buf, sizeof buf);
    is_str(buf, "0.30000000000000004", "json writer: 17 digits where needed");
}

static void check_csv(const char *path)
{
    char *text = read_whole(path);
    size_t newlines = 0;
    for (const char *p = text; *p; p++)
        newlines += *p == '\n';
    is_int((long long)newlines, 1 + N_ROWS, "csv: one header line and one line per row");
    char **lines;
    size_t n = split_lines(text, &lines);
    is_int((long long)n, 1 + N_ROWS, "csv: no other lines");
    if (n == 1 + N_ROWS) {
        is_str(lines[0],
               "run,plugin,params,op,dtype,n,distribution,status,reason,median_ns,min_ns,mean_ns,"
               "stddev_ns,noise,reps,bandwidth_gbs,pct_peak,pct_measured_peak,result,expected,"
               "timing,batch_calls,stopped_by,error_ratio,deterministic,determinism_results,"
               "throttled,throttle_reasons,ranks,n_total,busbw_gbs,slowest_rank,slowest_rank_ns,"
               "fastest_rank,fastest_rank_ns,wrong_ranks,scaling,energy_source,energy_j,j_per_gb,power_w,"
               "sm_clock_min_mhz,sm_clock_max_mhz,energy_note,rounds_measured,rounds_asked,repro",
               "csv: header, the measurement columns after the first 20, repro last");
        is_str(lines[1],
               "main,tree,block=256 variant=sequential,sum,f32,1048576,uniform,ok,,1234.5,1200,"
               "1250.25,40.5,0.0125,5,3.5,3.5,4.375,524288.5,524288.25,graph,64,noise,0.125,true,3,"
               "false,,1,1048576,,,,,,,,,,,,,,,1,1,layout-independent",
               "csv: ok row, graph-timed, stopped by the noise target, deterministic, "
               "layout-independent");
        is_str(lines[2],
               "main,tree,block=512 variant=divergent,sum,f32,4194304,uniform,wrong,"
               "result 1.5 outside tolerance 0.01,5000,4900,5000,100,0.03,3,3.2,3.2,4,,,launch,,"
               "max_reps,1.5,false,3,true,\"hw_slowdown, sw_thermal\",1,4194304,,,,,,,,,,,,,,,1,1,",
               "csv: wrong row, stopped by max_reps, not deterministic, throttled with reasons");
        is_str(lines[3],
               "main,tree,block=128 variant=sequential,sum,f32,1024,uniform,failed,"
               "\"plugin said \"\"no\"\", then stopped\",,,,,,0,,,,,,launch,,timeout,,,,,,1,1024,,,,,,,,,,,,,,,0,1,",
               "csv: reason with comma and quote is quoted; unknown numbers are empty");
        is_str(lines[5],
               "opt,warp_magic,,sum,f32,1024,uniform,skipped,plugin warp_magic not found,,,,,,0,,,,,"
               ",,,,,,,,,1,1024,,,,,,,,,,,,,,,0,1,",
               "csv: row of an absent optional plugin");
    } else {
        for (int k = 0; k < 5; k++)
            ok(0, "csv: line contents (wrong line count)");
    }
    free(lines);
    free(text);
}

static void check_table(const char *path)
{
    char *text = read_whole(path);
    char **lines;
    size_t n = split_lines(text, &lines);
    size_t header = 0;
    while (header < n && strncmp(lines[header], "#  run ", 7) != 0)
        header++;
    ok(header < n && strstr(lines[header], "%meas") && strstr(lines[header], "%peak"),
       "table: header with %%meas and %%peak columns");

    /* The status column starts at the same position on every table line. */
    int aligned = header + 2 + N_ROWS <= n;
    size_t col = 0;
    if (aligned) {
        const char *status = strstr(lines[header], "status");
        col = status ? (size_t)(status - lines[header]) : 0;
        aligned = status && status[6] == '\0' && lines[header + 1][col] == '-' &&
                  lines[header + 1][col - 1] == ' ';
    }
    for (size_t k = 0; aligned && k < N_ROWS; k++) {
        const char *line = lines[header + 2 + k];
        const char *want = row_status_name(results.rows[k].status);
        aligned = strlen(line) == col + strlen(want) && strcmp(line + col, want) == 0 &&
                  line[col - 1] == ' ';
        if (!aligned)
            diag("status of row %zu not at column %zu: '%s'", k, col, line);
    }
    ok(aligned, "table: status column aligned on every line");
    ok(aligned && strstr(lines[header + 2], "  1M  ") != NULL, "table: n written as a size");
    ok(aligned && strstr(lines[header + 2], "3.5") != NULL && strstr(lines[header + 2], "4.4"),
       "table: GB/s and %% of the measured peak");

    int reason_found = 0, summary_found = 0, device_found = 0;
    for (size_t k = 0; k < n; k++) {
        reason_found += strcmp(lines[k], "#3 main tree block=128 variant=sequential: failed: "
                                         "plugin said \"no\", then stopped") == 0;
        summary_found += strcmp(lines[k], "5 configurations: 1 ok, 1 wrong, 1 failed, "
                                          "1 unsupported, 1 skipped") == 0;
        device_found += strcmp(lines[k], "device: cpu 0: Test CPU, measured peak 80.0 GB/s, "
                                         "theoretical 100.0 GB/s") == 0;
    }
    is_int(reason_found, 1, "table: a line with the reason of the failed row");
    is_int(summary_found, 1, "table: summary line");
    is_int(device_found, 1, "table: device line with its measured peak");
    free(lines);
    free(text);
}

static size_t unescaped_pipes(const char *line)
{
    size_t count = 0;
    for (const char *p = line; *p; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            continue;
        }
        count += *p == '|';
    }
    return count;
}

static void check_md(const char *path)
{
    char *text = read_whole(path);
    char **lines;
    size_t n = split_lines(text, &lines);
    ok(n > 0 && strcmp(lines[0], "# redbench: demo") == 0, "md: heading with the experiment name");
    size_t table_lines = 0, well_formed = 0, summary = 0, command = 0, escaped = 0, reason = 0;
    size_t experiment_file = 0, repro_head = 0, repro_cell = 0;
    for (size_t k = 0; k < n; k++) {
        if (lines[k][0] == '|') {
            table_lines++;
            repro_head += strstr(lines[k], "| err/tol | det | repro | notes |") != NULL;
            repro_cell += strstr(lines[k], "| 0.12 | yes | layout-independent |") != NULL;
            well_formed += unescaped_pipes(lines[k]) == 17;
            escaped += strstr(lines[k], "| declines dtype u8 \\| op histogram |") != NULL;
            reason += strstr(lines[k], "| plugin said \"no\", then stopped |") != NULL;
        }
        summary += strcmp(lines[k], "**5 configurations:** 1 ok, 1 wrong, 1 failed, "
                                    "1 unsupported, 1 skipped") == 0;
        command += strcmp(lines[k], "- command: ` redbench -c conf/demo.ini --format json `") == 0;
        experiment_file += strcmp(lines[k], "[run opt]") == 0;
    }
    is_int((long long)table_lines, 2 + N_ROWS, "md: header, separator and one line per row");
    is_int((long long)well_formed, 2 + N_ROWS, "md: every table line has 16 cells");
    is_int((long long)escaped, 1, "md: '|' in a reason is escaped");
    is_int((long long)reason, 1, "md: line break in a reason is a space");
    is_int((long long)summary, 1, "md: status summary");
    is_int((long long)command, 1, "md: command line");
    is_int((long long)experiment_file, 1, "md: the experiment file is included");
    is_int((long long)repro_head, 1, "md: a repro column after det");
    is_int((long long)repro_cell, 1, "md: the ok row's level");
    free(lines);
    free(text);
}

/* The line of the HTML results table that starts with `start`, or NULL. */
static const char *html_line(char **lines, size_t n, const char *start)
{
    for (size_t k = 0; k < n; k++)
        if (strncmp(lines[k], start, strlen(start)) == 0)
            return lines[k];
    return NULL;
}

static void check_html(const char *path)
{
    char *text = read_whole(path);
    char **lines;
    size_t n = split_lines(text, &lines);
    const char *head = html_line(lines, n, "<tr><th>#</th><th>run</th>");
    ok(head && strstr(head, "<th>median time</th><th>bandwidth (GB/s)</th><th>% of peak</th>") &&
           strstr(head, "<th>noise (% of median)</th><th>how measured</th><th>reason</th></tr>"),
       "html: results header with units, how each row was measured in one column before the "
       "reason");
    if (head && !strstr(head, "<th>how measured</th>"))
        diag("%s", head);
    const char *row = html_line(lines, n, "<tr class=\"ok\">");
    ok(row && strstr(row, "<td class=\"more\"><details><summary>details</summary>") &&
           strstr(row, "<span>timing: graph, 64 calls per batch</span>; <span>stopped by: "
                       "noise</span>; <span>error / tolerance: 0.12</span>; <span>deterministic: "
                       "yes</span>; <span>repro: layout-independent</span>; <span>throttled: "
                       "no</span></details></td>"
                       "<td class=\"reason\"></td></tr>"),
       "html: ok row's details: graph timing with its batch, noise, err/tol, deterministic, its "
       "level, not throttled");
    if (row && !strstr(row, "<span>throttled: no</span>"))
        diag("%s", row);
    row = html_line(lines, n, "<tr class=\"wrong\">");
    ok(row && strstr(row, "<summary class=\"caution\">details (check)</summary>") &&
           strstr(row, "<span>timing: launch</span>; <span class=\"caution\">stopped by: "
                       "max_reps</span>; <span>error / tolerance: 1.5</span>; <span "
                       "class=\"caution\">deterministic: no</span>; <span "
                       "class=\"caution\">throttled: yes (hw_slowdown, sw_thermal)</span>"),
       "html: wrong row: a cap, not deterministic and throttled are marked, and its summary");
    if (row && !strstr(row, "sw_thermal)</span>"))
        diag("%s", row);
    const char *fold = html_line(lines, n, "<details class=\"folded\">");
    const char *why = html_line(lines, n, "<details class=\"reason\"><summary><b>1</b> <span "
                                          "class=\"status skipped\">skipped</span>");
    row = html_line(lines, n, "<tr class=\"skipped\">");
    ok(fold && strstr(fold, "<summary>2 rows skipped or unsupported (not run), for 2 reasons") &&
           why && why > fold && strstr(why, "): plugin warp_magic not found</summary>") && row &&
           row > why && !strstr(row, "warp_magic not found"),
       "html: the rows that were not measured are folded away under their count, then under "
       "their reason, once");
    if (!fold || !strstr(fold, "<summary>2 rows "))
        diag("%s", fold ? fold : "no folded rows");
    free(lines);
    free(text);
}

/* A report written to memory; the caller frees it. */
static char *report_text(rb_reporter reporter)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    reporter(f, &results);
    fclose(f);
    return text;
}

/* %meas above 100% is explained under the table; 64-bit seeds and the peak
 * cache's disagreement in the JSON. */
static void check_in_cache_and_wide_numbers(void)
{
    char *text = report_text(report_table);
    ok(!strstr(text, "%meas above 100%"), "table: no in-cache note while %%meas is below 100%%");
    free(text);
    double kept = results.rows[0].pct_measured_peak;
    results.rows[0].pct_measured_peak = 267.4;
    text = report_text(report_table);
    ok(strstr(text, "\n%meas above 100% (1 row, up to 267%): inputs of up to 4M bytes fit in "
                    "the device's last-level cache") != NULL,
       "table: a note says why %%meas passes 100%%");
    free(text);
    results.rows[0].pct_measured_peak = kept;

    uint64_t seed = results.rows[0].seed;
    results.rows[0].seed = UINT64_MAX;
    rb_device_record *dev = &results.info.devices[0];
    snprintf(dev->measured_peak_note, sizeof dev->measured_peak_note, "measured 60.8 GB/s");
    text = report_text(report_json);
    ok(strstr(text, "\"seed\": \"18446744073709551615\"") != NULL,
       "json: a 64-bit seed is written whole, as a string");
    ok(strstr(text, "\"schema_version\": ") != NULL, "json: schema_version");
    ok(strstr(text, "\"measured_peak_note\": \"measured 60.8 GB/s\"") != NULL,
       "json: the peak cache's disagreement in the device's record");
    free(text);
    dev->measured_peak_note[0] = '\0';
    results.rows[0].seed = seed;
}

static void check_lookup_and_counts(void)
{
    ok(report_for("table") == report_table && report_for("csv") == report_csv &&
           report_for("json") == report_json && report_for("md") == report_md,
       "report_for: every format");
    ok(report_for("xml") == NULL && report_for(NULL) == NULL, "report_for: unknown format");
    is_str(report_formats(), "table, csv, json, md, html, sqlite", "report_formats");
    size_t counts[RB_ROW_COUNT_];
    results_count(&results, counts);
    ok(counts[RB_ROW_OK] == 1 && counts[RB_ROW_WRONG] == 1 && counts[RB_ROW_FAILED] == 1 &&
           counts[RB_ROW_UNSUPPORTED] == 1 && counts[RB_ROW_SKIPPED] == 1,
       "results_count: one row of each status");
}

int main(void)
{
    plan(49 + (int)RB_ARRAY_LEN(json_checks));
    build_results();

    const char *tmpdir = getenv("TMPDIR");
    char *dir = xasprintf("%s/rb-reports.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir))
        bail("cannot create a temporary folder");
    static const char *const formats[] = {"table", "csv", "json", "md", "html"};
    char *paths[RB_ARRAY_LEN(formats)];
    int written_ok = 1;
    for (size_t k = 0; k < RB_ARRAY_LEN(formats); k++) {
        paths[k] = xasprintf("%s/report.%s", dir, formats[k]);
        written_ok &= write_report(report_for(formats[k]), paths[k]) == 0;
    }
    ok(written_ok, "every reporter returns 0");

    check_json_writer();
    check_json(paths[2]);
    check_csv(paths[1]);
    check_table(paths[0]);
    check_md(paths[3]);
    check_html(paths[4]);
    check_lookup_and_counts();
    check_in_cache_and_wide_numbers();

    FILE *full = fopen("/dev/full", "w");
    if (full) {
        ok(report_csv(full, &results) == -1, "a write error is reported");
        fclose(full);
    } else {
        skip("no /dev/full");
    }

    if (getenv("RB_KEEP_REPORTS")) {
        diag("reports kept in %s", dir);
    } else {
        for (size_t k = 0; k < RB_ARRAY_LEN(formats); k++)
            remove(paths[k]);
        rmdir(dir);
    }
    for (size_t k = 0; k < RB_ARRAY_LEN(formats); k++)
        free(paths[k]);
    free(dir);

    free_configs();
    results_free(&results);
    ok(results.rows == NULL && results.n_rows == 0 && results.info.command_line == NULL,
       "results_free: clears the rows and the command line");
    return done();
}
