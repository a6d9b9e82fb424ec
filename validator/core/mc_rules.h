/*
 * Rules that more than one format module enforces, written once so that
 * they mean the same everywhere: where a truncation is reported, how a
 * bone's parent must be ordered, what counts as UTF-8.
 */
#ifndef MC_RULES_H
#define MC_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "mc_check.h"

/*
 * Reports the file's one truncation (code: the format's *_TRUNCATED) at the
 * file's end, where the bytes run out, with path and a formatted message.
 * The caller stops walking: what would follow cannot be read.
 */
void mc_truncated(mc_ctx *c, mc_code code, const char *path, const char *fmt, ...) MC_PRINTF(4, 5);

/* Where bone i's parent stands among `bones` bones. Parents come first in
 * every format with a bone hierarchy (FIELD-NOTES: the AEM loader, the
 * SEModel importer and the AAMF runtime all walk bones in order). A
 * negative parent is out of range: each format handles its root marker
 * before asking. */
typedef enum mc_parent_order {
    MC_PARENT_BEFORE,  /* parent < i: as required */
    MC_PARENT_SELF,    /* parent == i */
    MC_PARENT_FORWARD, /* i < parent < bones */
    MC_PARENT_RANGE,   /* parent < 0 or parent >= bones */
} mc_parent_order;

mc_parent_order mc_parent_order_of(int64_t parent, uint64_t i, uint64_t bones);

/* The codes of a format whose roots have parent -1. */
typedef struct mc_parent_codes {
    mc_code self, forward, range;
} mc_parent_codes;

/* Checks the parent of bone i, read at file offset `at`, in a format whose
 * roots have parent -1 (AEM, SEModel): one issue at path /bones/i/parent
 * unless the parent is -1 or comes before the bone. */
void mc_check_parent(mc_ctx *c, uint64_t at, uint64_t i, int64_t parent, uint64_t bones,
                     const mc_parent_codes *codes);

/* RFC 3629: shortest form only, no surrogates, nothing above U+10FFFF.
 * Returns the index of the first byte that starts no valid sequence, or n. */
size_t mc_utf8_invalid_at(const uint8_t *s, size_t n);

#endif
