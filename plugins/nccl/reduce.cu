/* plugins/nccl/reduce.cu: the whole data set's reduction on rank 0, through
 * NCCL (`scheme`): vector (ncclReduce of the ranks' n-element vectors to
 * rank 0, which reduces the result with CUB) or two-level (CUB reduces each
 * slice to one value, then ncclReduce of those values). Only rank 0 holds
 * the answer and is judged. */
#include "nccl_pack.cuh"

enum scheme { SCHEME_VECTOR, SCHEME_TWO_LEVEL };
static const char *const scheme_words[] = {"vector", "two-level", NULL};

static const rb_param_spec params[] = {
    {"scheme", RB_PARAM_CHOICE, "vector", 0, 0, scheme_words, 0,
     "vector: ncclReduce of n elements, then CUB on rank 0; two-level: the reverse"},
    rb_nccl::algo_param,
    rb_nccl::proto_param,
};

static int setup(rb_nccl::state *s, const rb_config *cfg)
{
    s->scheme = (int)rb_param_int(cfg, "scheme", 0);
    return rb_nccl::setup(s, cfg, s->scheme == SCHEME_VECTOR);
}

static int run(void *st)
{
    rb_nccl::state *s = static_cast<rb_nccl::state *>(st);
    const rb_config *c = s->cfg;
    ncclDataType_t type = rb_nccl::type_of(c->dtype);
    ncclRedOp_t op = rb_nccl::op_of(c->op);
    if (s->scheme == SCHEME_TWO_LEVEL) {
        RB_CUDA_CHECK(c->host, rb_nccl::reduce(c, c->input, s->value_in, c->n, s->temp,
                                               &s->temp_bytes, s->stream));
        RB_NCCL_CHECK(c->host, ncclReduce(s->value_in, s->value, 1, type, op, 0, s->comm,
                                          s->stream));
        return RB_OK;
    }
    RB_NCCL_CHECK(c->host, ncclReduce(c->input, s->work, c->n, type, op, 0, s->comm, s->stream));
    if (c->rank == 0)
        RB_CUDA_CHECK(c->host, rb_nccl::reduce(c, s->work, s->value, c->n, s->temp,
                                               &s->temp_bytes, s->stream));
    return RB_OK;
}

static constexpr rb_plugin descriptor = rb_nccl::plugin({
    .name = "reduce",
    .summary = "rank 0 gets the whole reduction: ncclReduce of the vectors or of each slice's value",
    .params = params,
    .n_params = rb_cuda::count_of(params),
    .init = rb_cuda::init_with<rb_nccl::state, setup, rb_nccl::teardown>,
    .run = run,
    .collective = RB_COLLECTIVE_REDUCE,
});

RB_CUDA_PLUGIN_ENTRY(descriptor)
