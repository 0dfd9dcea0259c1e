/* src/run/metadata.c: the run's provenance: time, host, OS, CPU, command line,
 * git revision. */
#include "run/metadata.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/provenance.h"
#include "base/util.h"

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                snprintf(buf, len, "%s", trim(colon + 1));
                break;
            }
        }
    }
    fclose(f);
}

static char *quoted_command_line(int argc, char **argv)
{
    strbuf sb = {0};
    sb_append(&sb, "");
    for (int k = 0; k < argc; k++) {
        if (k)
            sb_append(&sb, " ");
        if (strpbrk(argv[k], " \t'\"$\\") || !*argv[k]) {
            sb_append(&sb, "'");
            for (const char *p = argv[k]; *p; p++) {
                char c[2] = {*p, 0};
                sb_append(&sb, *p == '\'' ? "'\\''" : c);
            }
            sb_append(&sb, "'");
        } else {
            sb_append(&sb, argv[k]);
        }
    }
    return sb.data;
}

void metadata_collect(rb_run_info *info, int argc, char **argv)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(info->started, sizeof info->started, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (gethostname(info->host, sizeof info->host) != 0)
        snprintf(info->host, sizeof info->host, "unknown");
    info->host[sizeof info->host - 1] = '\0';
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(info->os, sizeof info->os, "%s %s %s", u.sysname, u.release, u.machine);
    else
        snprintf(info->os, sizeof info->os, "unknown");
    cpu_model(info->cpu, sizeof info->cpu);
    info->command_line = quoted_command_line(argc, argv);
    info->git_revision = provenance_git_revision();
}
