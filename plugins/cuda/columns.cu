/* plugins/cuda/columns.cu: many reductions at once, one per column (ABI
 * 1.6, axis = column): answer c reduces elements c, cols + c, 2 cols + c,
 * ... of a row-major input. Strategies:
 *   thread  a thread per column: a warp's 32 threads read 32 neighbouring
 *           elements of each row in one access, and no thread waits for
 *           another (many columns)
 *   tile    a tile of `tile` columns per block, the block's rows of
 *           threads (block / tile of them) taking every (block / tile)-th
 *           row, the partials combined as a tree in shared memory (fewer
 *           columns: more threads per column)
 *   split   as tile, with the rows also split across `split` blocks
 *           (auto: enough to fill the device), whose partials go to a
 *           workspace that a second kernel, a thread per column, combines
 *           (few columns, many rows)
 * `vector` = yes has each thread take 16 bytes of neighbouring columns
 * (4 of f32, 8 of f16) with one load, where the columns' count is a
 * multiple of that (auto: wherever it is); no: one element a load. f16
 * and bf16 are reduced in f32. argmax's index is the row holding the
 * column's maximum (the first, on a tie). rows = 1 gives each column's one
 * element. */
#include <stdio.h>
#include <stdlib.h>

#include <redbench/cuda_helpers.cuh>
#include <redbench/plugin.h>

#include "shaped.cuh"

#ifndef COLUMNS_NAME
#define COLUMNS_NAME "columns"
#define COLUMNS_SUMMARY "a reduction per column: a thread, a tile of columns or split rows per block"
#endif

enum columns_strategy { THREAD, TILE, SPLIT };

static const char *const strategy_words[] = {"thread", "tile", "split", NULL};

enum columns_vector { VECTOR_AUTO, VECTOR_YES, VECTOR_NO };

static const char *const vector_words[] = {"auto", "yes", "no", NULL};

static const rb_param_spec columns_params[] = {
    {"strategy", RB_PARAM_CHOICE, "tile", 0, 0, strategy_words, 0,
     "thread (a thread per column) | tile (columns per block) | split (rows across blocks too)"},
    {"block", RB_PARAM_INT, "256", 32, 1024, NULL, RB_PARAM_POW2, "threads per block"},
    {"tile", RB_PARAM_INT, "32", 32, 1024, NULL, RB_PARAM_POW2,
     "strategy = tile, split: columns per block (at most block)"},
    {"split", RB_PARAM_INT, "auto", 2, 1024, NULL, RB_PARAM_AUTO,
     "strategy = split: blocks over each tile's rows (auto: enough to fill the device)"},
    {"vector", RB_PARAM_CHOICE, "auto", 0, 0, vector_words, 0,
     "yes (16 bytes of neighbouring columns a load) | no (one element a load) | auto (yes where the columns allow)"},
};

/* How many rows each thread loads before it takes any of them, so that
 * that many of its loads are in flight at once. A column's loads without
 * vectors are single elements (4 bytes of f32), a quarter of a row's
 * 16-byte vectors, so a column needs more of them in flight to keep the
 * memory busy: eight, where rows.cu keeps four vectors. With vectors (V
 * columns a load, 16 bytes), four, as rows.cu. */
template <int V> constexpr int rows_in_flight = V == 1 ? 8 : 4;

/* Elements per load for vector = yes: 16 bytes of T. */
template <class T> constexpr int vector_width = (int)(16 / sizeof(T));

/* The V elements of x (row `row`, columns c .. c + V - 1) taken into the
 * V reducers of those columns. */
template <class R, class T, int V>
__device__ __forceinline__ void take_columns(R (&acc)[V], const rb_cuda::vec<T, V> &x,
                                             unsigned long long row)
{
    rb_cuda::widen_each<typename R::answer>(
        x, [&](typename R::answer value, int j) { acc[j].take(value, row); });
}

/* A thread per V neighbouring columns (V = 1: a thread per column): the
 * thread's columns start at its index times V. */
