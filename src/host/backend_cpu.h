/* src/host/backend_cpu.h: the built-in cpu backend (host memory, wall-clock
 * timer, a cache flush by streaming a buffer larger than the last-level
 * cache, and a measured streaming-read peak). */
#ifndef RB_BACKEND_CPU_H
#define RB_BACKEND_CPU_H

#include <redbench/backend.h>

const rb_backend *backend_cpu(void);

#endif
