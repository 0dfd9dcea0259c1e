/* tests/run/test_energy.c: the arithmetic of a row's energy (src/run/energy.c,
 * src/host/rapl.c, src/results/rows.c) on known answers: energy per call =
 * the counter's delta in millijoules / the calls; J/GB; a counter's
 * wraparound at its range; when timed repetitions are too short for the
 * counter's resolution; and RAPL read from a folder of the powercap layout,
 * absent, or unreadable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/rapl.h"
#include "results/rows.h"
#include "run/energy.h"
#include "tap.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        bail("cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

int main(void)
{
    plan(15);
    is_double(energy_per_call_j(12000, 4000), 3e-3, 1e-12,
              "12000 mJ over 4000 calls: 3 mJ per call");
    is_double(energy_per_call_j(500, 0), 0, 0, "no call: no energy per call");
    /* 1M f32 = 4 MB read per call at 2 mJ per call: 0.5 J/GB */
    is_double(energy_j_per_gb(2e-3, 4e6), 0.5, 1e-12, "2 mJ per call reading 4 MB: 0.5 J/GB");
    is_double(energy_j_per_gb(2e-3, 0), 0, 0, "no bytes: J/GB unknown");
    is_int((long long)energy_counter_delta(100, 350, 1000), 250, "a counter that moved on: the difference");
    is_int((long long)energy_counter_delta(900, 50, 1000), 150,
           "a counter that wrapped at its range 1000: 100 before the wrap and 50 after");
    is_int((long long)energy_counter_delta(900, 50, 0), 0,
           "a smaller reading with no range known: no change, not a huge one");
    ok(energy_batch_too_short(0.5e-3, 0.05), "0.5 ms batches on a counter moving every 50 ms are too short");
    ok(!energy_batch_too_short(2.0, 0.05), "2 s batches on that counter are long enough");

    char dir[] = "/tmp/rb-rapl-XXXXXX";
    if (!mkdtemp(dir))
        bail("mkdtemp");
    setenv(RB_POWERCAP_DIR_ENV, dir, 1);
    char path[512], why[256];
    rb_rapl r;
    ok(rapl_open(&r, why, sizeof why) != 0 && strstr(why, "RAPL absent"),
       "no intel-rapl zone: absent, with the reason (%s)", why);
    snprintf(path, sizeof path, "%s/intel-rapl:0", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/intel-rapl:0:0", dir); /* a sub-zone: not counted */
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/intel-rapl:0/energy_uj", dir);
    write_file(path, "262143000000\n");
    snprintf(path, sizeof path, "%s/intel-rapl:0/max_energy_range_uj", dir);
    write_file(path, "262143328850\n");
    snprintf(path, sizeof path, "%s/intel-rapl:0:0/energy_uj", dir);
    write_file(path, "5\n");
    ok(rapl_open(&r, why, sizeof why) == 0 && r.n_zones == 1, "one package zone found");
    uint64_t uj[RB_RAPL_ZONES];
    ok(rapl_read(&r, uj) == 0 && uj[0] == 262143000000ull, "its counter read");
    is_int((long long)rapl_delta_uj(uj[0], 1000, r.range_uj[0]), 329850,
           "across the wrap at max_energy_range_uj: 328850 + 1000 uJ");
    if (geteuid() != 0) {
        chmod(path, 0); /* the sub-zone's file: still fine */
        snprintf(path, sizeof path, "%s/intel-rapl:0/energy_uj", dir);
        chmod(path, 0);
        ok(rapl_open(&r, why, sizeof why) != 0 && strstr(why, "not readable"),
           "an unreadable energy_uj: not readable, with the reason (%s)", why);
        chmod(path, 0600);
    } else {
        skip("run as root: every file is readable");
    }
    unsetenv(RB_POWERCAP_DIR_ENV);
    setenv(RB_POWERCAP_DIR_ENV, "/nonexistent/powercap", 1);
    ok(rapl_open(&r, why, sizeof why) != 0 && strstr(why, "absent"),
       "no powercap folder: absent (%s)", why);
    snprintf(path, sizeof path, "rm -rf '%s'", dir);
    if (system(path) != 0)
        diag("could not remove %s", dir);
    return done();
}
