/* src/host/rapl.h: the CPU's energy counters (Intel RAPL, also offered for
 * AMD by Linux's powercap) as the kernel shows them under
 * /sys/class/powercap: each package zone intel-rapl:N has energy_uj, which
 * wraps at max_energy_range_uj. Read by the host for the cpu backend.
 * REDBENCH_POWERCAP_DIR names another folder of the same layout (tests). */
#ifndef RB_HOST_RAPL_H
#define RB_HOST_RAPL_H

#include <stddef.h>
#include <stdint.h>

#define RB_POWERCAP_DIR_ENV "REDBENCH_POWERCAP_DIR"
#define RB_RAPL_ZONES 8

/* The package zones and their last readings. */
typedef struct rb_rapl {
    size_t n_zones;
    char path[RB_RAPL_ZONES][256]; /* each zone's energy_uj */
    uint64_t range_uj[RB_RAPL_ZONES];
} rb_rapl;

/* Finds the package zones whose energy_uj can be read. 0, or -1 with
 * why[] filled ("no /sys/class/powercap/intel-rapl:* zone", "... not
 * readable (Permission denied)"). */
int rapl_open(rb_rapl *r, char *why, size_t why_len);

/* Every zone's counter now, in microjoules (uj[n_zones]); 0 on success. */
int rapl_read(const rb_rapl *r, uint64_t *uj);

/* The microjoules a zone used from `before` to `after`, across one
 * wraparound at range_uj (0: the range is not known, no wraparound). */
uint64_t rapl_delta_uj(uint64_t before, uint64_t after, uint64_t range_uj);

#endif
