/* src/run/energy.c: the energy meter of a device (run/energy.h): its
 * source chosen from the device's identity, the counter's resolution, the
 * edges of each timed repetition, and the thread that samples power, SM
 * clock and throttle reasons during them. */
#include "run/energy.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/names.h"
#include "base/util.h"
#include "host/nvml.h"
#include "host/rapl.h"

/* The longest the resolution probe waits for the counter to move twice. */
#define RESOLUTION_PROBE_S 0.4

struct rb_energy_meter {
    int source;            /* enum rb_energy_source */
    char why[256];
    rb_nvml *nvml;         /* NULL without NVML */
    rb_rapl rapl;
    double resolution_s;   /* 0 until measured */
    /* the edges of the repetition in progress */
    uint64_t edge_mj;
    uint64_t edge_uj[RB_RAPL_ZONES];
    double edge_at;
    int edge_ok;
    /* the sampling thread */
    pthread_t thread;
    int thread_running;
    atomic_int stop;
    pthread_mutex_t lock;
    double power_sum;
    size_t power_samples;
    uint32_t clock_min, clock_max;
    uint64_t throttle;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double energy_per_call_j(uint64_t delta_mj, uint64_t calls)
{
    return calls ? (double)delta_mj / 1e3 / (double)calls : 0;
}

uint64_t energy_counter_delta(uint64_t before, uint64_t after, uint64_t range)
{
    return rapl_delta_uj(before, after, range);
}

int energy_batch_too_short(double median_s, double resolution_s)
{
    return median_s < ENERGY_RESOLUTIONS * resolution_s;
}

/* An NVIDIA device's UUID, as NVML takes it. */
static int nvidia_uuid(const char *uuid)
{
    return strncmp(uuid, "GPU-", 4) == 0;
}

rb_energy_meter *energy_meter_open(const char *backend, const rb_device_info *info)
{
    rb_energy_meter *m = xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->lock, NULL);
    m->source = RB_ENERGY_NONE;
    if (info && nvidia_uuid(info->uuid)) {
        char why[200];
        m->nvml = nvml_open_device(info->uuid, why, sizeof why);
        if (!m->nvml)
            snprintf(m->why, sizeof m->why, "%s", why);
        else if (nvml_has_energy(m->nvml))
            m->source = RB_ENERGY_COUNTER;
        else {
            double w;
            if (nvml_power_w(m->nvml, &w) == 0)
                m->source = RB_ENERGY_SAMPLED;
            else
                snprintf(m->why, sizeof m->why, "NVML offers neither the energy counter nor "
                         "the power drawn for this device");
        }
    } else if (strcmp(backend, "cpu") == 0) {
        if (rapl_open(&m->rapl, m->why, sizeof m->why) == 0)
            m->source = RB_ENERGY_RAPL;
    } else {
        snprintf(m->why, sizeof m->why, "the %.32s backend's device has no NVIDIA UUID and no "
                 "energy counter the host can read", backend);
    }
    return m;
}

void energy_meter_close(rb_energy_meter *m)
{
    if (!m)
        return;
    pthread_mutex_destroy(&m->lock);
    free(m);
}

int energy_meter_source(const rb_energy_meter *m, const char **why)
{
    if (why)
        *why = m->why;
    return m->source;
}

/* The total of the counters now, in millijoules (RAPL's microjoules are
 * kept per zone for their wraparound). */
static int read_counter(rb_energy_meter *m, uint64_t *mj, uint64_t *uj)
{
    if (m->source == RB_ENERGY_COUNTER)
        return nvml_energy_mj(m->nvml, mj);
    if (m->source == RB_ENERGY_RAPL)
        return rapl_read(&m->rapl, uj);
    return -1;
}

/* The energy in joules between two readings. */
static double counter_joules(const rb_energy_meter *m, uint64_t mj0, const uint64_t *uj0,
                             uint64_t mj1, const uint64_t *uj1)
{
    if (m->source == RB_ENERGY_COUNTER)
        return (mj1 >= mj0 ? mj1 - mj0 : 0) / 1e3;
    double uj = 0;
    for (size_t k = 0; k < m->rapl.n_zones; k++)
        uj += (double)rapl_delta_uj(uj0[k], uj1[k], m->rapl.range_uj[k]);
    return uj / 1e6;
}

