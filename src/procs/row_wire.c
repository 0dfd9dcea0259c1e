/* src/procs/row_wire.c: a row packed into one message and back (see
 * row_wire.h). */
#include "procs/row_wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* What follows the row's members: the count of each part after them. */
typedef struct row_wire_counts {
    uint64_t samples;       /* doubles */
    uint64_t reason;        /* bytes, without a NUL */
    uint64_t energy_note;   /* bytes, without a NUL */
    uint64_t rank_energies; /* doubles */
} row_wire_counts;

static char *put(char *at, const void *data, size_t len)
{
    if (len)
        memcpy(at, data, len);
    return at + len;
}

char *row_wire_pack(const rb_row *row, size_t *length)
{
    row_wire_counts n = {
        .samples = row->samples_ns ? row->stats.count : 0,
        .reason = strlen(row_reason(row)),
        .energy_note = strlen(row_energy_note(row)),
        .rank_energies = row->rank_energy_j ? row->energy_ranks : 0,
    };
    *length = sizeof *row + sizeof n + n.samples * sizeof(double) + n.reason + n.energy_note +
              n.rank_energies * sizeof(double);
    char *buffer = xmalloc(*length), *at = buffer;
    at = put(at, row, sizeof *row);
    at = put(at, &n, sizeof n);
    at = put(at, row->samples_ns, n.samples * sizeof(double));
    at = put(at, row_reason(row), n.reason);
    at = put(at, row_energy_note(row), n.energy_note);
    put(at, row->rank_energy_j, n.rank_energies * sizeof(double));
    return buffer;
}

/* `count` items of `size` bytes at *at, within `left` bytes: a new copy
 * (NULL for none), `extra` bytes longer and zeroed there; *ok cleared when
 * they do not fit. */
static void *take(const char **at, size_t *left, uint64_t count, size_t size, size_t extra,
                  int *ok)
{
    if (!*ok || count > *left / size) {
        *ok = 0;
        return NULL;
    }
    size_t len = (size_t)count * size;
    void *copy = NULL;
    if (len) {
        copy = xcalloc(1, len + extra);
        memcpy(copy, *at, len);
    }
    *at += len;
    *left -= len;
    return copy;
}

int row_wire_unpack(const char *payload, size_t length, rb_row *row)
{
    row_wire_counts n;
    memset(row, 0, sizeof *row);
    if (length < sizeof *row + sizeof n)
        return -1;
    rb_row sent;
    memcpy(&sent, payload, sizeof sent);
    memcpy(&n, payload + sizeof sent, sizeof n);
    const char *at = payload + sizeof sent + sizeof n;
    size_t left = length - sizeof sent - sizeof n;
    int ok = 1;
    double *samples = take(&at, &left, n.samples, sizeof(double), 0, &ok);
    char *reason = take(&at, &left, n.reason, 1, 1, &ok);
    char *energy_note = take(&at, &left, n.energy_note, 1, 1, &ok);
    double *rank_energies = take(&at, &left, n.rank_energies, sizeof(double), 0, &ok);
    if (!ok || left != 0 || n.rank_energies > RB_ENERGY_RANKS_MAX ||
        n.reason >= RB_ROW_REASON_MAX || n.energy_note >= RB_ROW_ENERGY_NOTE_MAX) {
        free(samples);
        free(reason);
        free(energy_note);
        free(rank_energies);
        return -1;
    }
    *row = sent;
    row_disown(row);
    row->label[sizeof row->label - 1] = '\0';
    row->result_text[sizeof row->result_text - 1] = '\0';
    row->expected_text[sizeof row->expected_text - 1] = '\0';
    if (n.samples > row->stats.count) /* the samples the row counts, no more */
        n.samples = row->stats.count;
    row->stats.count = (size_t)n.samples;
    row->samples_ns = n.samples ? samples : NULL;
    if (!n.samples)
        free(samples);
    row->reason = reason;
    row->energy_note = energy_note;
    row->rank_energy_j = rank_energies;
    row->energy_ranks = (uint32_t)n.rank_energies;
    return 0;
}