template <class R, class T, int V>
__global__ void columns_thread(const T *__restrict__ in, size_t rows, size_t cols,
                               typename R::answer *__restrict__ values,
                               unsigned long long *__restrict__ indices)
{
    constexpr int L = rows_in_flight<V>;
    const size_t c = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * V;
    if (c >= cols)
        return;
    R acc[V];
#pragma unroll
    for (int j = 0; j < V; j++)
        acc[j] = R::identity();
    const T *p = in + c;
    size_t r = 0;
    /* L rows loaded before any is taken: their loads overlap */
    for (; r + L - 1 < rows; r += L) {
        rb_cuda::vec<T, V> x[L];
#pragma unroll
        for (int k = 0; k < L; k++)
            x[k] = rb_cuda::load_vec<T, V>(p + (r + k) * cols);
#pragma unroll
        for (int k = 0; k < L; k++)
            take_columns<R, T, V>(acc, x[k], r + k);
    }
    for (; r < rows; r++)
        take_columns<R, T, V>(acc, rb_cuda::load_vec<T, V>(p + r * cols), r);
#pragma unroll
    for (int j = 0; j < V; j++)
        acc[j].store(values, indices, c + j);
}

/* Blocks of blockDim.x V columns (a tile) by blockDim.y rows of threads:
 * block (x, y) takes the tile of columns from x blockDim.x V on, and rows
 * [y rows_per_part, (y + 1) rows_per_part); thread (tx, ty) its V columns
 * from tx V on, every blockDim.y-th row of those from ty on. The rows of
 * threads combine as a tree in shared memory, a column at a time; the
 * first writes the column's answer (one part: gridDim.y 1) or its part's
 * partial. */
extern __shared__ __align__(16) unsigned char columns_shared[];

template <class R, class T, int V>
__global__ void columns_tile(const T *__restrict__ in, size_t rows, size_t cols,
                             size_t rows_per_part, R *__restrict__ partials,
                             typename R::answer *__restrict__ values,
                             unsigned long long *__restrict__ indices)
{
    constexpr int L = rows_in_flight<V>;
    R *shared = reinterpret_cast<R *>(columns_shared);
#ifdef COLUMNS_TWIN_VECTOR_UNITS
    /* the planted bug: the tile's first column counted in vectors */
    const size_t c = (size_t)blockIdx.x * blockDim.x + (size_t)threadIdx.x * V;
#else
    const size_t c = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * V;
#endif
    const size_t first = (size_t)blockIdx.y * rows_per_part;
    const size_t last = first + rows_per_part < rows ? first + rows_per_part : rows;
    R acc[V];
#pragma unroll
    for (int j = 0; j < V; j++)
        acc[j] = R::identity();
    if (c < cols) {
        const size_t step = blockDim.y;
        size_t r = first + threadIdx.y;
        /* L rows loaded before any is taken: their loads overlap */
        for (; r + (L - 1) * step < last; r += L * step) {
            rb_cuda::vec<T, V> x[L];
#pragma unroll
            for (int k = 0; k < L; k++)
                x[k] = rb_cuda::load_vec<T, V>(in + (r + k * step) * cols + c);
#pragma unroll
            for (int k = 0; k < L; k++)
                take_columns<R, T, V>(acc, x[k], r + k * step);
        }
        for (; r < last; r += step)
            take_columns<R, T, V>(acc, rb_cuda::load_vec<T, V>(in + r * cols + c), r);
    }
    /* The rows of threads combined as a tree (blockDim.y is a power of
     * two), one column of the thread's V at a time: at each step the lower
     * half takes the upper half's partials. A step reads only slots
     * [half, 2 half) and writes only [0, half), so no slot is read in the
     * step that writes it; the barrier that ends a column's last step
     * comes before the next column's writes. */
    const unsigned slot = threadIdx.y * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < V; j++) {
        if (blockDim.y == 1)
            break;
        shared[slot] = acc[j];
        __syncthreads();
        for (unsigned half = blockDim.y / 2; half > 0; half /= 2) {
            if (threadIdx.y < half) {
                acc[j].merge(shared[slot + half * blockDim.x]);
                shared[slot] = acc[j];
            }
            __syncthreads();
        }
    }
    if (threadIdx.y != 0 || c >= cols)
        return;
#pragma unroll
    for (int j = 0; j < V; j++) {
        if (gridDim.y == 1)
            acc[j].store(values, indices, c + j);
        else
            partials[(size_t)blockIdx.y * cols + c + j] = acc[j];
    }
}

/* The second kernel of split: a thread per column combines its parts'
 * partials, in order. */
template <class R>
__global__ void columns_finish(const R *__restrict__ partials, size_t cols, unsigned parts,
                               typename R::answer *__restrict__ values,
                               unsigned long long *__restrict__ indices)
{
    const size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    R acc = R::identity();
    for (unsigned k = 0; k < parts; k++)
        acc.merge(partials[(size_t)k * cols + c]);
    acc.store(values, indices, c);
}

typedef struct columns_state columns_state;
typedef int (*columns_launch_fn)(columns_state *s);

