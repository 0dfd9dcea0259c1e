/* src/host/nvml.c: NVML opened at run time and read by the host
 * (host/nvml.h). One library and one table of its functions per process;
 * devices are found by UUID and kept, at most NVML_DEVICES of them. The
 * values are NVML's; no header of NVML is needed. */
#include "host/nvml.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVML_OK 0
#define NVML_CLOCK_SM 1
#define NVML_DEVICES 16

typedef struct nvml_device_opaque *nvml_device;

struct rb_nvml {
    char uuid[96];
    nvml_device device;
    int energy; /* the energy counter answered once */
};

static struct {
    int tried;
    void *library;
    char why[256];
    int (*init)(void);
    int (*by_uuid)(const char *uuid, nvml_device *device);
    int (*energy)(nvml_device device, unsigned long long *mj);
    int (*power)(nvml_device device, unsigned *milliwatts);
    int (*clock)(nvml_device device, int type, unsigned *mhz);
    int (*reasons)(nvml_device device, unsigned long long *reasons);
    rb_nvml devices[NVML_DEVICES];
    size_t n_devices;
} api;

static pthread_mutex_t api_lock = PTHREAD_MUTEX_INITIALIZER;

static void *symbol(const char *name) { return dlsym(api.library, name); }

/* Opens the library and initialises NVML, once. */
static int load(void)
{
    if (api.tried)
        return api.library ? 0 : -1;
    api.tried = 1;
    const char *path = getenv(RB_NVML_LIBRARY_ENV);
    if (!path || !*path)
        path = RB_NVML_LIBRARY_DEFAULT;
    api.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!api.library) {
        snprintf(api.why, sizeof api.why, "NVML not loaded (%s: %.160s)", path, dlerror());
        return -1;
    }
    api.init = (int (*)(void))symbol("nvmlInit_v2");
    api.by_uuid = (int (*)(const char *, nvml_device *))symbol("nvmlDeviceGetHandleByUUID");
    api.energy = (int (*)(nvml_device, unsigned long long *))symbol(
        "nvmlDeviceGetTotalEnergyConsumption");
    api.power = (int (*)(nvml_device, unsigned *))symbol("nvmlDeviceGetPowerUsage");
    api.clock = (int (*)(nvml_device, int, unsigned *))symbol("nvmlDeviceGetClockInfo");
    api.reasons = (int (*)(nvml_device, unsigned long long *))symbol(
        "nvmlDeviceGetCurrentClocksEventReasons");
    if (!api.reasons)
        api.reasons = (int (*)(nvml_device, unsigned long long *))symbol(
            "nvmlDeviceGetCurrentClocksThrottleReasons");
    int rc = -1;
    if (!api.init || !api.by_uuid)
        snprintf(api.why, sizeof api.why, "NVML unusable (%s lacks nvmlInit_v2 or "
                 "nvmlDeviceGetHandleByUUID)", path);
    else if ((rc = api.init()) != NVML_OK)
        snprintf(api.why, sizeof api.why, "NVML unusable (nvmlInit failed: NVML error %d)", rc);
    if (rc != NVML_OK) {
        dlclose(api.library);
        api.library = NULL;
        return -1;
    }
    return 0;
}

rb_nvml *nvml_open_device(const char *uuid, char *why, size_t why_len)
{
    pthread_mutex_lock(&api_lock);
    rb_nvml *found = NULL;
    if (load() != 0) {
        snprintf(why, why_len, "%s", api.why);
        goto done;
    }
    for (size_t k = 0; k < api.n_devices; k++)
        if (strcmp(api.devices[k].uuid, uuid) == 0) {
            found = &api.devices[k];
            goto done;
        }
    if (api.n_devices == NVML_DEVICES) {
        snprintf(why, why_len, "NVML: more than %d devices", NVML_DEVICES);
        goto done;
    }
    rb_nvml *d = &api.devices[api.n_devices];
    memset(d, 0, sizeof *d);
    snprintf(d->uuid, sizeof d->uuid, "%s", uuid);
    int rc = api.by_uuid(uuid, &d->device);
    if (rc != NVML_OK) {
        snprintf(why, why_len, "NVML does not find %.64s: NVML error %d", uuid, rc);
        goto done;
    }
    unsigned long long mj;
    d->energy = api.energy && api.energy(d->device, &mj) == NVML_OK;
    api.n_devices++;
    found = d;
done:
    pthread_mutex_unlock(&api_lock);
    return found;
}

int nvml_has_energy(const rb_nvml *n) { return n && n->energy; }

int nvml_energy_mj(const rb_nvml *n, uint64_t *mj)
{
    unsigned long long v;
    if (!n || !n->energy || api.energy(n->device, &v) != NVML_OK)
        return -1;
    *mj = v;
    return 0;
}

int nvml_power_w(const rb_nvml *n, double *watts)
{
    unsigned mw;
    if (!n || !api.power || api.power(n->device, &mw) != NVML_OK)
        return -1;
    *watts = mw / 1000.0;
    return 0;
}

int nvml_sm_clock(const rb_nvml *n, uint32_t *mhz)
{
    unsigned v;
    if (!n || !api.clock || api.clock(n->device, NVML_CLOCK_SM, &v) != NVML_OK)
        return -1;
    *mhz = v;
    return 0;
}

int nvml_throttle(const rb_nvml *n, uint64_t *reasons)
{
    unsigned long long v;
    if (!n || !api.reasons || api.reasons(n->device, &v) != NVML_OK)
        return -1;
    *reasons = v;
    return 0;
}
