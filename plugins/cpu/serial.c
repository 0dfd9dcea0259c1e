/* plugins/cpu/serial.c: the baseline strategy: one accumulator, the plain
 * loop over the input. Parameter acc picks the type a floating sum
 * accumulates in. Shapes (every row, ragged rows, every column) and
 * argmax go one answer after another (cpu_shaped.h). */
#include "cpu_shaped.h"

static const rb_param_spec serial_params[] = {
    CPU_PARAM_ACC,
};

typedef struct serial_state {
    cpu_shaped sh;
    void *single; /* one array (not argmax): the single-threaded loop's state */
} serial_state;

static int serial_describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    cpu_shaped sh;
    return cpu_shaped_setup(cfg, &sh);
}

static void serial_teardown(void *state)
{
    serial_state *st = state;
    if (!st)
        return;
    cpu_single_teardown(st->single);
    cpu_shaped_free(&st->sh);
    free(st);
}

static int serial_init(const rb_config *cfg, void **state)
{
    serial_state *st = rb_state_alloc(cfg, sizeof *st);
    if (!st)
        return RB_ERROR;
    int rc = cpu_shaped_setup(cfg, &st->sh);
    if (rc == RB_OK)
        rc = cpu_shaped_by_answers(&st->sh) ? cpu_shaped_allocate(cfg, &st->sh)
                                             : cpu_single_init(cfg, &st->single);
    if (rc != RB_OK) {
        serial_teardown(st);
        return rc;
    }
    *state = st;
    return RB_OK;
}

static int serial_run(void *state)
{
    serial_state *st = state;
    if (st->single)
        return cpu_single_run(st->single);
    cpu_shaped_answers(&st->sh, 0, st->sh.n_answers);
    return RB_OK;
}

static int serial_verify(void *state, rb_result *result)
{
    serial_state *st = state;
    if (st->single)
        return cpu_single_verify(st->single, result);
    return cpu_shaped_store(&st->sh, result);
}

static const rb_plugin serial_plugin = {
    CPU_SHAPED_DESCRIPTOR_FIELDS,
    .name = "serial",
    .summary = "one accumulator, the plain loop (the baseline)",
    RB_PLUGIN_PARAMS(serial_params),
    .describe = serial_describe,
    .init = serial_init,
    .run = serial_run,
    .verify = serial_verify,
    .teardown = serial_teardown,
};

RB_PLUGIN_ENTRY(serial_plugin)
