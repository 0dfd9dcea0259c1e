/* src/base/descriptors.h: what a process started to run plugin code keeps
 * of its parent's open descriptors: its standard streams and the ones it
 * is given, nothing else (the process that loads plugins for discovery,
 * a worker, a rank, mpirun). */
#ifndef RB_DESCRIPTORS_H
#define RB_DESCRIPTORS_H

#include <stddef.h>

/* In a process just forked: closes every descriptor above 2 but the
 * `n_keep` in `keep` (negative ones are ignored), so that the plugin code
 * it runs inherits only what the process needs. */
void descriptors_close_all_but(const int *keep, size_t n_keep);

#endif
