/* src/host/descriptor_limits.h: the most a plugin or backend descriptor may
 * hold: its names and texts, parameters and choices. The checks refuse a
 * descriptor past them, and a descriptor read back as data is refused too. */
#ifndef RB_DESCRIPTOR_LIMITS_H
#define RB_DESCRIPTOR_LIMITS_H

#define RB_NAME_MAX 64
#define RB_TEXT_MAX 256
#define RB_PARAMS_MAX 64
#define RB_CHOICES_MAX 64

#endif
