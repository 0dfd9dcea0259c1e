/* src/host/loader.h: loading a plugin file, which runs its code: the file
 * checks, and the loading process that does it for discovery (loader.c;
 * what workers load is in host/registry.h). For the registry's own
 * files. */
#ifndef RB_LOADER_H
#define RB_LOADER_H

#include <stddef.h>
#include <sys/types.h>

#include "host/descriptor_wire.h"
#include "host/registry.h"

/* Opens path for reading when it is a regular file (after links) of at
 * most max_size bytes (0: any size): opened without blocking and checked
 * again on the open file, so that a named pipe or a device is never read.
 * Returns the descriptor, or -1 with the reason in why. */
int open_regular(const char *path, off_t max_size, char *why, size_t why_len);
/* Whether path is a regular file; if not, the reason is in why. */
int regular_file(const char *path, char *why, size_t why_len);

enum probe_kind { PROBE_REJECTED = 0, PROBE_PLUGIN = 1, PROBE_BACKEND = 2 };

/* What accept_blob did with a descriptor. */
enum accepted { ACCEPT_REJECTED = -1, ACCEPT_SHADOWED = 0, ACCEPT_PLUGIN, ACCEPT_BACKEND };

/* Keeps a serialized descriptor (from a loading process, so checked again
 * here) as the plugin or backend at path, in pack: added to reg, noted as
 * shadowed by one of the same pack and name, or rejected. */
int accept_blob(rb_registry *reg, const char *path, const char *pack,
                const unsigned char *blob, size_t len);

/* The parent's side of a loading process. */
typedef struct loader {
    pid_t pid;        /* 0: none running */
    int fd;           /* this end of the socket */
    unsigned char *buf;
    size_t len, cap;
    double timeout;
} loader;

/* REDBENCH_LOAD_TIMEOUT when it is a positive number of seconds, else 10. */
double load_timeout(void);

/* Asks the loading process (started when there is none) to open path.
 * Returns what it is, with the serialized descriptor or the reason in
 * *out; a loading process that dies or does not answer in time is ended,
 * and the reason names what happened. */
int loader_ask(loader *ld, const char *path, bytes *out);

/* Ends the loading process: kills it unless it has ended (or, with grace,
 * ends within grace seconds), kills what else runs in its process group,
 * reaps it and returns its wait status. */
int loader_end(loader *ld, double grace);

#endif
