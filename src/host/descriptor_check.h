/* src/host/descriptor_check.h: what a plugin or backend descriptor must be
 * for the host to keep it, and the record of a file that is rejected
 * (descriptor_check.c). For the registry's own files. */
#ifndef RB_DESCRIPTOR_CHECK_H
#define RB_DESCRIPTOR_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "host/descriptor_limits.h"
#include "host/registry.h"

/* The size of each descriptor as ABI 1.0 defined it: what a 1.0 plugin
 * must provide at least. */
#define PLUGIN_SIZE_1_0 (offsetof(rb_plugin, teardown) + sizeof(void (*)(void *)))
#define BACKEND_SIZE_1_0 (offsetof(rb_backend, recover) + sizeof(int (*)(void *)))

/* Records a rejected file with the reason; the same file and reason are
 * recorded once. */
void reject(rb_registry *reg, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A string of at most `max` bytes that a terminal shows as it is. */
int text_ok(const char *s, size_t max);
/* A name: lower case letters, digits, - and _, at most RB_NAME_MAX bytes. */
int name_ok(const char *s);

/* Checks the ABI version and size fields shared by both descriptor kinds;
 * what: "plugin" or "backend". Returns 1, or 0 after rejecting path. */
int version_ok(rb_registry *reg, const char *path, const char *what, uint32_t major,
               uint32_t minor, uint32_t size, size_t min_size);

/* Which callbacks a descriptor sets, one bit each. */
uint32_t plugin_callbacks(const rb_plugin *d);
uint32_t backend_callbacks(const rb_backend *d);

/* The dtypes a plugin of ABI 1.minor can mean (RB_DTYPE_BIT mask): the
 * half-precision dtypes came with 1.5, so an older plugin's other bits are
 * not read as them and it is never offered them. */
uint32_t dtypes_of_abi(uint32_t minor);

/* d: a descriptor copied up to its size; callbacks: which are set. Returns
 * 1, or 0 after rejecting path. */
int plugin_ok(rb_registry *reg, const char *path, const rb_plugin *d, uint32_t callbacks);
int backend_ok(rb_registry *reg, const char *path, const rb_backend *d, uint32_t callbacks);

/* A descriptor as this build knows it: the `size` bytes the plugin or
 * backend was built with (fewer for an older ABI), zeros past them. */
void copy_descriptor(void *out, size_t out_size, const void *desc, uint32_t size);

#endif
