/* src/run/dataset.c: the data set of the configurations that read the same
 * data: the seeded input, made once, its reference, and its copy on the
 * device, uploaded once and handed read-only to each configuration (kept
 * aside while the probes overwrite it, then put back). */
#include <stdio.h>
#include <string.h>

#include "run/runner_state.h"
#include "run/shape.h"
#include "run/vector_answer.h"

void runner_drop_device_input(runner *r)
{
    if (r->device_input && r->device_input_owner) {
        const rb_backend *b = r->device_input_owner->loaded->desc;
        if (!r->device_input_shared)
            b->release(r->device_input_owner->ctx, r->device_input);
        if (r->device_backup)
            b->release(r->device_input_owner->ctx, r->device_backup);
    }
    r->device_input = NULL;
    r->device_backup = NULL;
    r->device_input_shared = 0;
    r->device_input_owner = NULL;
}

void runner_drop_data(runner *r)
{
    runner_drop_device_input(r);
    vector_drop(r);
    shape_drop(r);
    if (r->have_ref)
        reference_free(&r->ref);
    if (r->have_input)
        input_free(&r->input);
    r->have_ref = r->have_input = 0;
}

/* Makes the input, its reference and its device copy current for `cfg`.
 * Reuses what matches. Returns 0, or -1 with the row's reason set. */
int runner_prepare_data(runner *r, const rb_configuration *cfg, open_backend *ob, uint64_t seed,
                        rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    const rb_device_info *dev = &r->res->info.devices[ob->record].info;
    uint64_t elements = sweep_elements(cfg); /* rows x n */
    size_t bytes = (size_t)elements * rb_dtype_size(cfg->dtype);
    if (dev->memory_bytes && bytes > dev->memory_bytes) {
        row_set_status(row, RB_ROW_UNSUPPORTED, "needs %.1f GiB, %s device has %.1f GiB",
                       (double)bytes / 1073741824.0, b->name,
                       (double)dev->memory_bytes / 1073741824.0);
        return -1;
    }
    int same_input = r->have_input && r->input.dtype == cfg->dtype && r->input.n == elements &&
                     r->input.distribution == cfg->distribution && r->input.seed == seed;
    if (!same_input) {
        runner_drop_data(r);
        char why[256] = "";
        if (input_generate(&r->input, cfg->dtype, cfg->distribution, elements, seed, why,
                           sizeof why) != 0) {
            row_set_status(row, RB_ROW_UNSUPPORTED, "%s", why);
            return -1;
        }
        r->have_input = 1;
    }
    if (sweep_is_shaped(cfg)) {
        if (shape_prepare(r, cfg, ob, row) != 0)
            return -1;
    } else if (!r->have_ref || r->ref.op != cfg->op ||
               (cfg->op == RB_OP_HISTOGRAM && r->ref.n_bins != cfg->bins)) {
        if (r->have_ref)
            reference_free(&r->ref);
        reference_compute(&r->ref, &r->input, cfg->op, cfg->bins);
        r->have_ref = 1;
    }
    if (r->device_input && r->device_input_owner == ob)
        return 0;
    runner_drop_device_input(r);
    if (b->memory_kind == RB_MEMORY_HOST && !r->exp->probes) {
        r->device_input = r->input.data; /* the backend's memory is the host's */
        r->device_input_shared = 1;
    } else {
        rb_host_state host;
        host_init(&host, b->name, r->opt->verbosity);
        void *ptr = NULL;
        if (b->alloc(ob->ctx, r->input.bytes, &ptr) != RB_OK) {
            row_set_status(row, RB_ROW_UNSUPPORTED, "cannot allocate %.2f GiB on the %s device",
                           (double)r->input.bytes / 1073741824.0, b->name);
            return -1;
        }
        if (b->upload(ob->ctx, ptr, r->input.data, r->input.bytes) != RB_OK) {
            b->release(ob->ctx, ptr);
            row_set_status(row, RB_ROW_FAILED, "uploading the input to the %s device failed",
                           b->name);
            return -1;
        }
        r->device_input = ptr;
    }
    r->device_input_owner = ob;
    return 0;
}

/* Keeps a copy of the input on the device before the probes overwrite it,
 * where the backend can copy and the device has room; otherwise the input
 * is uploaded again afterwards. A backend of host memory always uploads (a
 * copy in host memory). */
void runner_back_up_input(runner *r, open_backend *ob)
{
    const rb_backend *b = ob->loaded->desc;
    const rb_device_info *dev = &r->res->info.devices[ob->record].info;
    if (r->device_backup || !b->copy || b->memory_kind == RB_MEMORY_HOST)
        return;
    if (dev->memory_bytes && 3 * r->input.bytes > dev->memory_bytes)
        return;
    void *backup = NULL;
    if (b->alloc(ob->ctx, r->input.bytes, &backup) != RB_OK)
        return;
    if (b->copy(ob->ctx, backup, r->device_input, r->input.bytes) != RB_OK) {
        b->release(ob->ctx, backup);
        return;
    }
    r->device_backup = backup;
}

/* Puts the data set's input back after the probes; when that fails, the
 * next configuration uploads it afresh. */
void runner_restore_input(runner *r, open_backend *ob)
{
    const rb_backend *b = ob->loaded->desc;
    host_clear_error(&ob->host);
    int st = r->device_backup
                 ? b->copy(ob->ctx, r->device_input, r->device_backup, r->input.bytes)
                 : b->upload(ob->ctx, r->device_input, r->input.data, r->input.bytes);
    if (st != RB_OK)
        runner_drop_device_input(r);
}
