/* src/run/vector_answer.c: the vector answer of an all-reduce across ranks
 * (run/vector_answer.h). The expected vector is the element-wise reduction
 * of every rank's slice: this rank's input, and the others' made again
 * from their seeds (procs/rank_link.h: ranks_seed), as each rank made its
 * own. Integer sums wrap like the dtype and min and max are exact; a
 * floating sum of r values in any order is within (r + 1) x epsilon of
 * the dtype x the sum of their magnitudes. */
#include "run/vector_answer.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "run/rank_slice.h"
#include "run/runner_state.h"

void vector_drop(runner *r)
{
    free(r->vec.answer);
    free(r->vec.expected);
    memset(&r->vec, 0, sizeof r->vec);
}

void vector_offer(runner *r, const rb_configuration *cfg, const rb_plugin *p, rb_result *res)
{
    /* a vector of halves would hold sums rounded to the half type: the
     * one value (an f32 sum) is judged instead */
    if (p->collective != RB_COLLECTIVE_ALLREDUCE || p->abi_minor < 4 ||
        cfg->op == RB_OP_HISTOGRAM || cfg->op == RB_OP_ARGMAX ||
        cfg->dtype == RB_DTYPE_F16 || cfg->dtype == RB_DTYPE_BF16)
        return;
    size_t bytes = (size_t)cfg->n * rb_dtype_size(cfg->dtype);
    if (r->vec.answer_bytes < bytes) {
        free(r->vec.answer);
        r->vec.answer = xmalloc(bytes ? bytes : 1);
        r->vec.answer_bytes = bytes;
    }
    res->elements = r->vec.answer;
    res->n_elements = 0;
}

/* Element k of a vector of dtype, as a signed integer or a long double. */
static int64_t element_i(int dtype, const void *v, uint64_t k)
{
    return dtype == RB_DTYPE_I32 ? ((const int32_t *)v)[k] : ((const int64_t *)v)[k];
}

static long double element_f(int dtype, const void *v, uint64_t k)
{
    return dtype == RB_DTYPE_F32 ? ((const float *)v)[k] : ((const double *)v)[k];
}

int vector_reduce(const rb_configuration *cfg, rb_result *res, char *why, size_t len)
{
    if (!res->elements || res->n_elements == 0)
        return 0;
    if (res->n_elements != cfg->n) {
        snprintf(why, len, "verify handed a vector of %llu elements, not n = %llu",
                 (unsigned long long)res->n_elements, (unsigned long long)cfg->n);
        return -1;
    }
    int fl = reference_is_float(cfg->dtype);
    uint64_t sum_i = 0;
    long double sum_f = 0;
    int64_t best_i = 0;
    long double best_f = 0;
    for (uint64_t k = 0; k < cfg->n; k++) {
        if (fl) {
            long double x = element_f(cfg->dtype, res->elements, k);
            sum_f += x;
            if (k == 0 || (cfg->op == RB_OP_MIN ? x < best_f : x > best_f))
                best_f = x;
        } else {
            int64_t x = element_i(cfg->dtype, res->elements, k);
            sum_i += (uint64_t)x;
            if (k == 0 || (cfg->op == RB_OP_MIN ? x < best_i : x > best_i))
                best_i = x;
        }
    }
    if (cfg->op == RB_OP_SUM) {
        res->f = (double)sum_f;
        res->i = fl ? 0 : reference_wrap(sum_i, cfg->dtype);
    } else {
        res->f = (double)best_f;
        res->i = best_i;
    }
    return 0;
}

/* Makes the expected vector of this data set, if it is not made: n values
 * (int64_t, or double followed by n magnitudes for floats). */
