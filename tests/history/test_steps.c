/* tests/history/test_steps.c: the step detection of src/history/steps.c on
 * series with known answers: a planted 2x step found at its run and no
 * other; quiet noise (1%, and 3% with an outlier night) gives none; one
 * run off is not a step, two runs off at the end are; a step of 3% is
 * under the 5% threshold; a step within the noise is not one; two
 * steps (up, then back down) are both found. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "history/steps.h"
#include "tap.h"

static uint64_t state = 7;

static double normal(void)
{
    double u[2];
    for (int k = 0; k < 2; k++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        u[k] = ((state >> 11) + 0.5) / 9007199254740992.0;
    }
    return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/* n values of 1000 with `noise` relative noise, times `factor` from `at` on. */
static double *series(size_t n, double noise, size_t at, double factor)
{
    double *y = malloc(n * sizeof *y);
    for (size_t k = 0; k < n; k++)
        y[k] = 1000 * (k >= at ? factor : 1) * (1 + noise * normal());
    return y;
}

static size_t count(double *y, size_t n, rb_step **steps)
{
    rb_step_criteria c;
    steps_criteria_default(&c);
    return steps_find(y, n, &c, steps, NULL);
}

int main(void)
{
    plan(17);
    rb_step *s;
    double *y = series(60, 0.01, 30, 2.0);
    size_t n = count(y, 60, &s);
    is_int((long long)n, 1, "a planted 2x step in 60 runs of 1%% noise: one step");
    is_int(n ? (long long)s[0].at : -1, 30, "... at its run (the 31st)");
    is_double(n ? s[0].ratio : 0, 2.0, 0.05, "... of ratio 2");
    free(s);
    free(y);

    int any = 0;
    for (int trial = 0; trial < 20; trial++) {
        y = series(50, 0.01, 50, 1);
        any += count(y, 50, &s) > 0;
        free(s);
        free(y);
    }
    is_int(any, 0, "20 series of 50 runs with 1%% noise: no step in any");

    any = 0;
    for (int trial = 0; trial < 20; trial++) {
        y = series(50, 0.03, 50, 1);
        y[17] *= 1.6; /* one noisy night */
        any += count(y, 50, &s) > 0;
        free(s);
        free(y);
    }
    is_int(any, 0, "20 series of 50 runs with 3%% noise and a night 1.6x off: no step");

    y = series(30, 0.01, 30, 1);
    y[29] *= 2;
    is_int((long long)count(y, 30, &s), 0, "one run 2x off at the end: not a step (yet)");
    free(s);
    y[28] *= 2;
    n = count(y, 30, &s);
    is_int((long long)n, 1, "two runs 2x off at the end: a step");
    is_int(n ? (long long)s[0].at : -1, 28, "... at the first of them");
    free(s);
    free(y);

    y = series(30, 0.01, 15, 0.5);
    n = count(y, 30, &s);
    is_int((long long)n, 1, "a 2x speed-up: one step");
    ok(n && s[0].ratio < 0.55, "... of ratio 0.5 (faster)");
    free(s);
    free(y);

    y = series(60, 0.002, 30, 1.03);
    is_int((long long)count(y, 60, &s), 0, "a 3%% step: under the 5%% threshold, none");
    free(s);
    free(y);

    y = series(60, 0.08, 30, 1.06);
    is_int((long long)count(y, 60, &s), 0, "a 6%% step in 8%% noise: within the noise, none");
    free(s);
    free(y);

    y = series(60, 0.01, 20, 1.5);
    for (size_t k = 40; k < 60; k++)
        y[k] /= 1.5;
    n = count(y, 60, &s);
    is_int((long long)n, 2, "up 1.5x at 20 and back at 40: two steps");
    is_int(n == 2 ? (long long)s[0].at : -1, 20, "... the first at 20");
    is_int(n == 2 ? (long long)s[1].at : -1, 40, "... the second at 40");
    free(s);
    free(y);

    double flat[8] = {5, 5, 5, 5, 5, 5, 5, 5};
    is_int((long long)count(flat, 8, &s), 0, "equal values: no step");
    free(s);
    is_double(steps_noise(flat, 8), RB_STEPS_SIGMA_FLOOR, 1e-12,
              "... and the noise at its floor");
    return done();
}
