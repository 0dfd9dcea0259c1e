/* src/run/progress.c: the progress of a run on standard error (progress.h):
 * the live line on a terminal, the plain lines elsewhere, the estimate of
 * the time left. Run names and parameters come from experiment files and
 * plugins: they are made printable before they reach the terminal. */
#include "run/progress.h"
#include "base/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "base/names.h"
#include "base/units.h"
#include "base/util.h"

#define PLAIN_SECONDS_DEFAULT 10.0
#define LIVE_REDRAW_SECONDS 0.25

static struct {
    int mode;                /* enum rb_progress_mode */
    const rb_sweep *sweep;
    size_t done;             /* configurations with a final row */
    long running;            /* the one in progress, or -1 */
    double started;          /* when the run began */
    double last_line;        /* when the last line was drawn or written */
    double last_finish;      /* when the last configuration finished */
    double interval;         /* plain mode: seconds between lines */
    int shown;               /* a live line is on the terminal */
    int written;             /* plain mode: a line was written */
    const size_t *order;     /* the round's order (progress_round), or NULL */
    size_t order_count;
    int round, rounds;
    size_t total;            /* configurations to run, once per round each runs:
                                a later round runs only those ok in the first,
                                so a row that is not ok there leaves the count
                                of every later round */
} progress;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int progress_mode_for_stderr(int quiet)
{
    if (quiet)
        return RB_PROGRESS_OFF;
    return isatty(STDERR_FILENO) ? RB_PROGRESS_LIVE : RB_PROGRESS_PLAIN;
}

double progress_plain_interval(void)
{
    const char *text = getenv("REDBENCH_PROGRESS_SECONDS");
    if (text && *text) {
        char *end;
        double seconds = strtod(text, &end);
        if (*end == '\0' && seconds > 0)
            return seconds;
    }
    return PLAIN_SECONDS_DEFAULT;
}

