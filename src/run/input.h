/* src/run/input.h: input generation. Inputs are random (never constant unless
 * asked for with `ones`), generated from a recorded seed in fixed-size chunks
 * so the same seed gives the same data whatever the thread count. */
#ifndef RB_INPUT_H
#define RB_INPUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct rb_input {
    int dtype;          /* enum rb_dtype */
    int distribution;   /* enum rb_distribution */
    uint64_t n;
    uint64_t seed;
    void *data;         /* n elements on the host (page-aligned) */
    size_t bytes;
} rb_input;

/* Fills *in with n elements. Returns 0, or -1 if memory is short (with a
 * message in why, e.g. "needs 4.0 GiB of host memory"). The distribution
 * must suit the dtype (float-bytes is u8 only): sweep.c checks that. */
int input_generate(rb_input *in, int dtype, int distribution, uint64_t n, uint64_t seed,
                   char *why, size_t why_len);
void input_free(rb_input *in);

/* Whether `bytes` of host memory can be had (MemAvailable). Returns 0, or
 * -1 with why "needs 56.0 GiB of host memory (WHAT; 23.4 GiB available)";
 * `what`, NULL or "", says what they hold. */
int input_host_check(long double bytes, const char *what, char *why, size_t why_len);

/* The seed of a run's data: mixes the experiment's seed with the plugin's
 * name, so that different plugins see different data. */
uint64_t input_seed_for(uint64_t experiment_seed, const char *plugin_name);

#endif
