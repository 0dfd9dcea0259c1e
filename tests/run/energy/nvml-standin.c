/* tests/run/energy/nvml-standin.c: a stand-in for NVML (libnvidia-ml) that
 * the host opens through REDBENCH_NVML_LIBRARY, as it opens the real one,
 * answering from a script: the file that REDBENCH_NVML_STANDIN names, of
 * `key = value` lines (defaults in brackets):
 *   uuid = GPU-...         the one device it knows [GPU-5a17d000-0000-4000-8000-000000000001]
 *   power_w = 250          the power drawn, constant [250]
 *   energy = counter       counter: the total energy counter is offered;
 *                          missing: NVML_ERROR_NOT_SUPPORTED for it [counter]
 *   energy_period_ms = 50  the counter moves in steps, every this many
 *                          milliseconds of the monotonic clock (0: every
 *                          read) [50]
 *   sm_mhz = 1500, 1980    the SM clock, each read the next of the list [1980]
 *   throttle = 0x4         the clock event reasons reported [0]
 * The counter is power_w x the monotonic clock's milliseconds (whole
 * periods), so that every process sees the same counter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NVML_SUCCESS 0
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NOT_FOUND 6

static struct {
    int loaded;
    char uuid[96];
    double power_w;
    int energy;
    double period_ms;
    unsigned mhz[16];
    int n_mhz;
    unsigned next_mhz;
    unsigned long long throttle;
} s;

static void load(void)
{
    if (s.loaded)
        return;
    s.loaded = 1;
    strcpy(s.uuid, "GPU-5a17d000-0000-4000-8000-000000000001");
    s.power_w = 250;
    s.energy = 1;
    s.period_ms = 50;
    s.mhz[0] = 1980;
    s.n_mhz = 1;
    const char *path = getenv("REDBENCH_NVML_STANDIN");
    FILE *f = path ? fopen(path, "r") : NULL;
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        char key[64], value[160];
        if (sscanf(line, " %63[a-z_] = %159[^\n]", key, value) != 2)
            continue;
        if (strcmp(key, "uuid") == 0)
            sscanf(value, "%95s", s.uuid);
        else if (strcmp(key, "power_w") == 0)
            s.power_w = atof(value);
        else if (strcmp(key, "energy") == 0)
            s.energy = strncmp(value, "counter", 7) == 0;
        else if (strcmp(key, "energy_period_ms") == 0)
            s.period_ms = atof(value);
        else if (strcmp(key, "throttle") == 0)
            s.throttle = strtoull(value, NULL, 0);
        else if (strcmp(key, "sm_mhz") == 0) {
            s.n_mhz = 0;
            for (char *p = strtok(value, ", "); p && s.n_mhz < 16; p = strtok(NULL, ", "))
                s.mhz[s.n_mhz++] = (unsigned)atoi(p);
        }
    }
    if (f)
        fclose(f);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

typedef struct standin_device *nvmlDevice_t;
static int the_device;

int nvmlInit_v2(void);
int nvmlShutdown(void);
int nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device);
int nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *mj);
int nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned *mw);
int nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned *mhz);
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device, unsigned long long *reasons);

int nvmlInit_v2(void)
{
    load();
    return NVML_SUCCESS;
}

int nvmlShutdown(void) { return NVML_SUCCESS; }

int nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device)
{
    load();
    if (strcmp(uuid, s.uuid) != 0)
        return NVML_ERROR_NOT_FOUND;
    *device = (nvmlDevice_t)&the_device;
    return NVML_SUCCESS;
}

int nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *mj)
{
    (void)device;
    if (!s.energy)
        return NVML_ERROR_NOT_SUPPORTED;
    double t = now_ms();
    if (s.period_ms > 0)
        t = (double)(long long)(t / s.period_ms) * s.period_ms;
    *mj = (unsigned long long)(t * s.power_w);
    return NVML_SUCCESS;
}

int nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned *mw)
{
    (void)device;
    *mw = (unsigned)(s.power_w * 1000);
    return NVML_SUCCESS;
}

int nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned *mhz)
{
    (void)device;
    (void)type;
    *mhz = s.mhz[s.next_mhz++ % (unsigned)s.n_mhz];
    return NVML_SUCCESS;
}

int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device, unsigned long long *reasons)
{
    (void)device;
    *reasons = s.throttle;
    return NVML_SUCCESS;
}
