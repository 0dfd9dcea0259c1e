/* plugins/cuda/rows.cu: many reductions at once, one per row (ABI 1.6,
 * axis = row), fixed lengths or ragged (offsets), hand-written. Strategies:
 *   thread   a thread per row (many short rows: no combining at all)
 *   subwarp  `lanes` (2 .. 32) lanes of a warp per row, combined by
 *            shuffles within the group
 *   warp     a warp per row (rows of a few hundred to a few thousand)
 *   block    a block of `block` threads per row (long rows, enough of them
 *            to fill the device)
 *   blocks   `split` blocks per row (auto: enough to fill the device), each
 *            writing a partial to a workspace, combined by a second
 *            kernel, a warp per row (finish = kernel), or by the row's last
 *            block to finish, which takes the last of the row's tickets
 *            (finish = last-block: one launch) (few long rows)
 * `block` is the threads per block of every strategy. The group strategies
 * (thread, subwarp, warp) launch a group per row (grid = rows) or one wave
 * of the device whose groups each take every G-th row (grid = waves: no
 * block scheduled for a handful of short rows, no last partial wave).
 * `order = alternate` has every other call take the rows from the last
 * (group or block g reduces row rows - 1 - g), so that under a hot cache a
 * call starts on the rows the call before read last, still in L2 where
 * the input is not much larger than it (as onepass's order = alternate);
 * the answers are the same either way. Each group reads its
 * row with 16-byte loads from the row's first aligned address on
 * (shaped::reduce_range), so rows whose length is no multiple of 16 bytes
 * lose only their ends to single loads. f16 and bf16 are reduced in f32.
 * rows = 1 is the one reduction of n elements, by a single group. */
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

#include "shaped.cuh"

#ifndef ROWS_NAME
#define ROWS_NAME "rows"
#define ROWS_SUMMARY "a reduction per row: a thread, sub-warp, warp, block or blocks per row"
#endif

enum rows_strategy { THREAD, SUBWARP, WARP, BLOCK, BLOCKS };

static const char *const strategy_words[] = {"thread", "subwarp", "warp", "block", "blocks", NULL};

enum rows_grid { GRID_ROWS, GRID_WAVES };

static const char *const grid_words[] = {"rows", "waves", NULL};

enum rows_finish { FINISH_KERNEL, FINISH_LAST_BLOCK };

static const char *const finish_words[] = {"kernel", "last-block", NULL};

enum rows_order { ORDER_FORWARD, ORDER_ALTERNATE };

static const char *const order_words[] = {"forward", "alternate", NULL};

