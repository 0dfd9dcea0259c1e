/* src/plot/gnuplot.c: figures drawn by gnuplot, run as a child process.
 * Each figure becomes a self-contained script NAME.gp (its data inline), kept
 * beside the pictures so that a user can restyle and redraw it; gnuplot
 * draws it into NAME.svg, and NAME.png where a PNG terminal (pngcairo, else
 * png) exists.
 *
 * Texts from the results file reach the script only as data: in
 * single-quoted strings (gnuplot expands no backquote, macro or escape
 * there; a quote is a part of its own), or as quoted words in inline data
 * blocks, which gnuplot reads as data, never as commands. Either way they
 * are made printable and fit for XML first (gnuplot's SVG escapes only &
 * and <), so no line break or control byte ends a command or a data line
 * early and the SVG is well-formed.
 *
 * gnuplot opens no file of the output folder: it reads its script on its
 * standard input (a copy held by no folder) and draws to its standard
 * output, which redbench writes to a new file (safe_file: created with
 * O_EXCL, a link never followed) renamed over the figure once whole. */
#define _GNU_SOURCE /* memfd_create, pipe2, open_memstream */
#include "plot/figures.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/safe_file.h"
#include "base/util.h"

static const char *const palette =
    "#4e79a7 #f28e2b #e15759 #76b7b2 #59a14f #edc948 #b07aa1 #ff9da7 #9c755f #17becf #bcbd22 "
    "#8c564b";

/* The k-th colour of the palette ("4e79a7", after its '#'), from 0. */
static const char *word_at(const char *words, size_t k)
{
    static char word[8];
    const char *p = words;
    for (size_t j = 0; j < k && (p = strchr(p, ' ')) != NULL; j++)
        p++;
    snprintf(word, sizeof word, "%.6s", p ? p + 1 : "000000");
    return word;
}

const char *plot_gnuplot_find(void)
{
    static char found[4096];
    const char *program = getenv("REDBENCH_GNUPLOT");
    if (!program || !*program)
        program = "gnuplot";
    if (strchr(program, '/'))
        return access(program, X_OK) == 0 ? program : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        snprintf(found, sizeof found, "%.*s/%s", (int)(len ? len : 1), len ? path : ".", program);
        if (access(found, X_OK) == 0)
            return found;
        path += len;
        if (*path == ':')
            path++;
    }
    return NULL;
}

/* Text from the results file as gnuplot is given it: fit for XML
 * (markup_text: printable, so that it stays on its line, and no
 * noncharacter), and no "]]>", which gnuplot's SVG would copy as it is
 * (it escapes & and < only): a word joiner (U+2060, which is not seen)
 * goes between "]]" and ">". */
static char *gnuplot_text(const char *s)
{
    char *fit = markup_text(s);
    strbuf sb = {0};
    sb_append(&sb, "");
    const char *from = fit;
    for (const char *cut; (cut = strstr(from, "]]>")) != NULL; from = cut + 2)
        sb_printf(&sb, "%.*s\xe2\x81\xa0", (int)(cut + 2 - from), from);
    sb_append(&sb, from);
    free(fit);
    return sb.data;
}

/* A gnuplot string of single-quoted parts, joined with gnuplot's `.`: no
 * backquote or escape is expanded in them. A quote is a part of its own,
 * "'" (gnuplot's parser does not read a quote written twice at the start
 * of a string), and so is '@', which gnuplot would take for a macro
 * ("@GPVAL_PWD") even inside quotes. */
static void put_quoted(FILE *out, const char *s)
{
    char *shown = gnuplot_text(s);
    fputc('\'', out);
    for (const char *p = shown; *p; p++) {
        if (*p == '\'' || *p == '@')
            fprintf(out, "' . \"%c\" . '", *p);
        else
            fputc(*p, out);
    }
    fputc('\'', out);
    free(shown);
}

/* A quoted word inside a data block, where gnuplot reads backslash escapes
 * and a quote cannot be escaped: '"' becomes '\'', '\\' is written twice. */
