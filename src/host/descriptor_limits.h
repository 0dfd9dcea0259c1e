/* src/host/descriptor_limits.h: the most a plugin or backend descriptor may
 * hold: its names and texts, parameters and choices. The checks refuse a
 * descriptor past them, and a descriptor read back as data is refused too. */
#ifndef RB_DESCRIPTOR_LIMITS_H
#define RB_DESCRIPTOR_LIMITS_H

#define RB_NAME_MAX 64
#define RB_TEXT_MAX 256
#define RB_PARAMS_MAX 64
/* The shapes a plugin may declare (redbench/plugin.h, "Shapes"). */
#define RB_SHAPES_KNOWN (RB_SHAPE_ROWS | RB_SHAPE_COLUMNS | RB_SHAPE_RAGGED)
#define RB_CHOICES_MAX 64

#endif