struct columns_state {
    const rb_config *cfg;
    cudaStream_t stream;
    int strategy;
    unsigned block;     /* threads per block */
    unsigned tile;      /* columns per block (tile, split) */
    unsigned vector;    /* columns per load: 1, or 16 bytes of elements */
    unsigned parts;     /* blocks over the rows (tile: 1) */
    size_t rows_per_part;
    unsigned grid;      /* thread: blocks; tile, split: tiles (grid's x) */
    unsigned finish_grid;
    size_t reducer_bytes;
    shaped::answers out;
    void *partials;     /* split: parts x cols reducers */
    columns_launch_fn launch;
};

template <class R, class T, int V> static void launch_first(columns_state *s)
{
    typedef typename R::answer A;
    const T *in = static_cast<const T *>(s->cfg->input);
    A *values = static_cast<A *>(s->out.values);
    const size_t rows = s->cfg->rows, cols = s->cfg->cols;
    if (s->strategy == THREAD) {
        columns_thread<R, T, V><<<s->grid, s->block, 0, s->stream>>>(in, rows, cols, values,
                                                                      s->out.indices);
    } else {
        const unsigned across = s->tile / V; /* threads across a tile */
        const dim3 grid(s->grid, s->parts), block(across, s->block / across);
        columns_tile<R, T, V><<<grid, block, s->block * sizeof(R), s->stream>>>(
            in, rows, cols, s->rows_per_part, static_cast<R *>(s->partials), values,
            s->out.indices);
    }
}

template <class R, class T> static int columns_launch(columns_state *s)
{
    typedef typename R::answer A;
    A *values = static_cast<A *>(s->out.values);
    if (s->vector == 1)
        launch_first<R, T, 1>(s);
    else
        launch_first<R, T, vector_width<T>>(s);
    if (s->strategy != THREAD) {
        if (s->parts > 1) {
            RB_CUDA_CHECK_LAUNCH(s->cfg->host);
            columns_finish<R><<<s->finish_grid, 256, 0, s->stream>>>(
                static_cast<const R *>(s->partials), s->cfg->cols, s->parts, values,
                s->out.indices);
        }
    }
    RB_CUDA_CHECK_LAUNCH(s->cfg->host);
    return RB_OK;
}

static columns_launch_fn pick_launch(const rb_config *cfg)
{
    return shaped::with_reducer(cfg, [&](auto r, auto t) -> columns_launch_fn {
        return columns_launch<decltype(r), decltype(t)>;
    });
}

/* Parts for split = auto: two waves of the device over all tiles, but no
 * part under 8 rows per row of threads, and from 1 to 1024. */
static unsigned auto_parts(const rb_config *cfg, unsigned block, unsigned across, unsigned tiles)
{
    const unsigned long long waves = 2ull * rb_cuda::wave_grid(cfg->device, block, ~(size_t)0 >> 1, 1);
    const unsigned long long thread_rows = block / across;
    unsigned long long parts = (waves + tiles - 1) / tiles;
    const unsigned long long most = cfg->rows / (8 * thread_rows) > 1 ? cfg->rows / (8 * thread_rows) : 1;
    if (parts > most)
        parts = most;
    if (parts > 1024)
        parts = 1024;
    return parts < 1 ? 1 : (unsigned)parts;
}

