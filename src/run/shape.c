/* src/run/shape.c: shaped configurations (run/shape.h): ragged offsets,
 * every answer's reference, the answers judged one by one, and the probes
 * of a shape.
 *
 * Ragged lengths: each row draws a weight, log-uniform from 1/8 to 8 (so
 * lengths run from about n/8 to 8n), and one row in 16 weighs nothing (an
 * empty row; with 4 rows or more at least one is empty); row r then ends
 * at rows x n x (the weights up to r) / (all the weights), so that the
 * rows hold rows x n elements in all, as a fixed shape does, and the
 * memory, the bytes and the reports count the same.
 *
 * Memory: what a shape holds beside its input (shape_bytes_of), which
 * run/dataset.c counts with the input before anything is allocated.
 *
 * References: sums in long double with Neumaier's compensation, each
 * answer's sum |x| for its tolerance (run/reference.h: the tolerance of
 * its own length); min, max and argmax exact, argmax's index the first of
 * the maximum. Empty rows: the identity (redbench/plugin.h). */
#include "run/shape.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <redbench/half.h>

#include "base/hash.h"
#include "base/names.h"
#include "base/parallel.h"
#include "base/random.h"
#include "base/util.h"
#include "procs/isolate.h"
#include "run/plugin_gate.h"
#include "run/reference.h"
#include "run/runner_state.h"

/* ---- the shape ---------------------------------------------------------- */

/* Where row r starts and how long it is. */
static uint64_t row_start(const shape_state *s, uint64_t r)
{
    return s->offsets ? s->offsets[r] : r * s->cols;
}

static uint64_t row_length(const shape_state *s, uint64_t r)
{
    return s->offsets ? s->offsets[r + 1] - s->offsets[r] : s->cols;
}

/* The length of answer k: its row's, or a column's (rows elements). */
static uint64_t answer_length(const shape_state *s, uint64_t k)
{
    return s->axis == RB_AXIS_COLUMN ? s->rows : row_length(s, k);
}

uint64_t shape_longest_answer(const shape_state *s)
{
    if (s->axis == RB_AXIS_COLUMN || !s->offsets)
        return answer_length(s, 0);
    uint64_t longest = 0;
    for (uint64_t r = 0; r < s->rows; r++)
        if (row_length(s, r) > longest)
            longest = row_length(s, r);
    return longest;
}

/* The place in the input of element j of answer k. */
static uint64_t element_of(const shape_state *s, uint64_t k, uint64_t j)
{
    return s->axis == RB_AXIS_COLUMN ? j * s->cols + k : row_start(s, k) + j;
}

/* The ragged rows' offsets (see the top of the file). */
static uint64_t *ragged_offsets(uint64_t rows, uint64_t cols, uint64_t seed)
{
    uint64_t *weights = malloc((rows + 1) * sizeof *weights);
    if (!weights)
        return NULL;
    uint64_t state = seed ^ 0x5ba9ed0ff5e75ull, total_weight = 0;
    uint64_t forced_empty = rows >= 4 ? rb_splitmix64(&state) % rows : rows;
    for (uint64_t r = 0; r < rows; r++) {
        uint64_t x = rb_splitmix64(&state);
        /* 2^(-3 .. 3) in 1/256 steps, as a whole number times 2^10 */
        double w = exp2(-3.0 + 6.0 * (double)(x >> 11) / 9007199254740992.0);
        weights[r] = r == forced_empty || (x & 15) == 0 ? 0 : (uint64_t)(w * 1024.0);
        total_weight += weights[r];
    }
    if (total_weight == 0) { /* every row empty: the last holds them all */
        weights[rows - 1] = 1;
        total_weight = 1;
    }
    unsigned __int128 elements = (unsigned __int128)rows * cols, so_far = 0;
    uint64_t *offsets = weights; /* in place: offsets[r] needs weights up to r - 1 */
    uint64_t previous = 0;
    for (uint64_t r = 0; r < rows; r++) {
        uint64_t w = weights[r];
        offsets[r] = previous;
        so_far += w;
        previous = (uint64_t)(elements * so_far / total_weight);
    }
    offsets[rows] = (uint64_t)elements;
    return offsets;
}

