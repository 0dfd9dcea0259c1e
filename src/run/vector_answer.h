/* src/run/vector_answer.h: the vector answer of an all-reduce across ranks
 * (ABI 1.4, rb_result.elements): the host's buffer offered to verify, the
 * element-wise reduction of every rank's slice it is judged against, every
 * element, and the vector reduced to the one value that the verdict and
 * the probes judge (vector_answer.c). */
#ifndef RB_VECTOR_ANSWER_H
#define RB_VECTOR_ANSWER_H

#include <stddef.h>
#include <stdint.h>

#include <redbench/plugin.h>

#include "config/sweep.h"

typedef struct runner runner;

/* The vector answers of a data set (run/vector_answer.c): the buffer
 * offered to verify, and the expected vector with what it was made for. */
typedef struct vector_state {
    void *answer;
    size_t answer_bytes;
    void *expected;
    uint64_t n, seed;
    int dtype, distribution, op;
    uint32_t ranks;
} vector_state;

/* Before verify: offers the buffer of n elements where the plugin may hand
 * its vector (an all-reduce plugin of ABI 1.4 or newer), else nothing. */
void vector_offer(runner *r, const rb_configuration *cfg, const rb_plugin *p, rb_result *res);

/* After verify: when the plugin handed a vector, checks that it holds n
 * elements and reduces it to res->i or res->f. Returns 0, or -1 with why. */
int vector_reduce(const rb_configuration *cfg, rb_result *res, char *why, size_t len);

/* Judges every element of a handed vector against the element-wise
 * reduction of all ranks' slices (each rank's seeded slice made again
 * here, once per data set). Returns 1 when every element is right (or no
 * vector was handed), 0 with what was wrong in `why`, -1 when the
 * expected vector cannot be made (why). */
int vector_judge(runner *r, const rb_configuration *cfg, const rb_result *res, char *why,
                 size_t len);

/* Frees the buffers (at the end of a data set). */
void vector_drop(runner *r);

#endif
