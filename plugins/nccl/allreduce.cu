/* plugins/nccl/allreduce.cu: the whole data set's reduction on every rank,
 * through NCCL, four ways (`scheme`):
 *   allreduce    ncclAllReduce of the ranks' n-element vectors, element by
 *                element, then CUB reduces the result to the answer
 *   rs-ag        the same as ncclReduceScatter then ncclAllGather (n a
 *                multiple of the ranks)
 *   two-level    CUB reduces each rank's slice to one value, then
 *                ncclAllReduce of those values
 *   host-staged  each slice copied to the host and reduced there, the ranks'
 *                values combined through the host: the baseline without
 *                NCCL's links
 * `algo` and `proto` choose NCCL's algorithm and protocol (NCCL_ALGO,
 * NCCL_PROTO) where NCCL lets them be chosen. `result = vector` (allreduce
 * and rs-ag) times the collective alone, out of place as nccl-tests does,
 * and hands the n-element vector to the host, which judges every element. */
#include "nccl_pack.cuh"

enum scheme { SCHEME_ALLREDUCE, SCHEME_RS_AG, SCHEME_TWO_LEVEL, SCHEME_HOST_STAGED };
static const char *const scheme_words[] = {"allreduce", "rs-ag", "two-level", "host-staged",
                                           NULL};

static const rb_param_spec params[] = {
    {"scheme", RB_PARAM_CHOICE, "allreduce", 0, 0, scheme_words, 0,
     "allreduce, rs-ag (reduce-scatter + all-gather), two-level (local, then values), "
     "host-staged"},
    rb_nccl::algo_param,
    rb_nccl::proto_param,
    rb_nccl::result_param,
};

static int describe(const rb_config *cfg, rb_description *out)
{
    (void)out;
    int scheme = (int)rb_param_int(cfg, "scheme", 0);
    if (rb_param_int(cfg, "result", 0) == 1 && scheme != SCHEME_ALLREDUCE &&
        scheme != SCHEME_RS_AG) {
        cfg->host->error(cfg->host, "result = vector needs the n-element collective: scheme = "
                         "allreduce or rs-ag");
        return RB_UNSUPPORTED;
    }
    if (scheme == SCHEME_RS_AG && cfg->n % cfg->n_ranks) {
        cfg->host->error(cfg->host, "rs-ag needs n a multiple of the ranks (n = %llu, %u ranks)",
                         (unsigned long long)cfg->n, cfg->n_ranks);
        return RB_UNSUPPORTED;
    }
    return RB_OK;
}

static int setup(rb_nccl::state *s, const rb_config *cfg)
{
    s->scheme = (int)rb_param_int(cfg, "scheme", 0);
    int st = rb_nccl::setup(s, cfg, s->scheme == SCHEME_ALLREDUCE || s->scheme == SCHEME_RS_AG);
    if (st != RB_OK)
        return st;
    if (s->scheme == SCHEME_HOST_STAGED) {
        RB_CUDA_CHECK(cfg->host, cudaMallocHost(&s->host_copy, s->work_bytes));
        s->answer_on_host = 1;
    }
    return RB_OK;
}

