/* src/run/dataset.c: the data set of the configurations that read the same
 * data: whether it fits the device's and the host's memory (the input and
 * a shape's answers and offsets, counted before anything is allocated),
 * the seeded input, made once, its reference, and its copy on the
 * device, uploaded once and handed read-only to each configuration (kept
 * aside while the probes overwrite it, then put back): run/dataset.h's
 * data_set, the runner's part. */
#include "run/dataset.h"

#include <stdio.h>
#include <string.h>

#include "run/input.h"
#include "run/runner_state.h"
#include "run/shape.h"
#include "run/vector_answer.h"

void runner_drop_device_input(runner *r)
{
    data_set *d = &r->data;
    if (d->device_input && d->device_input_owner) {
        const rb_backend *b = d->device_input_owner->loaded->desc;
        if (!d->device_input_shared)
            b->release(d->device_input_owner->ctx, d->device_input);
        if (d->device_backup)
            b->release(d->device_input_owner->ctx, d->device_backup);
    }
    d->device_input = NULL;
    d->device_backup = NULL;
    d->device_input_shared = 0;
    d->device_input_owner = NULL;
}

void runner_drop_data(runner *r)
{
    data_set *d = &r->data;
    runner_drop_device_input(r);
    vector_drop(r);
    shape_drop(r);
    if (d->have_ref)
        reference_free(&d->ref);
    if (d->have_input)
        input_free(&d->input);
    d->have_ref = d->have_input = 0;
}

/* Whether the configuration fits, before anything is allocated for it:
 * in the device's memory, its input and a shape's ragged offsets (and,
 * where the backend's memory is the host's, the shape's references and
 * answers too); in the host's, whatever of the input and the shape is
 * not made yet. Returns 0, or -1 with the row unsupported, saying why. */
static int data_fits(runner *r, const rb_configuration *cfg, open_backend *ob, int same_input,
                     rb_row *row)
{
    const rb_backend *b = ob->loaded->desc;
    const rb_device_info *dev = &r->res->info.devices[ob->record].info;
    uint64_t input = sweep_elements(cfg) * rb_dtype_size(cfg->dtype); /* rows x n */
    shape_bytes shape = {0, 0};
    if (sweep_is_shaped(cfg))
        shape_bytes_of(cfg, r->exp->probes, &shape);
    uint64_t on_host = b->memory_kind == RB_MEMORY_HOST ? shape.answers : 0;
    uint64_t device = input + shape.offsets + on_host;
    char what[200];
    if (dev->memory_bytes && device > dev->memory_bytes) {
        if (device == input) {
            row_set_status(row, RB_ROW_UNSUPPORTED, "needs %.1f GiB, %s device has %.1f GiB",
                           (double)input / 1073741824.0, b->name,
                           (double)dev->memory_bytes / 1073741824.0);
        } else {
            shape_bytes_text(cfg, input, on_host, shape.offsets, what, sizeof what);
            row_set_status(row, RB_ROW_UNSUPPORTED, "needs %.1f GiB (%s), %s device has "
                           "%.1f GiB", (double)device / 1073741824.0, what, b->name,
                           (double)dev->memory_bytes / 1073741824.0);
        }
        return -1;
    }
    /* the input alone is checked as it is made (input_generate); a shape
     * made already holds its memory */
    if (!sweep_is_shaped(cfg) || (same_input && shape_made_for(r, cfg)))
        return 0;
    uint64_t host = shape.answers + shape.offsets + (same_input ? 0 : input);
    shape_bytes_text(cfg, same_input ? 0 : input, shape.answers, shape.offsets, what,
                     sizeof what);
    char why[320];
    if (input_host_check((long double)host, what, why, sizeof why) != 0) {
        row_set_status(row, RB_ROW_UNSUPPORTED, "%s", why);
        return -1;
    }
    return 0;
}

