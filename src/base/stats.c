/* src/base/stats.c: sample statistics of repeated timings: median, min, max,
 * mean, sample standard deviation, coefficient of variation, and the
 * relative noise of the median estimated from the median absolute
 * deviation (MAD). */
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* For normal samples: sigma = 1.4826 * MAD, and the standard error of the
 * median is sqrt(pi / 2) = 1.2533 times that of the mean. */
#define MAD_TO_SIGMA 1.4826
#define MEDIAN_EFFICIENCY 1.2533

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of sorted values. */
static double sorted_median(const double *v, size_t count)
{
    size_t mid = count / 2;
    return count % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

void stats_compute(const double *samples, size_t count, rb_stats *out)
{
    memset(out, 0, sizeof *out);
    if (count == 0)
        return;
    out->count = count;

    double *sorted = xmalloc(count * sizeof *sorted);
    memcpy(sorted, samples, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, compare_doubles);
    out->min = sorted[0];
    out->max = sorted[count - 1];
    out->median = sorted_median(sorted, count);

    double sum = 0;
    for (size_t k = 0; k < count; k++)
        sum += samples[k];
    out->mean = sum / (double)count;

    if (count >= 2) {
        double squares = 0;
        for (size_t k = 0; k < count; k++)
            squares += (samples[k] - out->mean) * (samples[k] - out->mean);
        out->stddev = sqrt(squares / (double)(count - 1));

        /* the deviations from the median, reusing the sorted copy */
        for (size_t k = 0; k < count; k++)
            sorted[k] = fabs(samples[k] - out->median);
        qsort(sorted, count, sizeof *sorted, compare_doubles);
        double mad = sorted_median(sorted, count);
        if (out->median != 0)
            out->noise =
                MEDIAN_EFFICIENCY * MAD_TO_SIGMA * mad / (sqrt((double)count) * fabs(out->median));
    }
    if (out->mean != 0)
        out->cv = out->stddev / out->mean;
    free(sorted);
}
