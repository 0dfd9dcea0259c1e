/* src/run/shape.h: shaped configurations (rows > 1, axis = column, ragged
 * rows; redbench/plugin.h, "Shapes"). It owns the ragged rows' offsets,
 * drawn from the data set's seed, on the host and on the device; every
 * answer's reference; the buffers offered to verify for the answers (and
 * argmax's indices); every answer judged against its own reference, a
 * floating sum with the tolerance of its own length, naming the first
 * wrong row or column and its index; and the probes of a shape: inputs of
 * exact answers, zeros with distinct values planted at the first and the
 * last element of every row (or column), so that an element of the next
 * row counted, a last row, column or element skipped, a ragged length
 * ignored, rows swapped or an empty row that is not the identity each
 * change an answer. */
#ifndef RB_SHAPE_H
#define RB_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include <redbench/plugin.h>

#include "config/sweep.h"
#include "host/services.h"
#include "results/rows.h"
#include "run/devices.h"

typedef struct runner runner;

/* The shape of a data set (run/shape.c): what it was made for, the ragged
 * offsets on the host and the device, every answer's reference, and the
 * buffers offered to verify. */
typedef struct shape_state {
    int made;
    uint64_t rows, cols, seed;
    int axis, lengths, dtype, distribution, op;
    uint64_t n_answers;
    uint64_t *offsets;              /* ragged: rows + 1; else NULL */
    void *device_offsets;           /* their copy in the backend's memory */
    const open_backend *device_owner;
    double *want_f;                 /* floating answers' references */
    int64_t *want_i;                /* integer answers' references */
    double *abs_sum;                /* sums: sum |x| of each answer */
    uint64_t *want_index;           /* argmax: the first index of the maximum */
    void *answers;                  /* offered to verify */
    uint64_t *indices;
    uint64_t cap_answers;
    void *probe_data;               /* the probes' input on the host: zeros
                                       but for the last probe's plants */
} shape_state;

/* What a shape holds beside its input, in bytes: the references of its
 * answers and the buffers offered to verify (host memory, with the copies
 * the probes keep when `probes` is on), and the ragged rows' offsets
 * (rows + 1, on the host and in the backend's memory). */
typedef struct shape_bytes {
    uint64_t answers;
    uint64_t offsets;
} shape_bytes;
void shape_bytes_of(const rb_configuration *cfg, int probes, shape_bytes *out);

/* "8.0 GiB of input, 48.0 GiB for the references and answers of
 * 2147483648 rows, 16.0 GiB of row offsets", for a message: the parts
 * that are not 0. */
void shape_bytes_text(const rb_configuration *cfg, uint64_t input, uint64_t answers,
                      uint64_t offsets, char *buf, size_t len);

/* Whether the shape of `cfg` over the current input is made already. */
int shape_made_for(const runner *r, const rb_configuration *cfg);

/* Makes the shape of `cfg` current after its input is made: the offsets
 * (ragged), their copy on the device, the reference of every answer.
 * Returns 0, or -1 with the row's reason set. */
int shape_prepare(runner *r, const rb_configuration *cfg, open_backend *ob, rb_row *row);

/* The shape's fields of the rb_config handed to the plugin. */
void shape_fill_config(const runner *r, const rb_configuration *cfg, rb_config *c);

/* Before verify: the buffers for the answers (and indices). */
void shape_offer(runner *r, const rb_configuration *cfg, rb_result *res);

/* After verify: judges every answer against the current reference. The
 * row's error, tolerance, texts and status are set (ok, with the error
 * and tolerance of the answer of the largest error / tolerance, so that
 * the error is 0 only when every answer is exact; or wrong, with the
 * first wrong answer's, naming it); res->i becomes a digest of the answers' bits,
 * which the determinism check compares. Returns RB_OK, or RB_ERROR with
 * the row failed (verify handed the wrong number of answers). */
int shape_judge(runner *r, const rb_configuration *cfg, rb_result *res, rb_row *row);

/* The probes of a shape, in place of run/probe.h's (judge.c calls it,
 * with the input backed up before and put back after). */
void shape_run_probes(runner *r, const rb_configuration *cfg, const rb_plugin *p, void **state,
                      int *inited, open_backend *ob, rb_host_state *host, const rb_config *c,
                      rb_row *row);

/* The elements of the current shape's longest answer: a column's rows,
 * the longest row's (ragged: from the offsets made), else n. */
uint64_t shape_longest_answer(const shape_state *s);

/* Frees the shape's buffers (at the end of a data set). */
void shape_drop(runner *r);

#endif