static void put_data_word(FILE *out, const char *s)
{
    char *shown = gnuplot_text(s);
    fputc('"', out);
    for (const char *p = shown; *p; p++) {
        if (*p == '\\')
            fputs("\\\\", out);
        else
            fputc(*p == '"' ? '\'' : *p, out);
    }
    fputc('"', out);
    free(shown);
}

/* Text in a comment: printable, and no backslash (which at the end of a
 * line would continue the comment onto the next). */
static void put_comment_text(FILE *out, const char *s)
{
    char *shown = printable_text(s);
    for (const char *p = shown; *p; p++)
        fputc(*p == '\\' ? '/' : *p, out);
    free(shown);
}

/* The range a hair wider than the ticks, so that gnuplot's rounding keeps
 * the end ticks, and the ticks with their labels. */
static void put_tics(FILE *out, const char *axis, const plot_ticks *t, int log_axis)
{
    double lo = t->lo, hi = t->hi;
    if (log_axis) {
        lo /= 1 + 1e-9;
        hi *= 1 + 1e-9;
    } else {
        lo -= (hi - lo) * 1e-9;
        hi += (hi - lo) * 1e-9;
    }
    fprintf(out, "set %srange [%.17g:%.17g]\nset %stics (", axis, lo, hi, axis);
    for (size_t k = 0; k < t->count; k++) {
        fputs(k ? ", " : "", out);
        put_quoted(out, t->label[k]);
        fprintf(out, " %.17g", t->at[k]);
    }
    fputs(")\n", out);
}

static void header(FILE *out, const plot_figure *fig, const char *source, int width, int height)
{
    fprintf(out, "# %s.gp: drawn by `redbench plot` from ", fig->name);
    put_comment_text(out, source);
    fprintf(out, ".\n# Redraw with: gnuplot -e \"set terminal svg size %d,%d; set output "
                 "'%s.svg'\" %s.gp\n",
            width, height, fig->name, fig->name);
    fputs("set termoption noenhanced\nset title ", out);
    put_quoted(out, fig->title);
    if (fig->subtitle) {
        fputs(" . \"\\n\" . ", out);
        put_quoted(out, fig->subtitle);
    }
    fputs("\nset xlabel ", out);
    put_quoted(out, fig->x_label);
    fputs("\nset ylabel ", out);
    put_quoted(out, fig->y_label);
    fprintf(out, "\ncolors = '%s'\nset datafile missing 'NaN'\n", palette);
}

/* A label longer than this puts the key below the plot, in two columns. */
#define KEY_SIDE_CHARS 30

static int key_below(const plot_figure *fig)
{
    for (size_t s = 0; s < fig->n_series; s++)
        if (strlen(fig->series[s].label) > KEY_SIDE_CHARS)
            return 1;
    return 0;
}

static void key_setting(FILE *out, const plot_figure *fig)
{
    if (key_below(fig))
        fputs("set key below left Left reverse maxcols 2\n", out);
    else
        fputs("set key outside right top Left reverse\n", out);
}

static void hline_plots(FILE *out, const plot_figure *fig)
{
    for (size_t h = 0; h < fig->n_hlines; h++) {
        fprintf(out, ", \\\n     %.17g with lines dt 2 lw 1.5 lc rgb \"#444444\" title ",
                fig->hlines[h].y);
        put_quoted(out, fig->hlines[h].label);
    }
}