static const rb_param_spec rows_params[] = {
    {"strategy", RB_PARAM_CHOICE, "warp", 0, 0, strategy_words, 0,
     "thread | subwarp (lanes per row) | warp | block | blocks (split blocks per row)"},
    {"lanes", RB_PARAM_INT, "8", 2, 32, NULL, RB_PARAM_POW2,
     "strategy = subwarp: lanes of a warp per row"},
    {"block", RB_PARAM_INT, "256", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
    {"split", RB_PARAM_INT, "auto", 2, 1024, NULL, RB_PARAM_AUTO,
     "strategy = blocks: blocks per row (auto: enough to fill the device)"},
    {"grid", RB_PARAM_CHOICE, "rows", 0, 0, grid_words, 0,
     "strategy = thread, subwarp, warp: rows (a group per row) | waves (one wave of the device, each group taking every G-th row)"},
    {"finish", RB_PARAM_CHOICE, "kernel", 0, 0, finish_words, 0,
     "strategy = blocks: kernel (a second kernel combines a row's partials) | last-block (the row's last block does)"},
    {"order", RB_PARAM_CHOICE, "forward", 0, 0, order_words, 0,
     "forward | alternate (every other call takes the rows from the last, starting on what the call before left in L2)"},
};

/* The row that group or block g reduces in a call: g, or in a reversed
 * call (order = alternate) rows - 1 - g. */
__device__ __forceinline__ size_t row_of(size_t g, size_t rows, bool reverse)
{
    return reverse ? rows - 1 - g : g;
}

/* Where a reduced row's answer goes: its row (the planted twin
 * ROWS_TWIN_REVERSE_STORE: a reversed call's at the group's index). */
__device__ __forceinline__ size_t answer_slot(size_t g, size_t row)
{
#ifdef ROWS_TWIN_REVERSE_STORE
    (void)row;
    return g;
#else
    (void)g;
    return row;
#endif
}

/* Rows of `Lanes` lanes each (1: a thread per row; 32: a warp): group g
 * reduces rows g, g + stride, g + 2 stride, ... (grid = rows: stride is
 * `rows`, and group g row g alone; grid = waves: the grid's groups). A
 * warp goes on while its first group has a row, so that its lanes'
 * shuffles stay together; lanes past the last row take nothing but join
 * them. */
template <class R, class T, int Lanes>
__global__ void rows_group(const T *__restrict__ in, shaped::row_bounds bounds, size_t rows,
                           size_t stride, bool reverse, typename R::answer *__restrict__ values,
                           unsigned long long *__restrict__ indices)
{
    const size_t thread = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x % Lanes;
    size_t g = thread / Lanes, warp_first = (thread & ~(size_t)31) / Lanes;
    for (; warp_first < rows; g += stride, warp_first += stride) {
        R acc = R::identity();
        const size_t row = g < rows ? row_of(g, rows, reverse) : 0;
        if (g < rows) {
            unsigned long long begin, end;
            bounds.of(row, &begin, &end);
            shaped::reduce_range(acc, in + begin, 0, end - begin, lane, Lanes);
        }
        if constexpr (Lanes > 1)
            acc = shaped::group_reduce(acc, Lanes);
        if (lane == 0 && g < rows)
            acc.store(values, indices, answer_slot(g, row));
    }
}

/* `split` blocks per row (1: a block per row): block b reduces part
 * b % split of row b / split, a whole number of 16-byte vectors long (the
 * last part the rest), into partials[b], or, with split 1, into the row's
 * answer. With tickets (finish = last-block), the block that takes the
 * last of its row's tickets combines the row's partials in order into the
 * answer and sets the ticket back to 0 for the next call. */
template <class R, class T>
__global__ void rows_blocks(const T *__restrict__ in, shaped::row_bounds bounds, size_t rows,
                            unsigned split, bool reverse, R *__restrict__ partials,
                            unsigned *__restrict__ tickets,
                            typename R::answer *__restrict__ values,
                            unsigned long long *__restrict__ indices)
{
    constexpr unsigned long long V = 16 / sizeof(T);
    __shared__ R scratch[32];
    __shared__ bool is_last;
    const size_t g = blockIdx.x / split;
    const size_t r = row_of(g, rows, reverse);
    const unsigned part = blockIdx.x % split;
    unsigned long long begin, end;
    bounds.of(r, &begin, &end);
    const unsigned long long len = end - begin;
#ifdef ROWS_TWIN_CHUNK_DOWN
    /* the planted bug: a part's length rounded down to whole vectors */
    const unsigned long long chunk = len / split / V * V;
#else
    const unsigned long long chunk = ((len + split - 1) / split + V - 1) / V * V;
#endif
    unsigned long long from = (unsigned long long)part * chunk, to = from + chunk;
    if (from > len)
        from = len;
    if (to > len)
        to = len;
    R acc = R::identity();
    shaped::reduce_range(acc, in + begin, from, to, threadIdx.x, blockDim.x);
    acc = shaped::block_reduce(acc, scratch);
    if (split == 1) {
        if (threadIdx.x == 0)
            acc.store(values, indices, answer_slot(g, r));
        return;
    }
    if (threadIdx.x == 0) {
        partials[r * split + part] = acc; /* the row's parts in order, whichever call */
        if (tickets) {
            /* release: the partial above is seen by the row's last block */
            is_last = rb_cuda::take_ticket(&tickets[r]) == split - 1;
        }
    }
    if (!tickets)
        return;
    __syncthreads();
    if (!is_last)
        return;
    /* the row's last block: its partials, read past the L1, in order */
    acc = R::identity();
    for (unsigned k = threadIdx.x; k < split; k += blockDim.x)
        acc.merge(shaped::load_partial(&partials[(size_t)r * split + k]));
    acc = shaped::block_reduce(acc, scratch);
    if (threadIdx.x == 0) {
        acc.store(values, indices, answer_slot(g, r));
#ifndef ROWS_TWIN_TICKET_KEPT
        tickets[r] = 0; /* (the planted bug leaves it: later calls write nothing) */
#endif
    }
}

/* The second kernel of `blocks`: a warp per row combines its `split`
 * partials into the row's answer. */
template <class R>
__global__ void rows_finish(const R *__restrict__ partials, size_t rows, unsigned split,
                            typename R::answer *__restrict__ values,
                            unsigned long long *__restrict__ indices)
{
    const size_t r = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const unsigned lane = threadIdx.x % 32;
    R acc = R::identity();
    if (r < rows)
        for (unsigned k = lane; k < split; k += 32)
            acc.merge(partials[r * split + k]);
    acc = shaped::group_reduce(acc, 32);
    if (lane == 0 && r < rows)
        acc.store(values, indices, r);
}

typedef struct rows_state rows_state;
typedef int (*rows_launch_fn)(rows_state *s);

struct rows_state {
    const rb_config *cfg;
    cudaStream_t stream;
    int strategy;
    unsigned lanes;  /* lanes per row: 1 (thread), 2..16, 32 (warp) */
    unsigned block;  /* threads per block */
    unsigned split;  /* blocks per row (block: 1) */
    int grid_kind;   /* thread, subwarp, warp: GRID_ROWS or GRID_WAVES */
    int finish;      /* blocks: FINISH_KERNEL or FINISH_LAST_BLOCK */
    int order;       /* ORDER_FORWARD or ORDER_ALTERNATE */
    unsigned long long calls_queued; /* alternate: the parity of the next call */
    unsigned grid;   /* blocks of the first kernel */
    unsigned finish_grid;
    shaped::row_bounds bounds;
    shaped::answers out;
    void *partials; /* blocks: rows x split reducers */
    unsigned *tickets; /* blocks, finish = last-block: one a row */
    rows_launch_fn launch;
};

template <class R, class T, int Lanes> static void launch_group(rows_state *s, bool reverse)
{
    size_t stride = s->cfg->rows; /* grid = rows: one row a group */
    if (s->grid_kind == GRID_WAVES) {
#ifdef ROWS_TWIN_STRIDE_THREADS
        stride = (size_t)s->grid * s->block; /* the planted bug: threads, not groups */
#else
        stride = (size_t)s->grid * s->block / Lanes;
#endif
    }
    rows_group<R, T, Lanes><<<s->grid, s->block, 0, s->stream>>>(
        static_cast<const T *>(s->cfg->input), s->bounds, s->cfg->rows, stride, reverse,
        static_cast<typename R::answer *>(s->out.values), s->out.indices);
}

template <class R, class T> static int rows_launch(rows_state *s)
{
    typedef typename R::answer A;
    A *values = static_cast<A *>(s->out.values);
    /* alternate: every other call queued (in a graph: captured) reversed */
    const bool reverse = s->order == ORDER_ALTERNATE && (s->calls_queued & 1u);
    s->calls_queued++;
    switch (s->lanes) {
    case 1: launch_group<R, T, 1>(s, reverse); break;
    case 2: launch_group<R, T, 2>(s, reverse); break;
    case 4: launch_group<R, T, 4>(s, reverse); break;
    case 8: launch_group<R, T, 8>(s, reverse); break;
    case 16: launch_group<R, T, 16>(s, reverse); break;
    case 32: launch_group<R, T, 32>(s, reverse); break;
    default: /* block, blocks */
        rows_blocks<R, T><<<s->grid, s->block, 0, s->stream>>>(
            static_cast<const T *>(s->cfg->input), s->bounds, s->cfg->rows, s->split, reverse,
            static_cast<R *>(s->partials), s->tickets, values, s->out.indices);
        if (s->split > 1 && !s->tickets) {
            RB_CUDA_CHECK_LAUNCH(s->cfg->host);
            rows_finish<R><<<s->finish_grid, 256, 0, s->stream>>>(
                static_cast<const R *>(s->partials), s->cfg->rows, s->split, values,
                s->out.indices);
        }
        break;
    }
    RB_CUDA_CHECK_LAUNCH(s->cfg->host);
    return RB_OK;
}

static rows_launch_fn pick_launch(const rb_config *cfg)
{
    return shaped::with_reducer(cfg, [&](auto r, auto t) -> rows_launch_fn {
        return rows_launch<decltype(r), decltype(t)>;
    });
}

static size_t reducer_bytes(const rb_config *cfg)
{
    return shaped::with_reducer(cfg, [&](auto r, auto) -> size_t { return sizeof r; });
}

/* Blocks per row for split = auto: two waves of the device over all rows,
 * but no part shorter than 8 vectors per thread, and from 1 to 1024. */
static unsigned auto_split(const rb_config *cfg, unsigned block)
{
    const unsigned long long waves = 2ull * rb_cuda::wave_grid(cfg->device, block, ~(size_t)0 >> 1, 1);
    const unsigned long long per_part = 8ull * block * (16 / rb_dtype_size(cfg->dtype));
    unsigned long long split = (waves + cfg->rows - 1) / cfg->rows;
    const unsigned long long most = cfg->cols / per_part > 1 ? cfg->cols / per_part : 1;
    if (split > most)
        split = most;
    if (split > 1024)
        split = 1024;
    return split < 1 ? 1 : (unsigned)split;
}

/* The plan of a configuration: strategy, lanes, blocks and grids. */
static int rows_plan(rows_state *s, const rb_config *cfg)
{
    int status = shaped::check_shape(cfg, RB_AXIS_ROW);
    if (status != RB_OK)
        return status;
    s->cfg = cfg;
    s->strategy = (int)rb_param_int(cfg, "strategy", WARP);
    s->block = (unsigned)rb_param_int(cfg, "block", 256);
    s->split = 1;
    switch (s->strategy) {
    case THREAD: s->lanes = 1; break;
    case SUBWARP: s->lanes = (unsigned)rb_param_int(cfg, "lanes", 8); break;
    case WARP: s->lanes = 32; break;
    default: s->lanes = 0; break;
    }
    if (s->strategy == BLOCKS) {
        const int64_t split = rb_param_int(cfg, "split", 0);
        s->split = split ? (unsigned)split : auto_split(cfg, s->block);
    }
    s->finish = (int)rb_param_int(cfg, "finish", FINISH_KERNEL);
    s->order = (int)rb_param_int(cfg, "order", ORDER_FORWARD);
    if (s->finish == FINISH_LAST_BLOCK && s->strategy != BLOCKS) {
        cfg->host->error(cfg->host, "finish = last-block is the blocks strategy's "
                                    "(the others write each answer from one group)");
        return RB_UNSUPPORTED;
    }
    s->grid_kind = (int)rb_param_int(cfg, "grid", GRID_ROWS);
    if (s->grid_kind == GRID_WAVES && !s->lanes) {
        cfg->host->error(cfg->host, "grid = waves is the thread, subwarp and warp strategies' "
                                    "(block and blocks: grid = rows)");
        return RB_UNSUPPORTED;
    }
    unsigned long long grid;
    if (s->lanes) {
        const unsigned long long per_block = s->block / s->lanes; /* rows */
#ifdef ROWS_TWIN_ROUND_DOWN
        grid = cfg->rows / per_block ? cfg->rows / per_block : 1;
#else
        grid = (cfg->rows + per_block - 1) / per_block;
#endif
        if (s->grid_kind == GRID_WAVES)
            grid = rb_cuda::wave_grid(cfg->device, s->block, cfg->rows, per_block);
    } else {
        grid = cfg->rows * s->split;
    }
    if ((status = shaped::check_grid(cfg, grid, "the grid")) != RB_OK)
        return status;
    s->grid = (unsigned)grid;
    const unsigned long long finish = (cfg->rows + 7) / 8; /* 8 warps a block */
    if ((status = shaped::check_grid(cfg, finish, "the finish")) != RB_OK)
        return status;
    s->finish_grid = (unsigned)finish;
    s->bounds.offsets = cfg->ragged ? static_cast<const unsigned long long *>(cfg->offsets) : NULL;
    s->bounds.cols = cfg->cols;
    s->launch = pick_launch(cfg);
    return s->launch ? RB_OK : RB_UNSUPPORTED;
}

static int rows_describe(const rb_config *cfg, rb_description *out)
{
    rows_state s = {};
    const int status = rows_plan(&s, cfg);
    if (status != RB_OK)
        return status;
    const char *waves = s.grid_kind == GRID_WAVES ? "-waves" : "";
    switch (s.strategy) {
    case THREAD: snprintf(out->label, sizeof out->label, "thread%s", waves); break;
    case SUBWARP: snprintf(out->label, sizeof out->label, "subwarp-%u%s", s.lanes, waves); break;
    case WARP: snprintf(out->label, sizeof out->label, "warp%s", waves); break;
    case BLOCK: snprintf(out->label, sizeof out->label, "block-%u", s.block); break;
    default:
        snprintf(out->label, sizeof out->label, "blocks-%ux%u%s", s.split, s.block,
                 s.finish == FINISH_LAST_BLOCK && s.split > 1 ? "-last" : "");
        break;
    }
    if (s.order == ORDER_ALTERNATE) {
        const size_t used = strlen(out->label);
        snprintf(out->label + used, sizeof out->label - used, "-alt");
    }
    return RB_OK;
}

static int rows_setup(rows_state *s, const rb_config *cfg)
{
    const int status = rows_plan(s, cfg);
    if (status != RB_OK)
        return status;
    s->stream = (cudaStream_t)cfg->queue;
    if (shaped::answers_alloc(cfg, &s->out) != RB_OK)
        return RB_ERROR;
    if (s->split > 1)
        RB_CUDA_CHECK(cfg->host,
                      cudaMalloc(&s->partials, cfg->rows * s->split * reducer_bytes(cfg)));
    if (s->split > 1 && s->finish == FINISH_LAST_BLOCK) {
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->tickets, cfg->rows * sizeof *s->tickets));
        RB_CUDA_CHECK(cfg->host, cudaMemsetAsync(s->tickets, 0, cfg->rows * sizeof *s->tickets,
                                                 s->stream));
    }
    return RB_OK;
}

static int rows_run(void *state)
{
    rows_state *s = static_cast<rows_state *>(state);
    return s->launch(s);
}

static int rows_verify(void *state, rb_result *result)
{
    rows_state *s = static_cast<rows_state *>(state);
    return shaped::answers_read(s->cfg, s->stream, &s->out, result);
}

static void rows_teardown(void *state)
{
    rows_state *s = static_cast<rows_state *>(state);
    if (!s)
        return;
    shaped::answers_free(&s->out);
    cudaFree(s->partials);
    cudaFree(s->tickets);
    free(s);
}

static constexpr rb_plugin rows_plugin = rb_cuda::plugin({
    .name = ROWS_NAME,
    .summary = ROWS_SUMMARY,
    .ops = shaped::ops,
    .dtypes = shaped::dtypes,
    .params = rows_params, .n_params = rb_cuda::count_of(rows_params),
    .describe = rows_describe, .init = rb_cuda::init_with<rows_state, rows_setup, rows_teardown>,
    .run = rows_run, .verify = rows_verify, .teardown = rows_teardown,
    .shapes = RB_SHAPE_ROWS | RB_SHAPE_RAGGED,
});

RB_CUDA_PLUGIN_ENTRY(rows_plugin)
