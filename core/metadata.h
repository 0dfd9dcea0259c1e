/* core/metadata.h: what a run records about where and when it ran: the time,
 * host name, operating system, CPU model and the command line. */
#ifndef RB_METADATA_H
#define RB_METADATA_H

#include "results.h"

/* Fills the host, time and command-line fields of *info. */
void metadata_collect(rb_run_info *info, int argc, char **argv);

#endif