void shape_drop(runner *r)
{
    shape_state *s = &r->shape;
    if (s->device_offsets && s->device_owner && s->device_offsets != s->offsets) {
        const rb_backend *b = s->device_owner->loaded->desc;
        b->release(s->device_owner->ctx, s->device_offsets);
    }
    free(s->offsets);
    free(s->want_f);
    free(s->want_i);
    free(s->abs_sum);
    free(s->want_index);
    free(s->answers);
    free(s->indices);
    free(s->probe_data);
    memset(s, 0, sizeof *s);
}

/* ---- references --------------------------------------------------------- */

/* The identity of an op for an empty answer, as a floating or integer value. */
static double identity_f(int op)
{
    return op == RB_OP_SUM ? 0.0 : op == RB_OP_MIN ? INFINITY : -INFINITY;
}

static int64_t identity_i(int op, int dtype)
{
    int wide = dtype == RB_DTYPE_I64;
    if (op == RB_OP_SUM)
        return 0;
    if (op == RB_OP_MIN)
        return wide ? INT64_MAX : INT32_MAX;
    return wide ? INT64_MIN : INT32_MIN;
}

typedef struct reference_job {
    shape_state *s;
    const rb_input *in;
    uint64_t per_chunk; /* answers per chunk */
} reference_job;

/* The references of answers [first, first + count). */
static void reference_answers(const shape_state *s, const rb_input *in, uint64_t first,
                              uint64_t count)
{
    int fl = reference_is_float(in->dtype);
    for (uint64_t k = first; k < first + count; k++) {
        uint64_t len = answer_length(s, k);
        long double sum = 0, comp = 0, abs_sum = 0, best_f = identity_f(s->op);
        uint64_t isum = 0, best_at = 0;
        int64_t best_i = identity_i(s->op, in->dtype);
        for (uint64_t j = 0; j < len; j++) {
            uint64_t e = element_of(s, k, j);
            if (fl) {
                long double x = reference_element_float(in, e);
                if (s->op == RB_OP_SUM) {
                    long double t = sum + x;
                    comp += fabsl(sum) >= fabsl(x) ? (sum - t) + x : (x - t) + sum;
                    sum = t;
                    abs_sum += fabsl(x);
                } else if (j == 0 || (s->op == RB_OP_MIN ? x < best_f : x > best_f)) {
                    best_f = x;
                    best_at = j;
                }
            } else {
                int64_t x = reference_element_int(in, e);
                if (s->op == RB_OP_SUM)
                    isum += (uint64_t)x;
                else if (j == 0 || (s->op == RB_OP_MIN ? x < best_i : x > best_i)) {
                    best_i = x;
                    best_at = j;
                }
            }
        }
        if (s->op == RB_OP_SUM) {
            if (fl)
                s->want_f[k] = (double)(sum + comp);
            else
                s->want_i[k] = reference_wrap(isum, in->dtype);
            s->abs_sum[k] = (double)abs_sum;
        } else {
            if (fl)
                s->want_f[k] = (double)best_f;
            else
                s->want_i[k] = best_i;
            if (s->want_index)
                s->want_index[k] = best_at;
        }
    }
}

static void reference_chunk(void *ctx, uint64_t c)
{
    reference_job *job = ctx;
    uint64_t first = c * job->per_chunk;
    uint64_t count = job->s->n_answers - first < job->per_chunk ? job->s->n_answers - first
                                                                 : job->per_chunk;
    reference_answers(job->s, job->in, first, count);
}

/* Every answer's reference over `in`, in chunks of about 1M elements. */
static void reference_all(shape_state *s, const rb_input *in)
{
    uint64_t per_answer = s->axis == RB_AXIS_COLUMN ? s->rows : s->cols;
    uint64_t per_chunk = (UINT64_C(1) << 20) / (per_answer ? per_answer : 1);
    if (per_chunk < 1)
        per_chunk = 1;
    reference_job job = {s, in, per_chunk};
    parallel_chunks((s->n_answers + per_chunk - 1) / per_chunk, reference_chunk, &job);
}

