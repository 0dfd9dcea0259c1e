/* tests/plugins/chunk-varies.c: chunk-sum.h with other chunks on every
 * run: the bits of an f32 sum change from run to run. */
#define CHUNK_SUM_VARIES 1
#include "chunk-sum.h"

static const rb_plugin chunk_varies = CHUNK_PLUGIN("chunk-varies");

RB_PLUGIN_ENTRY(chunk_varies)
