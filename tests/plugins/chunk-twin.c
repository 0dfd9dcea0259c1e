/* tests/plugins/chunk-twin.c: chunk-sum.h with chunks of `chunk` elements:
 * its bits follow the parameter (the planted twin of chunk-fixed). */
#include "chunk-sum.h"

static const rb_plugin chunk_twin = CHUNK_PLUGIN("chunk-twin");

RB_PLUGIN_ENTRY(chunk_twin)