void shape_bytes_of(const rb_configuration *cfg, int probes, shape_bytes *out)
{
    /* as allocate_answers and shape_run_probes allocate them */
    uint64_t per_answer = 8 + 8; /* the reference, the answer handed */
    uint64_t kept = 8;           /* the probes' copy of the reference */
    if (cfg->op == RB_OP_SUM) {
        per_answer += 8; /* sum |x| */
        kept += 8;
    } else if (cfg->op == RB_OP_ARGMAX) {
        per_answer += 8 + 8; /* the index wanted, the index handed */
        kept += 8;
    }
    if (probes)
        per_answer += kept;
    out->answers = per_answer * sweep_answers(cfg);
    out->offsets = cfg->lengths == RB_LENGTHS_RAGGED ? (cfg->rows + 1) * sizeof(uint64_t) : 0;
}

static double gib(uint64_t bytes)
{
    return (double)bytes / 1073741824.0;
}

void shape_bytes_text(const rb_configuration *cfg, uint64_t input, uint64_t answers,
                      uint64_t offsets, char *buf, size_t len)
{
    strbuf sb = {0};
    if (input)
        sb_printf(&sb, "%.1f GiB of input", gib(input));
    if (answers)
        sb_printf(&sb, "%s%.1f GiB for the references and answers of %" PRIu64 " %s",
                  sb.len ? ", " : "", gib(answers), sweep_answers(cfg),
                  cfg->axis == RB_AXIS_COLUMN ? "columns" : "rows");
    if (offsets)
        sb_printf(&sb, "%s%.1f GiB of row offsets", sb.len ? ", " : "", gib(offsets));
    snprintf(buf, len, "%s", sb.data ? sb.data : "");
    sb_free(&sb);
}

/* The buffers of the references and the answers, for n_answers. */
static int allocate_answers(shape_state *s)
{
    uint64_t n = s->n_answers;
    int fl = reference_is_float(s->dtype);
    s->want_f = fl ? malloc(n * sizeof *s->want_f) : NULL;
    s->want_i = fl ? NULL : malloc(n * sizeof *s->want_i);
    s->abs_sum = s->op == RB_OP_SUM ? malloc(n * sizeof *s->abs_sum) : NULL;
    s->want_index = s->op == RB_OP_ARGMAX ? malloc(n * sizeof *s->want_index) : NULL;
    s->answers = malloc(n * 8);
    s->indices = s->op == RB_OP_ARGMAX ? malloc(n * sizeof *s->indices) : NULL;
    s->cap_answers = n;
    return (fl ? s->want_f != NULL : s->want_i != NULL) &&
           (s->op != RB_OP_SUM || s->abs_sum) && s->answers &&
           (s->op != RB_OP_ARGMAX || (s->want_index && s->indices));
}

int shape_made_for(const runner *r, const rb_configuration *cfg)
{
    const shape_state *s = &r->shape;
    return s->made && s->rows == cfg->rows && s->cols == cfg->n && s->axis == cfg->axis &&
           s->lengths == cfg->lengths && s->dtype == cfg->dtype && s->op == cfg->op &&
           s->distribution == cfg->distribution && s->seed == r->data.input.seed;
}

