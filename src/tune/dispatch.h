/* src/tune/dispatch.h: the crossover map as a table an application can
 * dispatch from: for each op, dtype, distribution and number of ranks (and,
 * for shaped reductions, each rows, axis and lengths), the ranges of n
 * (elements per rank, or per row) over which one strategy won, with its
 * time, the runner-up (the best other strategy), the margin and the
 * confidence. Read from a winner map (`redbench tune -m MAP.json`) or
 * worked out from a results file (the best ok row at each data set), and
 * written as a C header (`redbench dispatch`). Both inputs come from
 * anyone: every malformed member is an error naming the file and line,
 * and every text reaches the header as an escaped C string. */
#ifndef RB_TUNE_DISPATCH_H
#define RB_TUNE_DISPATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json_reader.h"
#include "results/read.h"

typedef struct rb_dispatch_entry {
    char *op, *dtype, *distribution;
    uint32_t ranks;
    uint64_t rows;                /* the shape's rows: 1 for one reduction */
    char *axis, *lengths;         /* "row" or "column"; "fixed" or "ragged" */
    uint64_t n_min, n_max;
    char *pack, *plugin, *params; /* params as "key=value ..." */
    double median_ns;             /* the winner's time at n_max */
    char *runner_up;              /* "pack/plugin params", "" when none */
    double margin;                /* runner-up time / winner time - 1; 0 when none */
    double confidence;            /* margin / the two times' combined noise; -1 unknown */
} rb_dispatch_entry;

typedef struct rb_dispatch {
    rb_dispatch_entry *entries;
    size_t count;
    char *source; /* the file it was made from */
    char *device; /* the device's name, "" when unknown */
    int shaped;   /* some entry has a shape (rows above 1, columns or
                     ragged rows): the header's entries and find() take
                     rows, axis and lengths; else the header is the one
                     of unshaped maps, as before shapes came */
} rb_dispatch;

/* From a parsed winner map; 0, or -1 after an error naming path:line (a
 * member missing or of the wrong type, a number no double holds). */
int dispatch_from_map(const char *path, const json_value *doc, rb_dispatch *out);
/* From a results file read back from `doc` (whose rows give the lines);
 * 0, or -1 after an error naming path and the row's line (a median, or a
 * margin or confidence worked out from two, beyond a double's range). */
int dispatch_from_results(const char *path, const json_value *doc, const rb_results_file *file,
                          rb_dispatch *out);
/* `prefix` names every symbol of the header (a C identifier); every
 * number is written as a finite C constant. 0, or -1 on a write error or
 * (after an error line, before anything is written) a number that is not
 * finite. */
int dispatch_write_header(FILE *out, const rb_dispatch *d, const char *prefix);
/* 1 when `prefix` is a C identifier of at most 64 characters. */
int dispatch_prefix_valid(const char *prefix);
void dispatch_free(rb_dispatch *d);

#endif