static void lines_script(FILE *out, const plot_figure *fig)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (size_t s = 0; s < fig->n_series; s++) {
        fprintf(out, "$S%zu << EOD\n", s + 1);
        for (size_t p = 0; p < fig->series[s].n; p++) {
            const plot_series *ser = &fig->series[s];
            double lo = ser->lo ? ser->lo[p] : ser->y[p], hi = ser->hi ? ser->hi[p] : ser->y[p];
            fprintf(out, "%.17g %.17g %.17g %.17g\n", ser->x[p], ser->y[p], lo, hi);
            xlo = fmin(xlo, ser->x[p]);
            xhi = fmax(xhi, ser->x[p]);
            ylo = fmin(ylo, lo);
            yhi = fmax(yhi, hi);
        }
        fputs("EOD\n", out);
    }
    for (size_t h = 0; h < fig->n_hlines; h++) {
        ylo = fmin(ylo, fig->hlines[h].y);
        yhi = fmax(yhi, fig->hlines[h].y);
    }
    plot_ticks t;
    if (fig->x_log2) {
        fputs("set logscale x 2\n", out);
        plot_axis_log2(xlo, xhi, fig->x_unit, &t);
    } else {
        plot_axis_linear(xlo, xhi, fig->x_unit, &t);
    }
    put_tics(out, "x", &t, fig->x_log2);
    if (fig->y_log10) {
        fputs("set logscale y 10\n", out);
        plot_axis_log10(ylo, yhi, fig->y_unit, &t);
    } else {
        plot_axis_linear(ylo, yhi * 1.05, fig->y_unit, &t);
    }
    put_tics(out, "y", &t, fig->y_log10);
    fputs("set grid\n", out);
    key_setting(out, fig);
    fputs("plot ", out);
    for (size_t s = 0; s < fig->n_series; s++) {
        /* yerrorlines: each point with its interquartile range (columns 3
         * and 4; equal to y where there is none) */
        fprintf(out, "%s$S%zu using 1:2:3:4 with %s lw 2 pt 7 ps 0.7 lc rgb word(colors, %zu) "
                     "title ",
                s ? ", \\\n     " : "", s + 1, fig->has_spread ? "yerrorlines" : "linespoints",
                s % PLOT_MAX_SERIES + 1);
        put_quoted(out, fig->series[s].label);
    }
    hline_plots(out, fig);
    fputc('\n', out);
}

static void bars_script(FILE *out, const plot_figure *fig)
{
    double ylo = INFINITY, yhi = -INFINITY;
    fputs("$BARS << EOD\n\"data\"", out);
    for (size_t s = 0; s < fig->n_series; s++) {
        fputc(' ', out);
        put_data_word(out, fig->series[s].label);
    }
    fputc('\n', out);
    for (size_t c = 0; c < fig->n_columns; c++) {
        put_data_word(out, fig->columns[c]);
        for (size_t s = 0; s < fig->n_series; s++) {
            double v = fig->series[s].y[c];
            if (v > 0) {
                fprintf(out, " %.17g", v);
                ylo = fmin(ylo, v);
                yhi = fmax(yhi, v);
            } else {
                fputs(" NaN", out);
            }
        }
        fputc('\n', out);
    }
    fputs("EOD\n", out);
    plot_ticks t;
    if (fig->y_log10) {
        fputs("set logscale y 10\n", out);
        plot_axis_log10(fmin(ylo, 1), fmax(yhi, 1), fig->y_unit, &t);
    } else {
        plot_axis_linear(0, fmax(yhi, 1) * 1.05, fig->y_unit, &t);
    }
    put_tics(out, "y", &t, fig->y_log10);
    fprintf(out, "set xrange [-0.5:%zu.5]\n", fig->n_columns ? fig->n_columns - 1 : 0);
    if (fig->n_columns > 6)
        fputs("set xtics rotate by -35\n", out);
    fputs("set style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid 0.9 border -1\nset grid ytics\n",
          out);
    key_setting(out, fig);
    fprintf(out, "plot for [i=2:%zu] $BARS using i:xtic(1) title columnheader(i) "
                 "lc rgb word(colors, (i - 2) %% %d + 1)",
            fig->n_series + 1, PLOT_MAX_SERIES);
    hline_plots(out, fig);
    fputc('\n', out);
}

/* A grid's ranges and tics: a column and a row per cell, named by the
 * figure's columns (x) and rows (y, the first at the top). */