int shape_prepare(runner *r, const rb_configuration *cfg, open_backend *ob, rb_row *row)
{
    shape_state *s = &r->shape;
    const rb_backend *b = ob->loaded->desc;
    if (!shape_made_for(r, cfg)) {
        shape_drop(r);
        s->rows = cfg->rows;
        s->cols = cfg->n;
        s->axis = cfg->axis;
        s->lengths = cfg->lengths;
        s->dtype = cfg->dtype;
        s->op = cfg->op;
        s->distribution = cfg->distribution;
        s->seed = r->data.input.seed;
        s->n_answers = sweep_answers(cfg);
        if (cfg->lengths == RB_LENGTHS_RAGGED &&
            !(s->offsets = ragged_offsets(cfg->rows, cfg->n, r->data.input.seed))) {
            shape_drop(r);
            row_set_status(row, RB_ROW_UNSUPPORTED, "no host memory for %" PRIu64
                              " rows' offsets", cfg->rows);
            return -1;
        }
        if (!allocate_answers(s)) {
            shape_bytes need;
            shape_bytes_of(cfg, r->exp->probes, &need);
            shape_drop(r);
            row_set_status(row, RB_ROW_UNSUPPORTED, "no host memory for the references of "
                              "%" PRIu64 " answers (%.1f GiB)", sweep_answers(cfg),
                              gib(need.answers));
            return -1;
        }
        reference_all(s, &r->data.input);
        s->made = 1;
    }
    if (!s->offsets || (s->device_offsets && s->device_owner == ob))
        return 0;
    if (s->device_offsets && s->device_owner && s->device_offsets != s->offsets)
        s->device_owner->loaded->desc->release(s->device_owner->ctx, s->device_offsets);
    s->device_offsets = NULL;
    s->device_owner = ob;
    size_t bytes = (size_t)(s->rows + 1) * sizeof *s->offsets;
    if (b->memory_kind == RB_MEMORY_HOST) {
        s->device_offsets = s->offsets;
        return 0;
    }
    void *ptr = NULL;
    if (b->alloc(ob->ctx, bytes, &ptr) != RB_OK) {
        row_set_status(row, RB_ROW_UNSUPPORTED, "cannot allocate the %" PRIu64 " rows' "
                          "offsets on the %s device", s->rows, b->name);
        s->device_owner = NULL;
        return -1;
    }
    if (b->upload(ob->ctx, ptr, s->offsets, bytes) != RB_OK) {
        b->release(ob->ctx, ptr);
        s->device_owner = NULL;
        row_set_status(row, RB_ROW_FAILED, "uploading the rows' offsets to the %s device "
                          "failed", b->name);
        return -1;
    }
    s->device_offsets = ptr;
    return 0;
}

void shape_fill_config(const runner *r, const rb_configuration *cfg, rb_config *c)
{
    const shape_state *s = &r->shape;
    c->rows = cfg->rows ? cfg->rows : 1;
    c->cols = cfg->n;
    c->axis = (uint32_t)cfg->axis;
    c->ragged = cfg->lengths == RB_LENGTHS_RAGGED;
    c->n_answers = sweep_answers(cfg);
    c->n = sweep_elements(cfg);
    if (c->ragged && s->made) {
        c->offsets = s->device_offsets;
        c->host_offsets = s->offsets;
    }
}

void shape_offer(runner *r, const rb_configuration *cfg, rb_result *res)
{
    shape_state *s = &r->shape;
    if (!sweep_is_shaped(cfg) || !s->made)
        return;
    /* poisoned, so that an answer verify leaves out shows */
    memset(s->answers, 0xa5, s->n_answers * 8);
    res->elements = s->answers;
    res->n_elements = 0;
    if (s->indices) {
        memset(s->indices, 0xa5, s->n_answers * sizeof *s->indices);
        res->indices = s->indices;
    }
}

/* ---- judging ------------------------------------------------------------ */

/* Answer k as handed: halves' answers are f32. */
static double answer_f(const shape_state *s, const void *answers, uint64_t k)
{
    return s->dtype == RB_DTYPE_F64 ? ((const double *)answers)[k]
                                    : ((const float *)answers)[k];
}

static int64_t answer_i(const shape_state *s, const void *answers, uint64_t k)
{
    return s->dtype == RB_DTYPE_I64 ? ((const int64_t *)answers)[k]
                                    : ((const int32_t *)answers)[k];
}

static size_t answer_size(int dtype)
{
    return dtype == RB_DTYPE_F64 || dtype == RB_DTYPE_I64 ? 8 : 4;
}

/* "row 17 of 64 (n = 1000)", "column 3 of 8 (64 rows)", "row 5 of 40
 * (length 312, elements 5000 to 5311)". */
static void name_answer(const shape_state *s, uint64_t k, char *buf, size_t len)
{
    if (s->axis == RB_AXIS_COLUMN)
        snprintf(buf, len, "column %" PRIu64 " of %" PRIu64 " (%" PRIu64 " rows)", k,
                 s->n_answers, s->rows);
    else if (s->offsets)
        snprintf(buf, len, "row %" PRIu64 " of %" PRIu64 " (length %" PRIu64 "%s", k,
                 s->rows, row_length(s, k), row_length(s, k) ? ", elements " : ", empty)");
    else
        snprintf(buf, len, "row %" PRIu64 " of %" PRIu64 " (n = %" PRIu64 ")", k, s->rows,
                 s->cols);
    if (s->offsets && s->axis != RB_AXIS_COLUMN && row_length(s, k)) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%" PRIu64 " to %" PRIu64 ")", row_start(s, k),
                 row_start(s, k) + row_length(s, k) - 1);
    }
}

