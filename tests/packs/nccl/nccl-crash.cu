/* tests/packs/nccl/nccl-crash.cu: ncclAllReduce of each rank's n-element
 * slice (the vector answer), with a planted fault for the rank machinery's
 * tests on GPUs: `bug = crash` makes rank 1 abort in its third run right
 * after it has issued the collective, so that rank 0 is left waiting inside
 * NCCL's kernel for a peer that is gone; `bug = none` is correct. Built and
 * run by tests/packs/nccl/test_nccl_faults.sh. */
#include <signal.h>
#include <stdlib.h>

#include "../../../plugins/nccl/nccl_pack.cuh"

static const char *const bug_words[] = {"none", "crash", NULL};

static const rb_param_spec params[] = {
    {"bug", RB_PARAM_CHOICE, "none", 0, 0, bug_words, 0,
     "the fault to plant on rank 1 (none: correct)"},
    rb_nccl::result_param,
};

static int runs; /* of the configuration in progress */

static int setup(rb_nccl::state *s, const rb_config *cfg)
{
    runs = 0;
    return rb_nccl::setup(s, cfg, 1);
}

static int run(void *st)
{
    rb_nccl::state *s = static_cast<rb_nccl::state *>(st);
    const rb_config *c = s->cfg;
    RB_NCCL_CHECK(c->host, ncclAllReduce(c->input, s->work, c->n, rb_nccl::type_of(c->dtype),
                                         rb_nccl::op_of(c->op), s->comm, s->stream));
    if (c->rank == 1 && ++runs == 3 && rb_param_int(c, "bug", 0) == 1)
        abort(); /* the peer is now inside the collective */
    if (s->vector)
        return RB_OK;
    RB_CUDA_CHECK(c->host, rb_nccl::reduce(c, s->work, s->value, c->n, s->temp, &s->temp_bytes,
                                           s->stream));
    return RB_OK;
}

static constexpr rb_plugin descriptor = rb_nccl::plugin({
    .name = "nccl-crash",
    .summary = "ncclAllReduce whose rank 1 may abort inside the collective (a test plugin)",
    .params = params,
    .n_params = rb_cuda::count_of(params),
    .describe = NULL,
    .init = rb_cuda::init_with<rb_nccl::state, setup, rb_nccl::teardown>,
    .run = run,
    .collective = RB_COLLECTIVE_ALLREDUCE,
});

RB_CUDA_PLUGIN_ENTRY(descriptor)