static void grid_axes(FILE *out, const plot_figure *fig)
{
    fprintf(out, "set xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\n", fig->n_columns - 1,
            fig->n_rows - 1);
    const char *axes[2] = {"x", "y"};
    char **words[2] = {fig->columns, fig->rows};
    size_t counts[2] = {fig->n_columns, fig->n_rows};
    for (int a = 0; a < 2; a++) {
        fprintf(out, "set %stics (", axes[a]);
        for (size_t k = 0; k < counts[a]; k++) {
            fputs(k ? ", " : "", out);
            put_quoted(out, words[a][k]);
            fprintf(out, " %zu", k);
        }
        fputs(") scale 0\n", out);
    }
}

/* The cells, each with its value, its text and the colour of that text
 * (black or white, whichever reads better on the cell's colour). */
static void heatmap_script(FILE *out, const plot_figure *fig)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < fig->n_rows * fig->n_columns; k++)
        if (isfinite(fig->cells[k])) {
            lo = fmin(lo, fig->cells[k]);
            hi = fmax(hi, fig->cells[k]);
        }
    fputs("$CELLS << EOD\n", out);
    for (size_t r = 0; r < fig->n_rows; r++)
        for (size_t c = 0; c < fig->n_columns; c++) {
            double v = fig->cells[r * fig->n_columns + c];
            char text[32];
            plot_format(v, PLOT_UNIT_NUMBER, text, sizeof text);
            if (isfinite(v))
                fprintf(out, "%zu %zu %.17g \"%s\" %u\n", c, r, v, text,
                        plot_label_colour(plot_heat_colour(hi > lo ? (v - lo) / (hi - lo) : 1)));
        }
    fputs("EOD\n", out);
    grid_axes(out, fig);
    fputs("set palette defined (0 \"#440154\", 1 \"#472c7a\", 2 \"#3b518b\", 3 \"#2c718e\", "
          "4 \"#21908d\", 5 \"#27ad81\", 6 \"#5cc863\", 7 \"#aadc32\", 8 \"#fde725\")\n",
          out);
    fputs("set cblabel ", out);
    put_quoted(out, fig->value_label);
    fputs("\nunset key\nplot $CELLS using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder "
          "fc palette, \\\n     $CELLS using 1:2:4:5 with labels tc rgb variable\n",
          out);
}

/* A winner map: each cell a box in its winner's colour with its text in
 * black or white, a black line wherever the winner changes from a cell to
 * its neighbour (the crossovers); the key names the strategies that win a
 * cell, each by an empty plot of its colour. */
static void winners_script(FILE *out, const plot_figure *fig)
{
    int *shown = xcalloc(fig->n_series ? fig->n_series : 1, sizeof *shown);
    fputs("$CELLS << EOD\n", out);
    for (size_t r = 0; r < fig->n_rows; r++)
        for (size_t c = 0; c < fig->n_columns; c++) {
            size_t k = r * fig->n_columns + c, s = fig->winners[k];
            if (s >= fig->n_series || !fig->cell_texts[k])
                continue;
            unsigned rgb = (unsigned)strtoul(word_at(palette, s % PLOT_MAX_SERIES), NULL, 16);
            shown[s] = 1;
            fprintf(out, "%zu %zu ", c, r);
            put_data_word(out, fig->cell_texts[k]);
            fprintf(out, " %u %u\n", rgb, plot_label_colour(rgb));
        }
    fputs("EOD\n", out);
    grid_axes(out, fig);
    /* the crossover lines: where the winner changes from a cell to the next */
    for (size_t r = 0; r < fig->n_rows; r++)
        for (size_t c = 0; c < fig->n_columns; c++) {
            if (plot_crossover(fig, r, c, 0))
                fprintf(out, "set arrow from %zu.5, %zu.5 to %zu.5, %.1f nohead front lw 3 "
                             "lc rgb \"#000000\"\n", c, r, c, (double)r - 0.5);
            if (plot_crossover(fig, r, c, 1))
                fprintf(out, "set arrow from %.1f, %zu.5 to %zu.5, %zu.5 nohead front lw 3 "
                             "lc rgb \"#000000\"\n", (double)c - 0.5, r, c, r);
        }
    fputs("set key outside right top Left reverse\n"
          "plot $CELLS using 1:2:(0.5):(0.5):4 with boxxyerror fs solid 1.0 noborder "
          "lc rgb variable notitle, \\\n     $CELLS using 1:2:3:5 with labels tc rgb variable "
          "notitle",
          out);
    for (size_t s = 0; s < fig->n_series; s++) {
        if (!shown[s])
            continue;
        fprintf(out, ", \\\n     NaN with boxes fs solid 1.0 lc rgb word(colors, %zu) title ",
                s % PLOT_MAX_SERIES + 1);
        put_quoted(out, fig->series[s].label);
    }
    fputc('\n', out);
    free(shown);
}

