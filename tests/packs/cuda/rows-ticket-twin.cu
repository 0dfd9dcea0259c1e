/* tests/packs/cuda/rows-ticket-twin.cu: the planted twin of the cuda pack's
 * blocks strategy at finish = last-block: plugins/cuda/rows.cu built with
 * ROWS_TWIN_TICKET_KEPT, so that a row's last block never sets its ticket
 * back to 0: the first call is right, and every later call finds the
 * tickets past the last and writes no answer, so the answers stay those of
 * the first call's input (a remembered answer). Correct at finish =
 * kernel. The host must judge it wrong: its probes change the input
 * between calls (tests/packs/cuda/test_gpu_shaped.sh). */
#define ROWS_NAME "rows-ticket-twin"
#define ROWS_SUMMARY "rows whose last blocks keep their tickets: later calls answer nothing (a planted bug)"
#define ROWS_TWIN_TICKET_KEPT 1
#include "../../../plugins/cuda/rows.cu"