double energy_meter_resolution(rb_energy_meter *m)
{
    if (m->resolution_s > 0)
        return m->resolution_s;
    if (m->source == RB_ENERGY_SAMPLED) {
        m->resolution_s = ENERGY_SAMPLE_MS * 1e-3;
        return m->resolution_s;
    }
    /* the time between two changes of the counter, read in a loop */
    uint64_t mj = 0, uj[RB_RAPL_ZONES] = {0}, last_mj = 0, last_uj[RB_RAPL_ZONES] = {0};
    double started = now_s(), changed = 0;
    int changes = 0;
    if (read_counter(m, &last_mj, last_uj) != 0) {
        m->resolution_s = RESOLUTION_PROBE_S;
        return m->resolution_s;
    }
    while (changes < 2 && now_s() - started < RESOLUTION_PROBE_S) {
        if (read_counter(m, &mj, uj) != 0)
            break;
        if (counter_joules(m, last_mj, last_uj, mj, uj) > 0) {
            double t = now_s();
            if (++changes == 2)
                m->resolution_s = t - changed;
            changed = t;
            last_mj = mj;
            memcpy(last_uj, uj, sizeof uj);
        }
        struct timespec pause = {0, 200000}; /* 0.2 ms */
        nanosleep(&pause, NULL);
    }
    if (m->resolution_s <= 0)
        m->resolution_s = RESOLUTION_PROBE_S; /* no two changes seen: coarse */
    if (m->resolution_s < 1e-3)
        m->resolution_s = 1e-3;
    return m->resolution_s;
}

/* One sample of power, SM clock and throttle reasons. */
static void sample_once(rb_energy_meter *m)
{
    double w;
    uint32_t mhz;
    uint64_t reasons;
    int have_w = m->source == RB_ENERGY_SAMPLED && nvml_power_w(m->nvml, &w) == 0;
    int have_mhz = nvml_sm_clock(m->nvml, &mhz) == 0 && mhz > 0;
    int have_reasons = nvml_throttle(m->nvml, &reasons) == 0;
    pthread_mutex_lock(&m->lock);
    if (have_w) {
        m->power_sum += w;
        m->power_samples++;
    }
    if (have_mhz) {
        if (!m->clock_min || mhz < m->clock_min)
            m->clock_min = mhz;
        if (mhz > m->clock_max)
            m->clock_max = mhz;
    }
    if (have_reasons)
        m->throttle |= reasons;
    pthread_mutex_unlock(&m->lock);
}

static void *sampler(void *arg)
{
    rb_energy_meter *m = arg;
    while (!atomic_load(&m->stop)) {
        sample_once(m);
        struct timespec pause = {0, ENERGY_SAMPLE_MS * 1000000L};
        nanosleep(&pause, NULL);
    }
    return NULL;
}

void energy_region_begin(rb_energy_meter *m, rb_energy_reading *reading)
{
    memset(reading, 0, sizeof *reading);
    m->power_sum = 0;
    m->power_samples = 0;
    m->clock_min = m->clock_max = 0;
    m->throttle = 0;
    m->edge_ok = 0;
    m->thread_running = 0;
    if (!m->nvml)
        return;
    atomic_store(&m->stop, 0);
    sample_once(m);
    m->thread_running = pthread_create(&m->thread, NULL, sampler, m) == 0;
}

void energy_edge_begin(rb_energy_meter *m)
{
    m->edge_ok = m->source == RB_ENERGY_SAMPLED ||
                 read_counter(m, &m->edge_mj, m->edge_uj) == 0;
    m->edge_at = now_s();
}

void energy_edge_end(rb_energy_meter *m, rb_energy_reading *reading, uint64_t calls)
{
    double at = now_s();
    uint64_t mj = 0, uj[RB_RAPL_ZONES] = {0};
    if (!m->edge_ok)
        return;
    m->edge_ok = 0;
    if (m->source != RB_ENERGY_SAMPLED) {
        if (read_counter(m, &mj, uj) != 0)
            return;
        reading->joules += counter_joules(m, m->edge_mj, m->edge_uj, mj, uj);
    }
    reading->seconds += at - m->edge_at;
    reading->calls += calls;
}

void energy_region_end(rb_energy_meter *m, rb_energy_reading *reading)
{
    if (m->thread_running) {
        atomic_store(&m->stop, 1);
        pthread_join(m->thread, NULL);
        m->thread_running = 0;
        sample_once(m);
    }
    reading->power_sum = m->power_sum;
    reading->power_samples = m->power_samples;
    reading->clock_min_mhz = m->clock_min;
    reading->clock_max_mhz = m->clock_max;
    reading->throttle = m->throttle;
    if (m->source == RB_ENERGY_SAMPLED && m->power_samples)
        reading->joules = m->power_sum / (double)m->power_samples * reading->seconds;
}
