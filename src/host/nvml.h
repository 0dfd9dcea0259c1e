/* src/host/nvml.h: NVIDIA's management library (NVML), read by the host
 * for any backend whose device has an NVIDIA UUID ("GPU-..."): the total
 * energy counter, the power drawn, the SM clock and the throttle reasons.
 * The library is opened with dlopen, so nothing links it: by default
 * libnvidia-ml.so.1, or the file that REDBENCH_NVML_LIBRARY names (the
 * tests' stand-in, tests/run/energy/nvml-standin.c, or a library at an
 * unusual place). Only counters are read: no setting of the device is
 * ever changed. */
#ifndef RB_HOST_NVML_H
#define RB_HOST_NVML_H

#include <stddef.h>
#include <stdint.h>

/* The environment variable naming the NVML library to open. */
#define RB_NVML_LIBRARY_ENV "REDBENCH_NVML_LIBRARY"
#define RB_NVML_LIBRARY_DEFAULT "libnvidia-ml.so.1"

typedef struct rb_nvml rb_nvml;

/* Opens NVML (once per process; later calls share it) and finds the device
 * of that UUID. Returns NULL with why[] filled ("libnvidia-ml.so.1 not
 * found", "NVML does not find GPU-...: NVML error 6") when it cannot. */
rb_nvml *nvml_open_device(const char *uuid, char *why, size_t why_len);

/* Whether the device has the total energy counter
 * (nvmlDeviceGetTotalEnergyConsumption: Volta and newer). */
int nvml_has_energy(const rb_nvml *n);

/* The total energy counter in millijoules since the driver loaded; 0 on
 * success. */
int nvml_energy_mj(const rb_nvml *n, uint64_t *mj);

/* The power drawn now, in watts; 0 on success. */
int nvml_power_w(const rb_nvml *n, double *watts);

/* The SM clock now in MHz, and the throttle reasons active now (the bits
 * of NVML's clock event reasons, as RB_THROTTLE_* in redbench/backend.h);
 * each 0 on success. */
int nvml_sm_clock(const rb_nvml *n, uint32_t *mhz);
int nvml_throttle(const rb_nvml *n, uint64_t *reasons);

#endif