/* "12 s", "3m05s", "2h07m". */
static void format_clock(double seconds, char *buf, size_t len)
{
    long s = seconds > 0 ? (long)(seconds + 0.5) : 0;
    if (s < 60)
        snprintf(buf, len, "%ld s", s);
    else if (s < 3600)
        snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(buf, len, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
}

/* "run block=256 sum i32 n=1M", printable. */
static char *describe_config(size_t index)
{
    const rb_configuration *cfg = &progress.sweep->configs[index];
    char n[32];
    format_size(cfg->n, n, sizeof n);
    char shape[96];
    sweep_shape_text(cfg, shape, sizeof shape);
    char *raw = xasprintf("%s%s%s %s %s n=%s%s", cfg->run->name, *cfg->params_text ? " " : "",
                          cfg->params_text, op_name(cfg->op), dtype_name(cfg->dtype), n, shape);
    char *shown = printable_text(raw);
    free(raw);
    return shown;
}

/* The sweep index of `index` as the runner or a worker gives it: a place
 * in the round's order, when there is one; n_configs when out of range. */
static size_t sweep_index(size_t index)
{
    if (!progress.order)
        return index;
    return index < progress.order_count ? progress.order[index] : progress.sweep->n_configs;
}

void progress_round(const size_t *order, size_t count, int round, int rounds)
{
    progress.order = order;
    progress.order_count = count;
    progress.round = round;
    progress.rounds = rounds;
    /* those finished, this round's, and as many in each round after it */
    progress.total = progress.done + count * (size_t)(rounds - round > 0 ? rounds - round : 1);
}

/* The line's text: "[i/N] CONFIG: 12 s elapsed, about 40 s left"; with
 * rounds, N counts each configuration once per round it runs. */
static char *status_text(double now)
{
    int rounds = progress.rounds > 1 ? progress.rounds : 1;
    size_t total = progress.total;
    size_t at = progress.running < 0 ? progress.done
                : rounds > 1          ? progress.done + 1
                                      : (size_t)progress.running + 1;
    char elapsed[32], left[32];
    double spent = now - progress.started;
    format_clock(spent, elapsed, sizeof elapsed);
    strbuf sb = {0};
    if (rounds > 1)
        sb_printf(&sb, "round %d/%d ", progress.round + 1, rounds);
    sb_printf(&sb, "[%zu/%zu]", at, total);
    if (progress.running >= 0) {
        char *what = describe_config((size_t)progress.running);
        sb_printf(&sb, " %s", what);
        free(what);
    }
    sb_printf(&sb, "%s %s elapsed", progress.running >= 0 ? ":" : "", elapsed);
    if (progress.done > 0 && progress.done < total) {
        /* each configuration left takes the mean of those finished; the
         * time the one in progress has had already counts */
        double mean = (progress.last_finish - progress.started) / (double)progress.done;
        double remaining = (double)(total - progress.done);
        double estimate = mean * remaining - (now - progress.last_finish);
        if (estimate < mean * (remaining - 1))
            estimate = mean * (remaining - 1);
        format_clock(estimate, left, sizeof left);
        sb_printf(&sb, ", about %s left", left);
    }
    return sb.data ? sb.data : xstrdup("");
}

static int terminal_columns(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

/* Cuts text to fit in `columns` (counting each UTF-8 sequence as one), so
 * that the line never wraps and \r returns to its start. */
static void fit_columns(char *text, int columns)
{
    int used = 0;
    unsigned char *p = (unsigned char *)text;
    while (*p) {
        size_t len = utf8_length(p);
        if (len == 0)
            len = 1;
        if (++used > columns) {
            *p = '\0';
            return;
        }
        p += len;
    }
}

static void clear_live(void)
{
    if (progress.shown) {
        fputs("\r\033[K", stderr);
        progress.shown = 0;
    }
}

static void draw_live(double now)
{
    char *text = status_text(now);
    fit_columns(text, terminal_columns() - 1);
    fprintf(stderr, "\r\033[K%s", text); /* the live line: the one write that is not a line */
    fflush(stderr);
    free(text);
    progress.shown = 1;
    progress.last_line = now;
}

static void write_plain(double now)
{
    char *text = status_text(now);
    diag_say("%s", text);
    fflush(stderr);
    free(text);
    progress.written = 1;
    progress.last_line = now;
}

void progress_begin(const rb_sweep *sweep, int mode)
{
    memset(&progress, 0, sizeof progress);
    progress.mode = sweep && sweep->n_configs ? mode : RB_PROGRESS_OFF;
    progress.sweep = sweep;
    progress.running = -1;
    progress.total = sweep->n_configs;
    progress.started = progress.last_line = now_seconds();
    progress.interval = progress_plain_interval();
}

void progress_running(size_t index)
{
    if (progress.mode == RB_PROGRESS_OFF)
        return;
    index = sweep_index(index);
    if (index >= progress.sweep->n_configs)
        return;
    progress.running = (long)index;
    if (progress.mode == RB_PROGRESS_LIVE)
        draw_live(now_seconds());
}

void progress_finished(size_t index, const rb_row *row)
{
    if (progress.mode == RB_PROGRESS_OFF)
        return;
    index = sweep_index(index);
    if (index >= progress.sweep->n_configs)
        return;
    progress.done++;
    if (progress.round == 0 && progress.rounds > 1 && row->status != RB_ROW_OK &&
        progress.total >= (size_t)(progress.rounds - 1))
        progress.total -= (size_t)(progress.rounds - 1); /* it runs in no later round */
    progress.last_finish = now_seconds();
    if (progress.running == (long)index)
        progress.running = -1;
    double now = now_seconds();
    if (progress.mode == RB_PROGRESS_LIVE) {
        if (row->status == RB_ROW_WRONG || row->status == RB_ROW_FAILED) {
            char *what = describe_config(index), *why = printable_text(row_reason(row));
            clear_live();
            diag_line("[%zu/%zu] %s: %s: %s", index + 1, progress.sweep->n_configs, what,
                    row_status_name(row->status), why);
            free(what);
            free(why);
        }
        draw_live(now);
    } else if (now - progress.last_line >= progress.interval) {
        write_plain(now);
    }
}

void progress_tick(void)
{
    if (progress.mode == RB_PROGRESS_OFF)
        return;
    double now = now_seconds();
    if (progress.mode == RB_PROGRESS_LIVE && now - progress.last_line >= LIVE_REDRAW_SECONDS)
        draw_live(now);
    else if (progress.mode == RB_PROGRESS_PLAIN && now - progress.last_line >= progress.interval)
        write_plain(now);
}

void progress_end(void)
{
    if (progress.mode == RB_PROGRESS_LIVE) {
        clear_live();
        fflush(stderr);
    } else if (progress.mode == RB_PROGRESS_PLAIN && progress.written) {
        char elapsed[32];
        format_clock(now_seconds() - progress.started, elapsed, sizeof elapsed);
        diag_say("[%zu/%zu] the run took %s", progress.done, progress.total,
                elapsed);
    }
    progress.mode = RB_PROGRESS_OFF;
}
