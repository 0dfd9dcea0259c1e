/* tests/plugins/chunk-fixed.c: chunk-sum.h with chunks of 64 elements
 * whatever `chunk` says: the same bits on every layout. */
#define CHUNK_SUM_FIXED 1
#include "chunk-sum.h"

static const rb_plugin chunk_fixed = CHUNK_PLUGIN("chunk-fixed");

RB_PLUGIN_ENTRY(chunk_fixed)