/* One answer's verdict: ok, the error and tolerance, the texts. */
typedef struct answer_verdict {
    int ok;
    double error, tolerance;
    char got[64], want[64], why[160];
} answer_verdict;

static void format_answer(const shape_state *s, char *buf, size_t len, int64_t i, double f,
                          int with_index, uint64_t index)
{
    reference_format_value(buf, len, s->dtype, i, f);
    if (with_index) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, " at %" PRIu64, index);
    }
}

static void judge_answer(const shape_state *s, const rb_input *in, const void *answers,
                         const uint64_t *indices, uint64_t k, answer_verdict *v)
{
    memset(v, 0, sizeof v[0]);
    int fl = reference_is_float(s->dtype), argmax = s->op == RB_OP_ARGMAX;
    uint64_t len = answer_length(s, k);
    int64_t got_i = fl ? 0 : answer_i(s, answers, k), want_i = fl ? 0 : s->want_i[k];
    double got_f = fl ? answer_f(s, answers, k) : 0, want_f = fl ? s->want_f[k] : 0;
    uint64_t got_at = argmax ? indices[k] : 0, want_at = argmax ? s->want_index[k] : 0;
    format_answer(s, v->got, sizeof v->got, got_i, got_f, argmax, got_at);
    format_answer(s, v->want, sizeof v->want, want_i, want_f, argmax, want_at);
    if (s->op == RB_OP_SUM && fl) {
        if (!isfinite(got_f)) {
            v->error = INFINITY;
            snprintf(v->why, sizeof v->why, "the sum is %s", isnan(got_f) ? "nan" : "infinite");
            return;
        }
        v->tolerance = len ? reference_tolerance(s->dtype, len, s->abs_sum[k]) : 0;
        v->error = fabs(got_f - want_f);
        v->ok = v->error <= v->tolerance;
        if (!v->ok)
            snprintf(v->why, sizeof v->why, "off by %.3g, more than its tolerance %.3g",
                     v->error, v->tolerance);
        return;
    }
    if (s->op == RB_OP_SUM)
        got_i = reference_wrap((uint64_t)got_i, s->dtype);
    int same = fl ? (got_f == want_f || (isnan(got_f) && isnan(want_f))) : got_i == want_i;
    v->error = fl ? (isnan(got_f) ? INFINITY : fabs(got_f - want_f))
                  : fabs((double)got_i - (double)want_i);
    if (!same) {
        snprintf(v->why, sizeof v->why, "%s", len ? "not the exact answer"
                 : "an empty row's answer is the identity");
        return;
    }
    if (argmax && len == 0 && got_at != 0) {
        snprintf(v->why, sizeof v->why, "an empty row's argmax index is 0");
        return;
    }
    if (argmax && len > 0) {
        if (got_at >= len) {
            snprintf(v->why, sizeof v->why, "index %" PRIu64 " is outside it (%" PRIu64
                     " elements)", got_at, len);
            return;
        }
        uint64_t e = element_of(s, k, got_at);
        int holds = fl ? (double)reference_element_float(in, e) == want_f : reference_element_int(in, e) == want_i;
        if (!holds) {
            snprintf(v->why, sizeof v->why, "element %" PRIu64 " is not the maximum (first at "
                     "%" PRIu64 ")", got_at, want_at);
            return;
        }
    }
    v->ok = 1;
}

/* The answer of the largest error ratio among those judged right (the
 * first of them on a tie): its error, its tolerance and that ratio. */
typedef struct worst_answer {
    double error, tolerance, ratio;
} worst_answer;

/* Judges every answer over `in`. Returns the number wrong; *first the
 * first wrong one's verdict and place, *worst the right answer farthest
 * from its reference in units of its tolerance. */