static int columns_plan(columns_state *s, const rb_config *cfg)
{
    int status = shaped::check_shape(cfg, RB_AXIS_COLUMN);
    if (status != RB_OK)
        return status;
    s->cfg = cfg;
    s->strategy = (int)rb_param_int(cfg, "strategy", TILE);
    s->block = (unsigned)rb_param_int(cfg, "block", 256);
    s->tile = (unsigned)rb_param_int(cfg, "tile", 32);
    s->parts = 1;
    const unsigned width = shaped::with_reducer(
        cfg, [&](auto, auto t) -> unsigned { return vector_width<decltype(t)>; });
    const int vector = (int)rb_param_int(cfg, "vector", VECTOR_AUTO);
    const bool fits = cfg->cols % width == 0;
    if (vector == VECTOR_YES && !fits) {
        cfg->host->error(cfg->host,
                         "vector = yes loads %u columns at once: %llu columns are no multiple "
                         "of %u (vector = no or auto)",
                         width, (unsigned long long)cfg->cols, width);
        return RB_UNSUPPORTED;
    }
    s->vector = vector != VECTOR_NO && fits ? width : 1;
    unsigned long long grid;
    if (s->strategy == THREAD) {
        const unsigned long long loads = cfg->cols / s->vector; /* per row */
#ifdef COLUMNS_TWIN_ROUND_DOWN
        grid = loads / s->block ? loads / s->block : 1;
#else
        grid = (loads + s->block - 1) / s->block;
#endif
    } else {
        if (s->tile > s->block) {
            cfg->host->error(cfg->host, "tile = %u columns need a block of at least %u threads",
                             s->tile, s->tile);
            return RB_UNSUPPORTED;
        }
#ifdef COLUMNS_TWIN_ROUND_DOWN
        grid = cfg->cols / s->tile ? cfg->cols / s->tile : 1;
#else
        grid = (cfg->cols + s->tile - 1) / s->tile;
#endif
    }
    if ((status = shaped::check_grid(cfg, grid, "the grid")) != RB_OK)
        return status;
    s->grid = (unsigned)grid;
    if (s->strategy == SPLIT) {
        const int64_t split = rb_param_int(cfg, "split", 0);
        s->parts =
            split ? (unsigned)split : auto_parts(cfg, s->block, s->tile / s->vector, s->grid);
    }
    s->rows_per_part = (cfg->rows + s->parts - 1) / s->parts;
    const unsigned long long finish = (cfg->cols + 255) / 256;
    if ((status = shaped::check_grid(cfg, finish, "the finish")) != RB_OK)
        return status;
    s->finish_grid = (unsigned)finish;
    s->reducer_bytes =
        shaped::with_reducer(cfg, [&](auto r, auto) -> size_t { return sizeof r; });
    s->launch = pick_launch(cfg);
    return s->launch ? RB_OK : RB_UNSUPPORTED;
}

static int columns_describe(const rb_config *cfg, rb_description *out)
{
    columns_state s = {};
    const int status = columns_plan(&s, cfg);
    if (status != RB_OK)
        return status;
    /* tile-COLUMNSxROWS (of threads), split-COLUMNSxROWS/PARTS; -vV: V
     * columns a load */
    const unsigned thread_rows = s.block / (s.tile / s.vector);
    char vector[16] = "";
    if (s.vector > 1)
        snprintf(vector, sizeof vector, "-v%u", s.vector);
    switch (s.strategy) {
    case THREAD: snprintf(out->label, sizeof out->label, "thread%s", vector); break;
    case TILE:
        snprintf(out->label, sizeof out->label, "tile-%ux%u%s", s.tile, thread_rows, vector);
        break;
    default:
        snprintf(out->label, sizeof out->label, "split-%ux%u/%u%s", s.tile, thread_rows, s.parts,
                 vector);
        break;
    }
    return RB_OK;
}

static int columns_setup(columns_state *s, const rb_config *cfg)
{
    const int status = columns_plan(s, cfg);
    if (status != RB_OK)
        return status;
    if (s->vector > 1 && (uintptr_t)cfg->input % 16 != 0) {
        cfg->host->error(cfg->host, "the input is not 16-byte aligned for vector loads "
                                    "(vector = no reads it an element at a time)");
        return RB_UNSUPPORTED;
    }
    s->stream = (cudaStream_t)cfg->queue;
    if (shaped::answers_alloc(cfg, &s->out) != RB_OK)
        return RB_ERROR;
    if (s->parts > 1)
        RB_CUDA_CHECK(cfg->host, cudaMalloc(&s->partials, cfg->cols * s->parts * s->reducer_bytes));
    return RB_OK;
}

static int columns_run(void *state)
{
    columns_state *s = static_cast<columns_state *>(state);
    return s->launch(s);
}

static int columns_verify(void *state, rb_result *result)
{
    columns_state *s = static_cast<columns_state *>(state);
    return shaped::answers_read(s->cfg, s->stream, &s->out, result);
}

static void columns_teardown(void *state)
{
    columns_state *s = static_cast<columns_state *>(state);
    if (!s)
        return;
    shaped::answers_free(&s->out);
    cudaFree(s->partials);
    free(s);
}

static constexpr rb_plugin columns_plugin = rb_cuda::plugin({
    .name = COLUMNS_NAME,
    .summary = COLUMNS_SUMMARY,
    .ops = shaped::ops,
    .dtypes = shaped::dtypes,
    .params = columns_params, .n_params = rb_cuda::count_of(columns_params),
    .describe = columns_describe,
    .init = rb_cuda::init_with<columns_state, columns_setup, columns_teardown>,
    .run = columns_run, .verify = columns_verify, .teardown = columns_teardown,
    .shapes = RB_SHAPE_COLUMNS,
});

RB_CUDA_PLUGIN_ENTRY(columns_plugin)
