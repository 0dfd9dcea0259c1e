/* tests/run/timing/delay-sum.c: a test plugin with a slowdown to plant: the sum
 * of i32 data on the cpu backend, whose run reads the input once and then
 * `delay` percent of it again (the same loop over the first delay% of the
 * elements), so that it takes about delay% longer, under any load, as a
 * real regression of the same code would. delay = 0 is the plain sum.
 * $DELAY_SUM_PERCENT, when set, takes the parameter's place: a slowdown
 * planted that way leaves the configuration as it was, so that redbench
 * compare matches it with the same configuration of an earlier run, as it
 * would a regression of the code. $DELAY_SUM_FAIL_AGAIN=PATH makes init
 * fail the second time it runs a configuration of some n (PATH.N marks the
 * first), as a configuration that fails in a later round would.
 * compare's acceptance runs it
 * (tests/compare/test_compare_rounds.sh, bench/compare_acceptance.sh,
 * docs/results/compare-acceptance.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <redbench/plugin.h>

#include "../../plugins/test_plugin.h" /* test_sum_u32, test_i32_of, test_teardown */

typedef struct delay_state {
    const rb_config *cfg;
    uint64_t extra;       /* elements read again */
    int64_t sum;
    uint32_t extra_sum;   /* kept, so that the extra pass is not dropped */
} delay_state;

static const rb_param_spec delay_params[] = {
    {.name = "delay", .type = RB_PARAM_INT, .default_value = "0", .min = 0, .max = 1000,
     .help = "percent of the input read again after the sum (the planted slowdown)"},
};

static int delay_init(const rb_config *cfg, void **state)
{
    delay_state *s = rb_state_alloc(cfg, sizeof *s);
    if (!s)
        return RB_ERROR;
    s->cfg = cfg;
    int64_t percent = rb_param_int(cfg, "delay", 0);
    const char *planted = getenv("DELAY_SUM_PERCENT");
    if (planted && *planted) {
        char *end;
        long value = strtol(planted, &end, 10);
        if (*end != '\0' || value < 0 || value > 1000) {
            cfg->host->error(cfg->host, "DELAY_SUM_PERCENT = %s is not valid; valid: a whole "
                             "number of percent from 0 to 1000", planted);
            free(s);
            return RB_ERROR;
        }
        percent = value;
    }
    s->extra = cfg->n * (uint64_t)percent / 100;
    const char *again = getenv("DELAY_SUM_FAIL_AGAIN");
    if (again && *again) {
        char mark[4096];
        snprintf(mark, sizeof mark, "%s.%llu", again, (unsigned long long)cfg->n);
        FILE *f = fopen(mark, "r");
        if (f) {
            fclose(f);
            cfg->host->error(cfg->host, "failing again, as DELAY_SUM_FAIL_AGAIN asks");
            free(s);
            return RB_ERROR;
        }
        f = fopen(mark, "w");
        if (f)
            fclose(f);
    }
    *state = s;
    return RB_OK;
}

static int delay_run(void *state)
{
    delay_state *s = state;
    const int32_t *x = s->cfg->input;
    uint64_t n = s->cfg->n;
    s->sum = test_i32_of(test_sum_u32(x, n));
    for (uint64_t done = 0; done < s->extra; done += n)
        s->extra_sum += test_sum_u32(x, s->extra - done < n ? s->extra - done : n);
    return RB_OK;
}

static int delay_verify(void *state, rb_result *result)
{
    result->i = ((delay_state *)state)->sum;
    return RB_OK;
}

static const rb_plugin delay_sum = {
    RB_PLUGIN_ABI_FIELDS,
    .name = "delay-sum",
    .summary = "test plugin: an i32 sum that reads delay% of its input again",
    .version = "1.0",
    .backend = "cpu",
    .ops = RB_OP_BIT(RB_OP_SUM),
    .dtypes = RB_DTYPE_BIT(RB_DTYPE_I32),
    RB_PLUGIN_PARAMS(delay_params),
    .init = delay_init,
    .run = delay_run,
    .verify = delay_verify,
    .teardown = test_teardown,
};

RB_PLUGIN_ENTRY(delay_sum)
