/* src/run/dataset.h: the data set in use (dataset.c): the input, its
 * reference and its copy on the device, made once for the configurations
 * that read the same data and handed to each of them. */
#ifndef RB_DATASET_H
#define RB_DATASET_H

#include <stdint.h>

#include "config/sweep.h"
#include "results/rows.h"
#include "run/devices.h"
#include "run/input.h"
#include "run/reference.h"

typedef struct runner runner;

typedef struct data_set {
    rb_input input;
    int have_input;
    rb_reference ref;
    int have_ref;
    void *device_input;
    const open_backend *device_input_owner;
    int device_input_shared; /* device_input is input.data (cpu, no probes) */
    void *device_backup;     /* a copy of the input on the device, from which
                                copy() restores it after probes; NULL: the
                                input is uploaded again */
} data_set;

void runner_drop_device_input(runner *r);
void runner_drop_data(runner *r);
/* Makes the input, its reference and its device copy current for `cfg`.
 * Reuses what matches. Returns 0, or -1 with the row's reason set. */
int runner_prepare_data(runner *r, const rb_configuration *cfg, open_backend *ob, uint64_t seed,
                        rb_row *row);
/* Before the probes overwrite the input on the device, and after. */
void runner_back_up_input(runner *r, open_backend *ob);
void runner_restore_input(runner *r, open_backend *ob);

#endif
