/* tests/run/crashers/fragile.h: the context of the `fragile` test backend, as
 * its queue: a plugin that writes `sticky` emulates a device fault that
 * poisons the whole context, like a sticky CUDA error: from then on every
 * synchronization fails and recover() says the device is gone. */
#ifndef RB_FRAGILE_H
#define RB_FRAGILE_H

typedef struct fragile_context {
    int sticky; /* set by a plugin: the device is unusable */
    double started_ns;
} fragile_context;

#endif