/* A sweep at a single n: a horizontal bar per configuration, top down,
 * its value at its end; the peaks as vertical lines. */
static void hbars_script(FILE *out, const plot_figure *fig)
{
    double hi = 0;
    fputs("$HBARS << EOD\n", out);
    for (size_t k = 0; k < fig->n_columns; k++) {
        double v = fig->series[0].y[k];
        char value[32], text[96];
        plot_format(v, fig->y_unit, value, sizeof value);
        snprintf(text, sizeof text, "%s%s%s", value, fig->value_label ? " " : "",
                 fig->value_label ? fig->value_label : "");
        fprintf(out, "%zu %.17g ", k, v);
        put_data_word(out, text);
        fputc(' ', out);
        put_data_word(out, fig->columns[k]);
        fputc('\n', out);
        hi = fmax(hi, v);
    }
    fputs("EOD\n", out);
    for (size_t h = 0; h < fig->n_hlines; h++) {
        hi = fmax(hi, fig->hlines[h].y);
        fprintf(out, "set arrow from %.17g, graph 0 to %.17g, graph 1 nohead dt 2 lw 1.5 "
                     "lc rgb \"#444444\"\nset label ",
                fig->hlines[h].y, fig->hlines[h].y);
        put_quoted(out, fig->hlines[h].label);
        fprintf(out, " at %.17g, graph %.3f right offset -0.5, 0\n", fig->hlines[h].y,
                1.02 + 0.04 * (double)h);
    }
    plot_ticks t;
    plot_axis_linear(0, fmax(hi, 1e-9) * 1.05, fig->y_unit, &t);
    put_tics(out, "x", &t, 0);
    fprintf(out, "set rmargin 14\nset yrange [%zu.5:-0.5]\nset ytics scale 0\nset grid xtics\nunset key\n"
                 "plot $HBARS using ($2/2):1:($2/2):(0.4):ytic(4) with boxxyerror "
                 "fs solid 0.9 noborder lc rgb word(colors, 1), \\\n"
                 "     $HBARS using 2:1:(\" \" . strcol(3)) with labels left\n",
            fig->n_columns ? fig->n_columns - 1 : 0);
}

static void figure_size(const plot_figure *fig, int *width, int *height)
{
    *width = 960;
    *height = 540;
    if (key_below(fig))
        *height += 20 * (int)((fig->n_series + fig->n_hlines + 1) / 2);
    if (fig->kind == PLOT_HBARS)
        *height = 160 + 28 * (int)fig->n_columns;
    if (fig->kind == PLOT_HEATMAP || fig->kind == PLOT_WINNERS) {
        *width = 200 + 72 * (int)fig->n_columns;
        *height = 170 + 34 * (int)fig->n_rows;
        if (fig->kind == PLOT_WINNERS) { /* the key beside the cells */
            size_t chars = 0;
            for (size_t s = 0; s < fig->n_series; s++)
                chars = strlen(fig->series[s].label) > chars ? strlen(fig->series[s].label)
                                                             : chars;
            *width += 60 + 7 * (int)(chars < 60 ? chars : 60);
            *height += 20 * (int)fig->n_series / 2;
            /* room for the title and subtitle over the cells (gnuplot
             * centres them there), which are not cut */
            size_t title = strlen(fig->title) > strlen(fig->subtitle ? fig->subtitle : "")
                               ? strlen(fig->title)
                               : strlen(fig->subtitle);
            int wide = 160 + 7 * (int)(chars < 60 ? chars : 60) + 8 * (int)(title < 160 ? title : 160);
            *width = *width < wide ? wide : *width;
        }
        *width = *width < 640 ? 640 : *width;
        *height = *height < 360 ? 360 : *height;
    }
}

