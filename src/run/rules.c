/* src/run/rules.c: the rules of measuring one configuration that need no
 * plugin and no device (see run/rules.h): the stop rule of the timed
 * repetitions, the size of a graph batch, the bit comparison of results,
 * the error in units of the tolerance, and the names shown for timing
 * modes, throttle reasons and profiler ranges. */
#include "run/rules.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "base/stats.h"
#include "base/units.h"

int rules_checks_noise_at(size_t count)
{
    if (count <= 64)
        return 1;
    /* every 16th up to 256, then every (largest power of two <= count/16)th:
     * about 16 checks per doubling */
    size_t step = 16;
    while (step * 2 <= count / 16)
        step *= 2;
    return count % step == 0;
}

const char *rules_should_stop(const rb_stop_rule *rule, const double *samples, size_t count,
                              double total_ns, double elapsed_s, double next_s)
{
    int enough = (long)count >= rule->min_reps && total_ns >= rule->min_time_ns;
    int check_noise = enough && count >= 2 && rules_checks_noise_at(count);
    if ((long)count >= rule->max_reps) {
        /* the last look at the noise decides which it was */
        rb_stats s;
        stats_compute(samples, count, &s);
        return enough && count >= 2 && s.noise <= rule->noise ? "noise" : "max_reps";
    }
    if (check_noise) {
        rb_stats s;
        stats_compute(samples, count, &s);
        if (s.noise <= rule->noise)
            return "noise";
    }
    if (elapsed_s + next_s > rule->budget_s)
        return "timeout";
    return NULL;
}

uint32_t rules_batch_calls(long requested, double call_ns)
{
    if (requested > 0)
        return (uint32_t)requested;
    if (!(call_ns > 0))
        return RB_BATCH_MAX_CALLS;
    double calls = ceil(RB_BATCH_TARGET_NS / call_ns);
    if (calls < 1)
        return 1;
    if (calls > RB_BATCH_MAX_CALLS)
        return RB_BATCH_MAX_CALLS;
    return (uint32_t)calls;
}

int rules_same_result(const rb_result *a, const rb_result *b, int op, uint32_t bins)
{
    if (op == RB_OP_HISTOGRAM) {
        if (!a->bins || !b->bins || a->n_bins < bins || b->n_bins < bins)
            return 0;
        return memcmp(a->bins, b->bins, bins * sizeof *a->bins) == 0;
    }
    /* the floating value by its bits: -0.0 and 0.0 differ, a NaN equals
     * the same NaN */
    if (a->i != b->i || memcmp(&a->f, &b->f, sizeof a->f) != 0)
        return 0;
    return op != RB_OP_ARGMAX || a->index == b->index;
}

int rules_error_ratio(double error, double tolerance, double *ratio)
{
    if (isnan(error) || isnan(tolerance))
        return 0;
    if (tolerance > 0) {
        *ratio = error / tolerance;
        return 1;
    }
    if (error == 0) {
        *ratio = 0;
        return 1;
    }
    return 0;
}

void throttle_reason_text(uint64_t reasons, char *buf, size_t len)
{
    static const struct {
        uint64_t bit;
        const char *name;
    } names[] = {
        {RB_THROTTLE_IDLE, "idle"},
        {RB_THROTTLE_APP_CLOCKS, "app_clocks"},
        {RB_THROTTLE_SW_POWER_CAP, "sw_power_cap"},
        {RB_THROTTLE_HW_SLOWDOWN, "hw_slowdown"},
        {RB_THROTTLE_SYNC_BOOST, "sync_boost"},
        {RB_THROTTLE_SW_THERMAL, "sw_thermal"},
        {RB_THROTTLE_HW_THERMAL, "hw_thermal"},
        {RB_THROTTLE_HW_POWER_BRAKE, "hw_power_brake"},
        {RB_THROTTLE_DISPLAY_CLOCKS, "display_clocks"},
    };
    size_t used = 0;
    uint64_t named = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        if (!(reasons & names[k].bit))
            continue;
        named |= names[k].bit;
        int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", names[k].name);
        if (n < 0 || (size_t)n >= len - used)
            return;
        used += (size_t)n;
    }
    if (reasons & ~named)
        snprintf(buf + used, len - used, "%sother 0x%llx", used ? ", " : "",
                 (unsigned long long)(reasons & ~named));
}

void rules_range_name(const rb_configuration *cfg, char *buf, size_t len)
{
    char n[32];
    format_size(cfg->n, n, sizeof n);
    const char *params = cfg->params_text ? cfg->params_text : "";
    snprintf(buf, len, "%s%s%s %s %s n=%s", cfg->run ? cfg->run->name : "", *params ? " " : "",
             params, op_name(cfg->op), dtype_name(cfg->dtype), n);
    for (char *p = buf; *p; p++)
        if (*p == '/' || *p == '@' || (unsigned char)*p < 0x20)
            *p = '_';
}