static uint64_t judge_all(const shape_state *s, const rb_input *in, const rb_result *res,
                          uint64_t *first, answer_verdict *first_v, worst_answer *worst)
{
    uint64_t wrong = 0;
    worst->error = worst->tolerance = 0;
    worst->ratio = -1;
    *first = s->n_answers;
    for (uint64_t k = 0; k < s->n_answers; k++) {
        answer_verdict v;
        judge_answer(s, in, res->elements, res->indices, k, &v);
        if (v.ok) {
            /* a right answer of tolerance 0 is exact: ratio 0 */
            double ratio = v.tolerance > 0 ? v.error / v.tolerance : 0;
            if (ratio > worst->ratio) {
                worst->error = v.error;
                worst->tolerance = v.tolerance;
                worst->ratio = ratio;
            }
            continue;
        }
        if (wrong++ == 0) {
            *first = k;
            *first_v = v;
        }
    }
    return wrong;
}

/* Whether verify handed every answer. Returns 1, or 0 with why. */
static int handed_all(const shape_state *s, const rb_result *res, char *why, size_t len)
{
    if (res->elements != s->answers || res->n_elements != s->n_answers) {
        snprintf(why, len, "verify handed %" PRIu64 " answers, not the %" PRIu64 " of the shape "
                 "(%s; rb_result.elements, n_elements)", res->elements ? res->n_elements : 0,
                 s->n_answers, s->axis == RB_AXIS_COLUMN ? "one per column" : "one per row");
        return 0;
    }
    if (s->op == RB_OP_ARGMAX && res->indices != s->indices) {
        snprintf(why, len, "verify moved argmax's indices from the host's buffer "
                 "(rb_result.indices)");
        return 0;
    }
    return 1;
}

/* The bits of the answers, as the one value the determinism check keeps. */
static void keep_digest(const shape_state *s, rb_result *res)
{
    uint64_t h = RB_FNV1A_BASIS;
    h = rb_fnv1a(h, res->elements, s->n_answers * answer_size(s->dtype));
    if (res->indices)
        h = rb_fnv1a(h, res->indices, s->n_answers * sizeof *res->indices);
    res->i = (int64_t)h;
    res->f = 0;
    res->index = 0;
    res->elements = NULL;
    res->n_elements = 0;
    res->indices = NULL;
}

int shape_judge(runner *r, const rb_configuration *cfg, rb_result *res, rb_row *row)
{
    (void)cfg;
    const shape_state *s = &r->shape;
    char why[300];
    if (!handed_all(s, res, why, sizeof why)) {
        row_set_status(row, RB_ROW_FAILED, "%s", why);
        return RB_ERROR;
    }
    uint64_t first;
    answer_verdict v;
    worst_answer worst;
    uint64_t wrong = judge_all(s, &r->data.input, res, &first, &v, &worst);
    keep_digest(s, res);
    if (!wrong) {
        /* the row's error is its worst answer's: 0 only when every answer
         * is its reference exactly */
        row->status = RB_ROW_OK;
        row->error = worst.error;
        row->tolerance = worst.tolerance;
        row->error_ratio = worst.ratio > 0 ? worst.ratio : 0;
        row->error_ratio_known = 1;
        snprintf(row->result_text, sizeof row->result_text, "%" PRIu64 " answers", s->n_answers);
        snprintf(row->expected_text, sizeof row->expected_text, "%" PRIu64 " answers",
                 s->n_answers);
        return RB_OK;
    }
    char place[120];
    name_answer(s, first, place, sizeof place);
    snprintf(row->result_text, sizeof row->result_text, "%s", v.got);
    snprintf(row->expected_text, sizeof row->expected_text, "%s", v.want);
    row->error = v.error;
    row->tolerance = v.tolerance;
    row->error_ratio_known = 0;
    row_set_status(row, RB_ROW_WRONG, "%s: %s %s, expected %s (%s); %" PRIu64 " of %" PRIu64
                      " answers wrong", place, op_name(s->op), v.got, v.want, v.why, wrong,
                      s->n_answers);
    return RB_OK;
}

/* ---- probes ------------------------------------------------------------- */

/* The probes' values: small whole numbers, exact in every dtype (bf16
 * holds every whole number to 256) and in every sum of two. */
static long double planted(uint64_t k, int probe, int last, int op)
{
    if (op == RB_OP_SUM)
        return 1 + (long double)((k * (last ? 11 : 5) + 3 * (uint64_t)probe + last) % 61);
    /* the extreme at the last element in probe 0, at the first in probe 1 */
    int at_extreme = (probe == 0) == last;
    long double v = at_extreme ? 100 + (long double)((k * 7 + 3 * (uint64_t)probe) % 97)
                               : 1 + (long double)((k * 5 + (uint64_t)probe) % 47);
    return op == RB_OP_MIN ? -v : v;
}