/* Runs `gnuplot -e SETUP -`, its standard input `input` (-1: nothing),
 * its standard output `output` (-1: nothing); `quiet` silences its
 * messages. Returns its process id, or -1 if it could not be started.
 * posix_spawn, not fork: the tables of a large results file's pages are
 * not copied for each figure. */
static pid_t start_gnuplot(const char *gnuplot, const char *setup, int input, int output,
                           int quiet)
{
    fflush(NULL);
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0)
        return -1;
    int ok = (input >= 0 ? posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
                         : posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                                            O_RDONLY, 0)) == 0 &&
             (output >= 0 ? posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
                          : posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null",
                                                             O_WRONLY, 0)) == 0 &&
             (!quiet || posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                                         O_WRONLY, 0) == 0);
    char *argv[] = {(char *)gnuplot, "-e", (char *)setup, "-", NULL};
    pid_t pid = -1;
    if (ok && posix_spawn(&pid, gnuplot, &actions, NULL, argv, environ) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

/* The exit status of process `pid` (128 + the signal that ended it), or
 * -1 when it was not started. */
static int wait_gnuplot(pid_t pid)
{
    if (pid < 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The best PNG terminal this gnuplot has, or NULL. */
static const char *png_terminal(const char *gnuplot)
{
    static const char *const terminals[] = {"pngcairo", "png"};
    for (size_t k = 0; k < RB_ARRAY_LEN(terminals); k++) {
        char *probe = xasprintf("set terminal %s", terminals[k]);
        int status = wait_gnuplot(start_gnuplot(gnuplot, probe, -1, -1, 1));
        free(probe);
        if (status == 0)
            return terminals[k];
    }
    return NULL;
}

/* The figure's script, in memory (NULL when out of memory). */
static char *figure_script(const plot_figure *fig, const char *source, size_t *len)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out)
        return NULL;
    int width, height;
    figure_size(fig, &width, &height);
    header(out, fig, source, width, height);
    if (fig->kind == PLOT_LINES)
        lines_script(out, fig);
    else if (fig->kind == PLOT_BARS)
        bars_script(out, fig);
    else if (fig->kind == PLOT_HBARS)
        hbars_script(out, fig);
    else if (fig->kind == PLOT_WINNERS)
        winners_script(out, fig);
    else
        heatmap_script(out, fig);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    *len = size;
    return text;
}

/* The figure's files are new files of the folder, renamed over the old
 * ones once whole; a link there is replaced, never followed. */
#define FIGURE_FILE (RB_SAFE_FILE_REGULAR | RB_SAFE_FILE_NO_FOLLOW)

/* Writes DIR/NAME.gp. */
static int write_script(const char *path, const char *text, size_t len)
{
    rb_safe_file f;
    int failed = safe_file_open(&f, path, FIGURE_FILE) != 0;
    if (!failed) {
        if (fwrite(text, 1, len, f.stream) != len)
            failed = safe_file_fail(&f, "a write failed") != 0;
        else
            failed = safe_file_commit(&f) != 0;
    }
    if (failed) {
        char *why = printable_text(f.error);
        diag_error("%s", why);
        free(why);
    }
    return failed ? -1 : 0;
}

/* The script as a file of no folder, for gnuplot's standard input: what
 * gnuplot reads is what was written, whoever else can write in the
 * folder. -1 when it cannot be made. */
static int script_input(const char *text, size_t len)
{
    int fd = memfd_create("redbench-plot", MFD_CLOEXEC);
    if (fd < 0) {
        FILE *t = tmpfile(); /* removed already; gone when closed */
        fd = t ? fcntl(fileno(t), F_DUPFD_CLOEXEC, 0) : -1;
        if (t)
            fclose(t);
    }
    if (fd >= 0 && write_full(fd, text, len) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* gnuplot draws the figure (its script on `script`) to its standard
 * output, a pipe, which is copied into a new file renamed over `path`
 * once gnuplot has ended well and every write has succeeded: a failure
 * (gnuplot's, a full disk) leaves the file that was there whole. */
static int draw_file(const char *gnuplot, const char *setup, int script, const char *path,
                     const char *script_path)
{
    rb_safe_file f;
    int fds[2];
    if (safe_file_open(&f, path, FIGURE_FILE) != 0) {
        char *why = printable_text(f.error);
        diag_error("%s", why);
        free(why);
        return -1;
    }
    if (pipe2(fds, O_CLOEXEC) != 0 || lseek(script, 0, SEEK_SET) != 0) {
        safe_file_fail(&f, strerror(errno));
        char *why = printable_text(f.error);
        diag_error("%s", why);
        free(why);
        return -1;
    }
    pid_t pid = start_gnuplot(gnuplot, setup, script, fds[1], 0);
    close(fds[1]);
    char buf[1 << 16];
    size_t total = 0;
    int write_failed = 0;
    for (;;) { /* read to the end, even once writing failed, so gnuplot ends */
        ssize_t got = pid < 0 ? 0 : read(fds[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (!write_failed && fwrite(buf, 1, (size_t)got, f.stream) != (size_t)got)
            write_failed = 1;
        total += (size_t)got;
    }
    close(fds[0]);
    int status = wait_gnuplot(pid);
    char *shown = printable_text(path), *shown_script = printable_text(script_path);
    int failed = 1;
    if (write_failed) {
        safe_file_fail(&f, "a write failed");
        char *why = printable_text(f.error);
        diag_error("%s", why);
        free(why);
    } else if (status != 0) {
        safe_file_abort(&f);
        diag_error("gnuplot (%s) failed on %s drawing %s (exit status %d); %s is as it was",
                   gnuplot, shown_script, shown, status, shown);
    } else if (total == 0) {
        safe_file_abort(&f);
        diag_error("gnuplot (%s) drew nothing from %s for %s; %s is as it was", gnuplot,
                   shown_script, shown, shown);
    } else if (safe_file_commit(&f) != 0) {
        char *why = printable_text(f.error);
        diag_error("%s", why);
        free(why);
    } else {
        failed = 0;
    }
    free(shown);
    free(shown_script);
    return failed ? -1 : 0;
}

int plot_gnuplot_draw(const plot_set *set, const char *gnuplot, const char *dir,
                      const char *source, FILE *log)
{
    const char *png = png_terminal(gnuplot);
    int status = 0;
    for (size_t k = 0; k < set->n_figures && status == 0; k++) {
        const plot_figure *fig = &set->figures[k];
        size_t len = 0;
        char *text = figure_script(fig, source, &len);
        char *script_path = xasprintf("%s/%s.gp", dir, fig->name);
        int script = -1;
        if (!text) {
            diag_error("cannot write %s: out of memory", script_path);
            status = -1;
        } else if (write_script(script_path, text, len) != 0) {
            status = -1;
        } else if ((script = script_input(text, len)) < 0) {
            diag_error("cannot hand the script %s to gnuplot: %s", script_path, strerror(errno));
            status = -1;
        }
        int width, height;
        figure_size(fig, &width, &height);
        const char *kinds[2] = {"svg", png};
        for (int t = 0; t < 2 && kinds[t] && status == 0; t++) {
            char *setup = t == 0 ? xasprintf("set terminal svg size %d,%d font 'sans,12' "
                                             "background rgb 'white'",
                                             width, height)
                                 : xasprintf("set terminal %s size %d,%d", png, width, height);
            char *path = xasprintf("%s/%s.%s", dir, fig->name, t == 0 ? "svg" : "png");
            status = draw_file(gnuplot, setup, script, path, script_path);
            if (status == 0 && log) {
                char *shown = printable_text(path);
                fprintf(log, "%s\n", shown);
                free(shown);
            }
            free(path);
            free(setup);
        }
        if (script >= 0)
            close(script);
        free(script_path);
        free(text);
    }
    return status;
}
