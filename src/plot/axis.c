/* src/plot/axis.c: axis ranges, tick positions and tick labels, and the
 * heat maps' colours with the colour of the text on them, so that the SVG
 * drawer and the gnuplot scripts label and colour their figures the same
 * way. */
#include "plot/figures.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/units.h"

void plot_format(double v, int unit, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "n/a");
        return;
    }
    switch (unit) {
    case PLOT_UNIT_SIZE:
        if (v >= 1 && v < 18446744073709551616.0 && v == floor(v)) {
            format_size((uint64_t)v, buf, (unsigned)len);
            return;
        }
        break;
    case PLOT_UNIT_NS: {
        static const char *const units[] = {"ns", "us", "ms", "s"};
        int k = 0;
        while (k < 3 && fabs(v) >= 999.5) { /* 999.7 ns is 1 us, not 1e+03 ns */
            v /= 1000;
            k++;
        }
        snprintf(buf, len, "%.3g %s", v, units[k]);
        return;
    }
    case PLOT_UNIT_TIMES:
        snprintf(buf, len, "%.3gx", v);
        return;
    default:
        break;
    }
    /* Three significant digits; whole numbers from 999.5 up (which three
     * digits would round to 1e+03), not 1.23e+03. */
    if (fabs(v) >= 999.5 && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

static void add_tick(plot_ticks *t, double at, int unit)
{
    if (t->count >= PLOT_MAX_TICKS)
        return;
    t->at[t->count] = at;
    plot_format(at, unit, t->label[t->count], sizeof t->label[0]);
    t->count++;
}

/* Ticks at base^k for k from lo_exp to hi_exp, every `step` exponents. */
static void power_ticks(plot_ticks *t, double base, int lo_exp, int hi_exp, int unit)
{
    int span = hi_exp - lo_exp;
    int step = 1;
    while (span / step + 1 > 12)
        step++;
    t->lo = pow(base, lo_exp);
    t->hi = pow(base, hi_exp);
    t->count = 0;
    for (int k = lo_exp; k <= hi_exp; k += step)
        add_tick(t, pow(base, k), unit);
}

/* The exponents of the powers (log_base: log2 or log10) at or below lo and
 * at or above hi, once lo is made positive and hi at least lo, within
 * [min_exp, max_exp]: the powers a double holds as normal numbers, so that
 * a denormal value (5e-324) gives a range of positive numbers, not 0. */
static void power_exponents(double lo, double hi, double (*log_base)(double), int min_exp,
                            int max_exp, int *lo_exp, int *hi_exp)
{
    if (!(lo > 0) || !isfinite(lo))
        lo = 1;
    if (!(hi >= lo) || !isfinite(hi))
        hi = lo;
    double l = floor(log_base(lo) + 1e-9), h = ceil(log_base(hi) - 1e-9);
    *lo_exp = l < min_exp ? min_exp : l > max_exp - 1 ? max_exp - 1 : (int)l;
    *hi_exp = h > max_exp ? max_exp : h < *lo_exp ? *lo_exp : (int)h;
}

void plot_axis_log2(double lo, double hi, int unit, plot_ticks *t)
{
    int lo_exp, hi_exp;
    power_exponents(lo, hi, log2, DBL_MIN_EXP, DBL_MAX_EXP - 2, &lo_exp, &hi_exp);
    if (lo_exp == hi_exp) { /* one size: a power of two each side */
        lo_exp--;
        hi_exp++;
    }
    power_ticks(t, 2, lo_exp, hi_exp, unit);
    t->lo /= PLOT_LOG2_MARGIN; /* points at the end ticks are drawn whole */
    t->hi *= PLOT_LOG2_MARGIN;
}

void plot_axis_log10(double lo, double hi, int unit, plot_ticks *t)
{
    int lo_exp, hi_exp;
    power_exponents(lo, hi, log10, DBL_MIN_10_EXP, DBL_MAX_10_EXP, &lo_exp, &hi_exp);
    if (lo_exp == hi_exp)
        hi_exp++;
    power_ticks(t, 10, lo_exp, hi_exp, unit);
}

void plot_axis_linear(double lo, double hi, int unit, plot_ticks *t)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = 0;
        hi = 1;
    }
    if (lo > 0)
        lo = 0;
    /* No span, or one too small to divide into steps (all values 0, or a
     * denormal one such as 5e-324): the range 0 to 1 beside them. */
    if (!(hi - lo >= DBL_MIN * 1e6) || !isfinite(hi - lo))
        hi = lo + (lo < 0 && lo >= -DBL_MAX / 2 ? -lo : 1);
    /* A step of 1, 2 or 5 times a power of ten giving 4 to 10 intervals. */
    double raw = (hi - lo) / 6;
    double power = pow(10, floor(log10(raw)));
    double step = power;
    if (raw / power > 5)
        step = 10 * power;
    else if (raw / power > 2)
        step = 5 * power;
    else if (raw / power > 1)
        step = 2 * power;
    t->lo = floor(lo / step) * step;
    t->hi = ceil(hi / step) * step;
    t->count = 0;
    /* Counted in steps, so that a step below the values' precision cannot
     * stall the walk. */
    double steps = (t->hi - t->lo) / step;
    for (int k = 0; k <= PLOT_MAX_TICKS && k <= steps + 0.5; k++) {
        double v = t->lo + k * step;
        add_tick(t, fabs(v) < step / 1e6 ? 0 : v, unit);
    }
}

unsigned plot_heat_colour(double t)
{
    /* The viridis colour map, at nine stops. */
    static const unsigned char stops[9][3] = {
        {68, 1, 84}, {71, 44, 122}, {59, 81, 139}, {44, 113, 142}, {33, 144, 141},
        {39, 173, 129}, {92, 200, 99}, {170, 220, 50}, {253, 231, 37},
    };
    if (!(t >= 0))
        t = 0;
    if (t > 1)
        t = 1;
    double pos = t * 8;
    int k = pos >= 8 ? 7 : (int)pos;
    double u = pos - k;
    unsigned rgb = 0;
    for (int c = 0; c < 3; c++)
        rgb = rgb << 8 | (unsigned)lround(stops[k][c] + u * (stops[k + 1][c] - stops[k][c]));
    return rgb;
}

/* A channel of an sRGB colour (0-255) as linear light. */
static double linear_light(unsigned channel)
{
    double c = channel / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

double plot_luminance(unsigned rgb)
{
    return 0.2126 * linear_light(rgb >> 16 & 0xff) + 0.7152 * linear_light(rgb >> 8 & 0xff) +
           0.0722 * linear_light(rgb & 0xff);
}

unsigned plot_label_colour(unsigned background)
{
    /* The contrast ratio (L1 + 0.05) / (L2 + 0.05) of black and of white
     * on the background: black is the better one when the background's
     * luminance is above about 0.18. */
    double l = plot_luminance(background);
    double with_black = (l + 0.05) / 0.05, with_white = 1.05 / (l + 0.05);
    return with_black >= with_white ? 0x000000 : 0xffffff;
}
