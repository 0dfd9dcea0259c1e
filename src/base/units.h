/* src/base/units.h: numbers as users write them: sizes with K/M/G suffixes
 * (powers of two), whole numbers, decimals, booleans, durations. */
#ifndef RB_UNITS_H
#define RB_UNITS_H

#include <stdint.h>

/* "4M" -> 4194304; "1000" -> 1000; "2^20+3" is not accepted. Suffixes K, M,
 * G, T (also Ki, Mi, Gi, Ti), case-insensitive. Returns 0 on success, -1 on
 * a malformed text or overflow, with a message in *why (static text). */
int parse_size(const char *text, uint64_t *out, const char **why);
/* A signed whole number, no suffix. */
int parse_int(const char *text, int64_t *out, const char **why);
/* A finite decimal number. */
int parse_double(const char *text, double *out, const char **why);
/* true/false, yes/no, on/off, 1/0. */
int parse_bool(const char *text, int *out, const char **why);

/* 4194304 -> "4M", 1000 -> "1000": the shortest exact form. */
void format_size(uint64_t n, char *buf, unsigned len);
/* 1234.5 ns -> "1.23 us"; picks ns, us, ms or s. */
void format_duration_ns(double ns, char *buf, unsigned len);
/* Seconds as people read a wall time: "0.25 s", "62.6 s" under two
 * minutes, then "2m05.3s", "1h02m05s". */
void format_seconds(double s, char *buf, unsigned len);

#endif