static void put(int dtype, void *data, uint64_t k, long double v)
{
    switch (dtype) {
    case RB_DTYPE_I32: ((int32_t *)data)[k] = (int32_t)v; break;
    case RB_DTYPE_I64: ((int64_t *)data)[k] = (int64_t)v; break;
    case RB_DTYPE_F32: ((float *)data)[k] = (float)v; break;
    case RB_DTYPE_F64: ((double *)data)[k] = (double)v; break;
    case RB_DTYPE_F16: ((uint16_t *)data)[k] = rb_f16_from_f32((float)v); break;
    case RB_DTYPE_BF16: ((uint16_t *)data)[k] = rb_bf16_from_f32((float)v); break;
    default: break;
    }
}

/* Probe `probe`'s plants, the first and last element of every answer,
 * into `data` of zeros (both probes plant at the same places, so writing
 * one over the other leaves zeros elsewhere). */
static void write_plants(const shape_state *s, int dtype, void *data, int probe)
{
    for (uint64_t k = 0; k < s->n_answers; k++) {
        uint64_t len = answer_length(s, k);
        if (len == 0)
            continue;
        put(dtype, data, element_of(s, k, 0), planted(k, probe, 0, s->op));
        if (len > 1)
            put(dtype, data, element_of(s, k, len - 1), planted(k, probe, 1, s->op));
    }
}

/* Every answer's reference on probe `probe`'s input, from its plants (the
 * same verdicts as reference_all over the input, in time of the answers):
 * a sum is its two plants', an extreme the first of the largest (or least)
 * of the first plant, the zeros between and the last plant. */
static void reference_probe(shape_state *s, int probe)
{
    int fl = reference_is_float(s->dtype);
    for (uint64_t k = 0; k < s->n_answers; k++) {
        uint64_t len = answer_length(s, k);
        long double first = len ? planted(k, probe, 0, s->op) : 0;
        long double last = len > 1 ? planted(k, probe, 1, s->op) : 0;
        if (s->op == RB_OP_SUM) {
            long double sum = first + last;
            if (fl)
                s->want_f[k] = (double)sum;
            else
                s->want_i[k] = reference_wrap((uint64_t)(int64_t)sum, s->dtype);
            s->abs_sum[k] = (double)(fabsl(first) + fabsl(last));
            continue;
        }
        int want_min = s->op == RB_OP_MIN;
        long double best = first;
        uint64_t best_at = 0;
        if (len > 2 && (want_min ? 0 < best : 0 > best)) {
            best = 0;
            best_at = 1;
        }
        if (len > 1 && (want_min ? last < best : last > best)) {
            best = last;
            best_at = len - 1;
        }
        if (fl)
            s->want_f[k] = len ? (double)best : identity_f(s->op);
        else
            s->want_i[k] = len ? (int64_t)best : identity_i(s->op, s->dtype);
        if (s->want_index)
            s->want_index[k] = best_at;
    }
}

/* One call on the probe's input: run, verify, every answer judged. Returns
 * 1 passed, 0 wrong (the row says so), -1 failed (the row says so). */
