/* fuzz/fuzz_sweep.h: what the experiment and descriptor harnesses both do
 * with an experiment's text: load it and, when it loads, expand its sweep
 * against a registry; then free both. */
#ifndef RB_FUZZ_SWEEP_H
#define RB_FUZZ_SWEEP_H

#include "config/experiment.h"
#include "config/sweep.h"
#include "host/registry.h"

static inline void fuzz_load_and_expand(const char *text, const rb_registry *reg)
{
    rb_experiment exp;
    if (experiment_load_text("fuzz.ini", text, &exp) == 0) {
        rb_sweep sweep;
        sweep_expand(&exp, reg, &sweep);
        sweep_free(&sweep);
    }
    experiment_free(&exp);
}

#endif
