/* src/run/metadata.h: what a run records about where and when it ran: the time,
 * host name, operating system, CPU model, the command line and the git
 * revision of the build. */
#ifndef RB_METADATA_H
#define RB_METADATA_H

#include "results/rows.h"

/* Fills the host, time, command-line and git revision fields of *info. */
void metadata_collect(rb_run_info *info, int argc, char **argv);

#endif
