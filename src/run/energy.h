/* src/run/energy.h: a row's energy, average power, SM clocks and throttle
 * reasons over its timed calls (`energy = on`).
 *
 * The meter reads, by the device's identity and not through its backend,
 * whichever the device has:
 *  - counter: NVML's total energy counter (host/nvml.h), for a device with
 *    an NVIDIA UUID ("GPU-...": the cuda backend, Vulkan on NVIDIA);
 *  - sampled: NVML's power drawn, sampled every ENERGY_SAMPLE_MS by a
 *    thread, where that counter is missing (before Volta);
 *  - rapl: the CPU's RAPL counters (host/rapl.h), for the cpu backend;
 *  - none, with the reason.
 * With NVML the same thread samples the SM clock and the throttle reasons
 * during the timed repetitions, not only before and after.
 *
 * The counter is read at the edges of each timed repetition (one call, or
 * one replayed batch), so that the energy covers the calls the time does:
 * energy per call = the sum of the deltas / the calls. A counter updates
 * coarsely (NVML's about every 20 to 100 ms; its resolution is measured
 * once per device): where the timed repetitions last less than
 * ENERGY_RESOLUTIONS updates each, the deltas say little, and the meter
 * measures the energy again over one longer batch of the same calls made
 * back to back, for energy_min_time seconds and at least ENERGY_RESOLUTIONS
 * updates (the time stays the timed repetitions'), and the row's
 * energy_note says so. */
#ifndef RB_RUN_ENERGY_H
#define RB_RUN_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include <redbench/backend.h>

#define ENERGY_SAMPLE_MS 2      /* the sampling thread's period */
#define ENERGY_RESOLUTIONS 20   /* counter updates a measurement spans at
                                   least: a quantisation error under 5% */

typedef struct rb_energy_meter rb_energy_meter;

/* What the meter saw over a region of calls. */
typedef struct rb_energy_reading {
    double joules;           /* energy over the region */
    double seconds;          /* wall time of the region */
    uint64_t calls;          /* calls made in it */
    double power_sum;        /* sampled: the power samples' sum */
    size_t power_samples;    /* and their count */
    uint32_t clock_min_mhz, clock_max_mhz; /* 0: not sampled */
    uint64_t throttle;       /* throttle reasons seen (RB_THROTTLE_*) */
} rb_energy_reading;

/* The meter for a device of backend `backend` (its name) whose identity
 * is info->uuid. Never NULL: energy_meter_source says what it reads. */
rb_energy_meter *energy_meter_open(const char *backend, const rb_device_info *info);
void energy_meter_close(rb_energy_meter *m);

/* enum rb_energy_source (base/names.h); for none, why[] says why. */
int energy_meter_source(const rb_energy_meter *m, const char **why);

/* The counter's update interval in seconds (measured on first call; the
 * sampling period for sampled). */
double energy_meter_resolution(rb_energy_meter *m);

/* A region of timed calls: begin starts the sampling thread (with NVML)
 * and clears *reading; edge_begin and edge_end go around each timed
 * repetition of `calls` calls and add its energy and wall time; end stops
 * the thread and adds what it sampled. */
void energy_region_begin(rb_energy_meter *m, rb_energy_reading *reading);
void energy_edge_begin(rb_energy_meter *m);
void energy_edge_end(rb_energy_meter *m, rb_energy_reading *reading, uint64_t calls);
void energy_region_end(rb_energy_meter *m, rb_energy_reading *reading);

/* ---- the arithmetic, for the row and its tests ---- */

/* Joules per call from a counter's delta in millijoules over `calls`
 * calls; 0 when no call. */
double energy_per_call_j(uint64_t delta_mj, uint64_t calls);

/* A counter's delta from `before` to `after`, across a wraparound at
 * `range` (0: none known, a smaller `after` is taken as no change). */
uint64_t energy_counter_delta(uint64_t before, uint64_t after, uint64_t range);

/* Whether timed repetitions of `median_s` seconds each are too short for
 * a counter updating every `resolution_s`. */
int energy_batch_too_short(double median_s, double resolution_s);

#endif