static int probe_call(runner *r, const rb_configuration *cfg, const rb_plugin *p, void *state,
                      open_backend *ob, rb_host_state *host, const rb_input *in, int probe,
                      int fresh, rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    host_clear_error(host);
    host_clear_error(&ob->host);
    if (gate_run(p, state) != RB_OK || b->synchronize(ob->ctx) != RB_OK) {
        row_set_status(row, RB_ROW_FAILED, "the run on probe %d failed: %s", probe + 1,
                          runner_failure_text(host, ob));
        return -1;
    }
    rb_result res;
    memset(&res, 0, sizeof res);
    res.size = sizeof res;
    shape_offer(r, cfg, &res);
    char why[300];
    if (gate_verify(p, state, &res) != RB_OK) {
        row_set_status(row, RB_ROW_FAILED, "verify on probe %d failed: %s", probe + 1,
                          gate_reason(host, "no reason given"));
        return -1;
    }
    if (!handed_all(&r->shape, &res, why, sizeof why)) {
        row_set_status(row, RB_ROW_FAILED, "probe %d: %s", probe + 1, why);
        return -1;
    }
    uint64_t first;
    answer_verdict v;
    worst_answer worst;
    if (judge_all(&r->shape, in, &res, &first, &v, &worst) == 0)
        return 1;
    char place[120];
    name_answer(&r->shape, first, place, sizeof place);
    row_set_status(row, RB_ROW_WRONG, "probe %d%s (zeros, each %s's first and last element "
                      "planted): %s: %s %s, expected %s (%s)", probe + 1,
                      fresh ? " (after a fresh init)" : "",
                      r->shape.axis == RB_AXIS_COLUMN ? "column" : "row", place, op_name(cfg->op),
                      v.got, v.want, v.why);
    return 0;
}

void shape_run_probes(runner *r, const rb_configuration *cfg, const rb_plugin *p, void **state,
                      int *inited, open_backend *ob, rb_host_state *host, const rb_config *c,
                      rb_row *row)
{
    shape_state *s = &r->shape;
    const rb_backend *b = ob->loaded->desc;
    if (!s->probe_data) /* zeros from the system, touched only where planted */
        s->probe_data = calloc(1, r->data.input.bytes ? r->data.input.bytes : 1);
    if (!s->probe_data) {
        row->probes = RB_PROBES_NOT_RUN;
        return;
    }
    rb_input probe_in = r->data.input;
    probe_in.data = s->probe_data;
    /* the probes' references replace the data's for their calls */
    size_t ref_bytes = s->n_answers * 8;
    void *keep_f = s->want_f ? xmalloc(ref_bytes) : NULL, *keep_i = s->want_i ? xmalloc(ref_bytes) : NULL;
    void *keep_abs = s->abs_sum ? xmalloc(ref_bytes) : NULL, *keep_at = s->want_index ? xmalloc(ref_bytes) : NULL;
    if (keep_f) memcpy(keep_f, s->want_f, ref_bytes);
    if (keep_i) memcpy(keep_i, s->want_i, ref_bytes);
    if (keep_abs) memcpy(keep_abs, s->abs_sum, ref_bytes);
    if (keep_at) memcpy(keep_at, s->want_index, ref_bytes);
    int passed = 1;
    for (int probe = 0; probe < 2 && passed == 1; probe++) {
        int fresh = probe == 1;
        write_plants(s, probe_in.dtype, probe_in.data, probe);
        reference_probe(s, probe);
        if (fresh) {
            gate_teardown(p, *state);
            *state = NULL;
            *inited = 0;
        }
        host_clear_error(&ob->host);
        isolate_step(RB_STEP_INPUT);
        if (b->upload(ob->ctx, r->data.device_input, probe_in.data, probe_in.bytes) != RB_OK) {
            row_set_status(row, RB_ROW_FAILED, "writing probe %d's input failed: %s",
                              probe + 1, gate_reason(&ob->host, "no reason given"));
            passed = -1;
            break;
        }
        if (fresh) {
            host_clear_error(host);
            if (gate_init(p, c, state) != RB_OK) {
                row_set_status(row, RB_ROW_FAILED, "init again for probe %d failed: %s",
                                  probe + 1, gate_reason(host, "no reason given"));
                passed = -1;
                break;
            }
            *inited = 1;
        }
        passed = probe_call(r, cfg, p, *state, ob, host, &probe_in, probe, fresh, row);
        if (passed == 1)
            row->probes_passed++;
    }
    if (keep_f) memcpy(s->want_f, keep_f, ref_bytes);
    if (keep_i) memcpy(s->want_i, keep_i, ref_bytes);
    if (keep_abs) memcpy(s->abs_sum, keep_abs, ref_bytes);
    if (keep_at) memcpy(s->want_index, keep_at, ref_bytes);
    free(keep_f);
    free(keep_i);
    free(keep_abs);
    free(keep_at);
    if (passed == 1 && row->status == RB_ROW_OK)
        row->probes = RB_PROBES_PASSED;
    else if (passed == 0)
        row->probes = RB_PROBES_FAILED;
}