int runner_prepare_data(runner *r, const rb_configuration *cfg, open_backend *ob, uint64_t seed,
                        rb_row *row)
{
    data_set *d = &r->data;
    const rb_backend *b = ob->loaded->desc;
    uint64_t elements = sweep_elements(cfg); /* rows x n */
    int same_input = d->have_input && d->input.dtype == cfg->dtype && d->input.n == elements &&
                     d->input.distribution == cfg->distribution && d->input.seed == seed;
    if (data_fits(r, cfg, ob, same_input, row) != 0)
        return -1;
    if (!same_input) {
        runner_drop_data(r);
        char why[256] = "";
        if (input_generate(&d->input, cfg->dtype, cfg->distribution, elements, seed, why,
                           sizeof why) != 0) {
            row_set_status(row, RB_ROW_UNSUPPORTED, "%s", why);
            return -1;
        }
        d->have_input = 1;
    }
    if (sweep_is_shaped(cfg)) {
        if (shape_prepare(r, cfg, ob, row) != 0)
            return -1;
    } else if (!d->have_ref || d->ref.op != cfg->op ||
               (cfg->op == RB_OP_HISTOGRAM && d->ref.n_bins != cfg->bins)) {
        if (d->have_ref)
            reference_free(&d->ref);
        reference_compute(&d->ref, &d->input, cfg->op, cfg->bins);
        d->have_ref = 1;
    }
    if (d->device_input && d->device_input_owner == ob)
        return 0;
    runner_drop_device_input(r);
    if (b->memory_kind == RB_MEMORY_HOST && !r->exp->probes) {
        d->device_input = d->input.data; /* the backend's memory is the host's */
        d->device_input_shared = 1;
    } else {
        rb_host_state host;
        host_init(&host, b->name, r->opt->verbosity);
        void *ptr = NULL;
        if (b->alloc(ob->ctx, d->input.bytes, &ptr) != RB_OK) {
            row_set_status(row, RB_ROW_UNSUPPORTED, "cannot allocate %.2f GiB on the %s device",
                           (double)d->input.bytes / 1073741824.0, b->name);
            return -1;
        }
        if (b->upload(ob->ctx, ptr, d->input.data, d->input.bytes) != RB_OK) {
            b->release(ob->ctx, ptr);
            row_set_status(row, RB_ROW_FAILED, "uploading the input to the %s device failed",
                           b->name);
            return -1;
        }
        d->device_input = ptr;
    }
    d->device_input_owner = ob;
    return 0;
}

/* Keeps a copy of the input on the device before the probes overwrite it,
 * where the backend can copy and the device has room; otherwise the input
 * is uploaded again afterwards. A backend of host memory always uploads (a
 * copy in host memory). */
void runner_back_up_input(runner *r, open_backend *ob)
{
    data_set *d = &r->data;
    const rb_backend *b = ob->loaded->desc;
    const rb_device_info *dev = &r->res->info.devices[ob->record].info;
    if (d->device_backup || !b->copy || b->memory_kind == RB_MEMORY_HOST)
        return;
    if (dev->memory_bytes && 3 * d->input.bytes > dev->memory_bytes)
        return;
    void *backup = NULL;
    if (b->alloc(ob->ctx, d->input.bytes, &backup) != RB_OK)
        return;
    if (b->copy(ob->ctx, backup, d->device_input, d->input.bytes) != RB_OK) {
        b->release(ob->ctx, backup);
        return;
    }
    d->device_backup = backup;
}

/* Puts the data set's input back after the probes; when that fails, the
 * next configuration uploads it afresh. */
void runner_restore_input(runner *r, open_backend *ob)
{
    data_set *d = &r->data;
    const rb_backend *b = ob->loaded->desc;
    host_clear_error(&ob->host);
    int st = d->device_backup
                 ? b->copy(ob->ctx, d->device_input, d->device_backup, d->input.bytes)
                 : b->upload(ob->ctx, d->device_input, d->input.data, d->input.bytes);
    if (st != RB_OK)
        runner_drop_device_input(r);
}