/* host-staged: the slice's value on the host, combined with the others'. */
static int run_host_staged(rb_nccl::state *s)
{
    const rb_config *c = s->cfg;
    size_t size = rb_dtype_size(c->dtype);
    RB_CUDA_CHECK(c->host, cudaMemcpyAsync(s->host_copy, c->input, s->work_bytes,
                                           cudaMemcpyDeviceToHost, s->stream));
    RB_CUDA_CHECK(c->host, cudaStreamSynchronize(s->stream));
    unsigned char mine[8] = {0};
    rb_cuda::with_numeric_type(c->dtype, [&](auto t) {
        typedef decltype(t) T;
        typedef typename rb_cuda::sum_type<T>::type S;
        const T *x = static_cast<const T *>(s->host_copy);
        if (c->op == RB_OP_SUM) {
            typedef typename std::conditional<std::is_floating_point<T>::value, double, S>::type A;
            A sum = 0;
            for (uint64_t k = 0; k < c->n; k++)
                sum += (A)x[k];
            T v = (T)sum;
            memcpy(mine, &v, sizeof v);
        } else {
            T m = x[0];
            for (uint64_t k = 1; k < c->n; k++)
                m = c->op == RB_OP_MIN ? (x[k] < m ? x[k] : m) : (x[k] > m ? x[k] : m);
            memcpy(mine, &m, sizeof m);
        }
        return 0;
    });
    unsigned char *all = static_cast<unsigned char *>(calloc(c->n_ranks, 8));
    if (!all || c->host->exchange(c->host, mine, 8, all) != RB_OK) {
        free(all);
        c->host->error(c->host, "the ranks could not combine their values through the host");
        return RB_ERROR;
    }
    rb_cuda::with_numeric_type(c->dtype, [&](auto t) {
        typedef decltype(t) T;
        typedef typename rb_cuda::sum_type<T>::type S;
        T acc;
        memcpy(&acc, all, sizeof acc);
        for (uint32_t k = 1; k < c->n_ranks; k++) {
            T x;
            memcpy(&x, all + 8 * k, sizeof x);
            if (c->op == RB_OP_SUM)
                acc = std::is_floating_point<T>::value ? acc + x : (T)((S)acc + (S)x);
            else
                acc = c->op == RB_OP_MIN ? (x < acc ? x : acc) : (x > acc ? x : acc);
        }
        memcpy(s->answer, &acc, sizeof acc);
        return 0;
    });
    free(all);
    (void)size;
    return RB_OK;
}

static int run(void *st)
{
    rb_nccl::state *s = static_cast<rb_nccl::state *>(st);
    const rb_config *c = s->cfg;
    ncclDataType_t type = rb_nccl::type_of(c->dtype);
    ncclRedOp_t op = rb_nccl::op_of(c->op);
    switch (s->scheme) {
    case SCHEME_ALLREDUCE:
        RB_NCCL_CHECK(c->host, ncclAllReduce(c->input, s->work, c->n, type, op, s->comm,
                                             s->stream));
        break;
    case SCHEME_RS_AG: {
        size_t chunk = c->n / c->n_ranks;
        char *mine = static_cast<char *>(s->work) + chunk * c->rank * rb_dtype_size(c->dtype);
        RB_NCCL_CHECK(c->host, ncclReduceScatter(c->input, mine, chunk, type, op, s->comm,
                                                 s->stream));
        RB_NCCL_CHECK(c->host, ncclAllGather(mine, s->work, chunk, type, s->comm, s->stream));
        break;
    }
    case SCHEME_TWO_LEVEL:
        RB_CUDA_CHECK(c->host, rb_nccl::reduce(c, c->input, s->value_in, c->n, s->temp,
                                               &s->temp_bytes, s->stream));
        RB_NCCL_CHECK(c->host, ncclAllReduce(s->value_in, s->value, 1, type, op, s->comm,
                                             s->stream));
        return RB_OK;
    default:
        return run_host_staged(s);
    }
    if (s->vector)
        return RB_OK; /* the n-element answer is s->work */
    RB_CUDA_CHECK(c->host, rb_nccl::reduce(c, s->work, s->value, c->n, s->temp, &s->temp_bytes,
                                           s->stream));
    return RB_OK;
}

static constexpr rb_plugin descriptor = rb_nccl::plugin({
    .name = "allreduce",
    .summary = "every rank gets the whole reduction: ncclAllReduce, reduce-scatter + all-gather, "
               "two-level, or host-staged",
    .params = params,
    .n_params = rb_cuda::count_of(params),
    .describe = describe,
    .init = rb_cuda::init_with<rb_nccl::state, setup, rb_nccl::teardown>,
    .run = run,
    .collective = RB_COLLECTIVE_ALLREDUCE,
});

RB_CUDA_PLUGIN_ENTRY(descriptor)
