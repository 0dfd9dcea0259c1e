/* tests/base/test_stats.c: sample statistics on samples with known answers:
 * median of odd and even counts, min, max, mean, sample standard deviation,
 * coefficient of variation and the MAD-based noise of the median. */
#include <string.h>

#include "base/stats.h"
#include "tap.h"

static void test_empty(void)
{
    rb_stats s;
    memset(&s, 0x7f, sizeof s);
    stats_compute(NULL, 0, &s);
    ok(s.count == 0 && s.median == 0 && s.min == 0 && s.max == 0 && s.mean == 0 &&
           s.stddev == 0 && s.cv == 0 && s.noise == 0,
       "no samples: all zeros");
}

static void test_one(void)
{
    double x[] = {42};
    rb_stats s;
    stats_compute(x, 1, &s);
    ok(s.count == 1 && s.median == 42 && s.min == 42 && s.max == 42 && s.mean == 42,
       "one sample: it is the median, min, max and mean");
    ok(s.stddev == 0 && s.cv == 0 && s.noise == 0, "one sample: no spread, no noise");
}

static void test_odd(void)
{
    double x[] = {5, 1, 3};
    rb_stats s;
    stats_compute(x, 3, &s);
    is_double(s.median, 3, 0, "median of 5, 1, 3");
    ok(s.min == 1 && s.max == 5, "min 1, max 5");
    is_double(s.mean, 3, 1e-12, "mean 3");
    is_double(s.stddev, 2, 1e-12, "sample standard deviation (n - 1) 2");
    is_double(s.cv, 2.0 / 3.0, 1e-12, "cv = stddev / mean");
    ok(x[0] == 5 && x[1] == 1 && x[2] == 3, "the samples are not modified");
}

static void test_even(void)
{
    double x[] = {4, 1, 3, 2};
    rb_stats s;
    stats_compute(x, 4, &s);
    is_double(s.median, 2.5, 0, "median of an even count: the mean of the middle two");
    is_double(s.stddev, sqrt(5.0 / 3.0), 1e-12, "sample standard deviation of 1..4");
}

static void test_noise(void)
{
    /* median 12, deviations 2 1 0 1 2 (and 8 for the outlier): MAD 1 */
    double x[] = {10, 11, 12, 13, 14};
    rb_stats s;
    stats_compute(x, 5, &s);
    is_double(s.noise, 1.2533 * 1.4826 * 1.0 / (sqrt(5.0) * 12.0), 1e-12,
              "noise = 1.2533 * 1.4826 * MAD / (sqrt(count) * median)");
    double y[] = {10, 11, 12, 13, 14, 20};
    stats_compute(y, 6, &s);
    /* median 12.5, deviations 2.5 1.5 0.5 0.5 1.5 7.5: MAD 1.5 */
    is_double(s.noise, 1.2533 * 1.4826 * 1.5 / (sqrt(6.0) * 12.5), 1e-12,
              "an outlier moves the MAD only a little");
    double z[] = {7, 7, 7, 7};
    stats_compute(z, 4, &s);
    ok(s.noise == 0 && s.stddev == 0, "equal samples: no noise");
    double w[] = {-1, 0, 1};
    stats_compute(w, 3, &s);
    ok(s.median == 0 && s.noise == 0, "median 0: noise 0, not a division by zero");
}

int main(void)
{
    plan(15);
    test_empty();
    test_one();
    test_odd();
    test_even();
    test_noise();
    return done();
}
