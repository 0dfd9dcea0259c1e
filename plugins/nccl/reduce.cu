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
    {"algo", RB_PARAM_CHOICE, "auto", 0, 0, rb_nccl::algo_words, 0,
     "NCCL's algorithm (NCCL_ALGO); auto: NCCL's choice"},
    {"proto", RB_PARAM_CHOICE, "auto", 0, 0, rb_nccl::proto_words, 0,
     "NCCL's protocol (NCCL_PROTO); auto: NCCL's choice"},
};

static int setup(rb_nccl::state *s, const rb_config *cfg)
{
    s->scheme = (int)rb_param_int(cfg, "scheme", 0);
    return rb_nccl::setup(s, cfg, s->scheme == SCHEME_VECTOR);
}

static int init(const rb_config *cfg, void **state)
{
    return rb_cuda::init_state<rb_nccl::state>(cfg, state, setup, rb_nccl::teardown);
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

static const rb_plugin descriptor = {
    .abi_major = REDBENCH_ABI_MAJOR,
    .abi_minor = REDBENCH_ABI_MINOR,
    .size = sizeof(rb_plugin),
    .name = "reduce",
    .summary = "rank 0 gets the whole reduction: ncclReduce of the vectors or of each slice's value",
    .version = "1.0",
    .backend = "cuda",
    .ops = RB_OP_BIT(RB_OP_SUM) | RB_OP_BIT(RB_OP_MIN) | RB_OP_BIT(RB_OP_MAX),
    .dtypes = rb_cuda::numeric_dtypes,
    .params = params,
    .n_params = rb_cuda::count_of(params),
    .init = init,
    .run = run,
    .verify = rb_nccl::verify,
    .teardown = rb_nccl::teardown,
    .collective = RB_COLLECTIVE_REDUCE,
    .rank_launch = RB_RANK_LAUNCH_FORK,
};

RB_CUDA_PLUGIN_ENTRY(descriptor)
