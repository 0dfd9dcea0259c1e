/* src/run/devices.h: the backends a run opens in this process
 * (devices.c): each opened once, with its device record and measured
 * peak; why one could not be opened, and whether one is still usable
 * after a failure. */
#ifndef RB_DEVICES_H
#define RB_DEVICES_H

#include <stddef.h>

#include "host/registry.h"
#include "host/services.h"
#include "results/rows.h"

typedef struct runner runner;

/* A backend opened during the run. */
typedef struct open_backend {
    const rb_loaded_backend *loaded;
    void *ctx;          /* NULL when it could not be opened */
    char error[512];    /* why it could not */
    size_t record;      /* index into res->info.devices */
    int unusable;       /* runner_recover() failed: no more work on this device */
    rb_host_state host; /* handed to the backend's device_count and open */
    struct rb_energy_meter *energy; /* energy = on: its device's meter
                                       (run/energy.h), made on first use */
    int batch_prepared; /* graph timing: a batch is prepared, to release */
} open_backend;

/* The backends opened in this process. */
typedef struct device_set {
    open_backend open[8];
    size_t count;
    int must_end; /* a device in this process is no longer usable */
} device_set;

/* Opens the backend a plugin names (once per run), with its device record
 * and measured peak. NULL if it is absent (the row says why); an
 * open_backend without ctx when its device cannot be opened (ob->error). */
open_backend *runner_backend_for(runner *r, const char *name, rb_row *row);
/* After a failure: asks the backend to clear what it can; a device that is
 * no longer usable takes no more work in this process. */
void runner_recover(runner *r, open_backend *ob, rb_row *row);

#endif
