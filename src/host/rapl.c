/* src/host/rapl.c: the package zones of /sys/class/powercap read as energy
 * counters, with their wraparound (host/rapl.h). */
#include "host/rapl.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole number from a one-line file; 0 on success, else errno. */
static int read_u64(const char *path, uint64_t *value)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errno ? errno : EIO;
    int ok = fscanf(f, "%" SCNu64, value) == 1;
    int err = ok ? 0 : (ferror(f) && errno ? errno : EINVAL);
    fclose(f);
    return err;
}

/* A package zone: intel-rapl:N (not a sub-zone intel-rapl:N:M). */
static int package_zone(const char *name)
{
    if (strncmp(name, "intel-rapl:", 11) != 0)
        return 0;
    const char *p = name + 11;
    if (!*p)
        return 0;
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}

int rapl_open(rb_rapl *r, char *why, size_t why_len)
{
    memset(r, 0, sizeof *r);
    const char *root = getenv(RB_POWERCAP_DIR_ENV);
    if (!root || !*root)
        root = "/sys/class/powercap";
    DIR *dir = opendir(root);
    if (!dir) {
        int err = errno;
        snprintf(why, why_len, "RAPL %s: %.160s: %s", err == ENOENT ? "absent" : "not readable",
                 root, strerror(err));
        return -1;
    }
    int denied = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && r->n_zones < RB_RAPL_ZONES) {
        if (!package_zone(e->d_name))
            continue;
        char path[256], range[300];
        snprintf(path, sizeof path, "%.180s/%.60s/energy_uj", root, e->d_name);
        snprintf(range, sizeof range, "%.180s/%.60s/max_energy_range_uj", root, e->d_name);
        uint64_t v;
        int err = read_u64(path, &v);
        if (err) {
            denied = err;
            continue;
        }
        snprintf(r->path[r->n_zones], sizeof r->path[0], "%s", path);
        if (read_u64(range, &r->range_uj[r->n_zones]) != 0)
            r->range_uj[r->n_zones] = 0;
        r->n_zones++;
    }
    closedir(dir);
    if (r->n_zones)
        return 0;
    if (denied)
        snprintf(why, why_len, "RAPL not readable: %.160s/intel-rapl:*/energy_uj: %s", root,
                 strerror(denied));
    else
        snprintf(why, why_len, "RAPL absent: no %.160s/intel-rapl:* zone", root);
    return -1;
}

int rapl_read(const rb_rapl *r, uint64_t *uj)
{
    for (size_t k = 0; k < r->n_zones; k++)
        if (read_u64(r->path[k], &uj[k]) != 0)
            return -1;
    return 0;
}

uint64_t rapl_delta_uj(uint64_t before, uint64_t after, uint64_t range_uj)
{
    if (after >= before)
        return after - before;
    return range_uj > before ? range_uj - before + after : 0;
}
