/* src/host/descriptor_wire.h: a checked descriptor as bytes and back
 * (descriptor_wire.c). For the registry's own files. */
#ifndef RB_DESCRIPTOR_WIRE_H
#define RB_DESCRIPTOR_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <redbench/backend.h>
#include <redbench/plugin.h>

/* A growing byte string. */
typedef struct bytes {
    unsigned char *data;
    size_t len, cap;
} bytes;

void bytes_put(bytes *b, const void *data, size_t len);
void bytes_put_u32(bytes *b, uint32_t v);

/* What a serialized descriptor is: its first four bytes. */
enum { BLOB_PLUGIN = 0x72625031, BLOB_BACKEND = 0x72624231 };

/* A descriptor that passed plugin_ok (backend_ok), as data. */
void put_plugin(bytes *b, const rb_plugin *d, uint32_t callbacks);
void put_backend(bytes *b, const rb_backend *d, uint32_t callbacks);

/* A descriptor from its serialized form, with no code behind it: returns
 * BLOB_PLUGIN with *plugin set, or BLOB_BACKEND with *backend set (the
 * caller frees it with free_plugin_data or free_backend_data), or 0 when
 * the data are malformed. *callbacks: which callbacks it has. */
uint32_t descriptor_read(const unsigned char *blob, size_t len, rb_plugin **plugin,
                         rb_backend **backend, uint32_t *callbacks);

/* Frees a descriptor read back (NULL does nothing). */
void free_plugin_data(rb_plugin *d);
void free_backend_data(rb_backend *d);

#endif