static int make_expected(runner *r, const rb_configuration *cfg, char *why, size_t len)
{
    uint32_t ranks = r->place.ranks ? r->place.ranks : 1;
    const rb_input *mine = &r->data.input;
    if (r->vec.expected && r->vec.n == mine->n && r->vec.seed == mine->seed &&
        r->vec.dtype == mine->dtype && r->vec.distribution == mine->distribution &&
        r->vec.op == cfg->op && r->vec.ranks == ranks)
        return 0;
    free(r->vec.expected);
    r->vec.expected = NULL;
    uint64_t n = mine->n;
    uint64_t whole = r->exp->n_total && r->slice.n_total ? r->slice.n_total : cfg->n;
    for (uint32_t j = 0; j < ranks; j++) {
        uint64_t offset;
        if (ranks_count(r->exp, whole, j, ranks, &offset) != n) {
            snprintf(why, len, "a vector answer needs the same n on every rank (n_scope = "
                     "total with n not a multiple of the ranks)");
            return -1;
        }
    }
    int fl = reference_is_float(mine->dtype);
    uint64_t base = input_seed_for(r->exp->seed, cfg->plugin->desc->name);
    int64_t *acc_i = fl ? NULL : xcalloc(n ? n : 1, sizeof *acc_i);
    double *acc_f = fl ? xcalloc(2 * (n ? n : 1), sizeof *acc_f) : NULL;
    for (uint32_t j = 0; j < ranks; j++) {
        rb_input other;
        const rb_input *in = mine;
        if (j != r->place.rank) {
            if (input_generate(&other, mine->dtype, mine->distribution, n, ranks_seed(base, j),
                               why, len) != 0) {
                free(acc_i);
                free(acc_f);
                return -1;
            }
            in = &other;
        }
        for (uint64_t k = 0; k < n; k++) {
            if (fl) {
                double x = (double)element_f(in->dtype, in->data, k);
                if (cfg->op == RB_OP_SUM || j == 0)
                    acc_f[k] = cfg->op == RB_OP_SUM ? acc_f[k] + x : x;
                else if (cfg->op == RB_OP_MIN ? x < acc_f[k] : x > acc_f[k])
                    acc_f[k] = x;
                acc_f[n + k] += fabs(x);
            } else {
                int64_t x = element_i(in->dtype, in->data, k);
                if (cfg->op == RB_OP_SUM)
                    acc_i[k] = (int64_t)((uint64_t)acc_i[k] + (uint64_t)x);
                else if (j == 0 || (cfg->op == RB_OP_MIN ? x < acc_i[k] : x > acc_i[k]))
                    acc_i[k] = x;
            }
        }
        if (in == &other)
            input_free(&other);
    }
    r->vec.expected = fl ? (void *)acc_f : (void *)acc_i;
    r->vec.n = n;
    r->vec.seed = mine->seed;
    r->vec.dtype = mine->dtype;
    r->vec.distribution = mine->distribution;
    r->vec.op = cfg->op;
    r->vec.ranks = ranks;
    return 0;
}

int vector_judge(runner *r, const rb_configuration *cfg, const rb_result *res, char *why,
                 size_t len)
{
    if (!res->elements || res->n_elements == 0)
        return 1;
    if (make_expected(r, cfg, why, len) != 0)
        return -1;
    uint64_t n = r->vec.n, wrong = 0, first = 0;
    uint32_t ranks = r->vec.ranks;
    int fl = reference_is_float(cfg->dtype);
    double eps = cfg->dtype == RB_DTYPE_F32 ? FLT_EPSILON : DBL_EPSILON;
    char got[64] = "", want[64] = "";
    for (uint64_t k = 0; k < n; k++) {
        int bad;
        if (fl) {
            const double *e = r->vec.expected;
            double x = (double)element_f(cfg->dtype, res->elements, k);
            double expect = cfg->dtype == RB_DTYPE_F32 && cfg->op != RB_OP_SUM
                                ? (double)(float)e[k] : e[k];
            double tol = cfg->op == RB_OP_SUM ? (ranks + 1) * eps * e[n + k] : 0;
            bad = !(fabs(x - expect) <= tol);
            if (bad && !wrong) {
                snprintf(got, sizeof got, "%.9g", x);
                snprintf(want, sizeof want, "%.9g", expect);
            }
        } else {
            const int64_t *e = r->vec.expected;
            int64_t x = element_i(cfg->dtype, res->elements, k);
            int64_t expect = reference_wrap((uint64_t)e[k], cfg->dtype);
            bad = x != expect;
            if (bad && !wrong) {
                snprintf(got, sizeof got, "%lld", (long long)x);
                snprintf(want, sizeof want, "%lld", (long long)expect);
            }
        }
        if (bad && !wrong++)
            first = k;
    }
    if (!wrong)
        return 1;
    snprintf(why, len, "%llu of %llu elements of the vector wrong; the first, element %llu: "
             "%s, expected %s (the element-wise %s of the %u ranks' slices)",
             (unsigned long long)wrong, (unsigned long long)n, (unsigned long long)first, got,
             want, op_name(cfg->op), ranks);
    return 0;
}
