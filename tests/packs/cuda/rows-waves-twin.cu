/* tests/packs/cuda/rows-waves-twin.cu: the planted twin of the cuda pack's
 * rows strategies at grid = waves: plugins/cuda/rows.cu built with
 * ROWS_TWIN_STRIDE_THREADS, so that each group of `lanes` lanes steps
 * through the rows by the grid's threads where it should step by its
 * groups: with more rows than groups, and more than one lane a group,
 * the rows from the grid's group count on are skipped (between every
 * lanes-th stride) and never reduced. Correct with grid = rows, and with a
 * thread per row. The host must judge it wrong and name a row
 * (tests/packs/cuda/test_gpu_shaped.sh). */
#define ROWS_NAME "rows-waves-twin"
#define ROWS_SUMMARY "rows whose wave of groups steps by threads, not groups (a planted bug)"
#define ROWS_TWIN_STRIDE_THREADS 1
#include "../../../plugins/cuda/rows.cu"
