/*
 * Rules that more than one format module enforces, written once so that
 * they mean the same everywhere: where a truncation is reported, how a
 * bone's parent must be ordered, what counts as UTF-8.
 */
#ifndef MC_RULES_H
#define MC_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mc_check.h"
#include "mc_reader.h"

/*
 * Reports the file's one truncation (code: the format's *_TRUNCATED) at the
 * file's end, where the bytes run out, with path and a formatted message.
 * The caller stops walking: what would follow cannot be read. E3D alone
 * reports its E3D_FILE_TRUNCATED at the overrunning block (no total size to
 * compare with the file's; see report_overrun in formats/e3d.c).
 */
void mc_truncated(mc_ctx *c, mc_code code, const char *path, const char *fmt, ...) MC_PRINTF(4, 5);

/*
 * mc_reader_fits for count records of size bytes at r's cursor; when they do
 * not fit and report is set, the file's one truncation (mc_truncated) with
 * the message "file ends inside <what>: N bytes needed from 0x.., M
 * present" (or the overflow of count x size). report is clear on a second
 * walk over a structure the first already reported.
 */
bool mc_fits_or_truncated(mc_ctx *c, const mc_reader *r, uint64_t count, uint64_t size, bool report,
                          mc_code code, const char *path, const char *what, ...) MC_PRINTF(8, 9);

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

/* What the clean path learns of four bone slots with -1 for an unused one
 * (AEM and NLM vertices). */
typedef struct mc_slots {
    unsigned influences; /* used slots of positive weight */
    unsigned nonzero;    /* slots of non-zero weight */
    bool skinned;        /* some slot is used */
    double sum;          /* the weights, added as the exact weight-sum checks add */
} mc_slots;

/*
 * The clean path of the slot rules: true when every weight lies in [0, 1],
 * unused slots weigh 0, no bone is named twice and bone_ok accepts every
 * used bone; the tallies go to *out. False at the first doubt: the exact
 * checks then run and alone report. Inline, so that a constant bone_ok is
 * inlined into the per-vertex loop.
 */
static inline bool mc_slots_surely_clean(const int32_t bone[4], const float weight[4],
                                         bool (*bone_ok)(int32_t bone, const void *ctx),
                                         const void *ctx, mc_slots *out)
{
    mc_slots t = {0, 0, false, 0.0};
    for (int j = 0; j < 4; j++) {
        float w = weight[j];
        int32_t b = bone[j];
        if (!(w >= 0.0f && w <= 1.0f)) return false;
        if (b == -1) {
            if (w != 0.0f) return false;
        } else {
            if (!bone_ok(b, ctx)) return false;
            for (int k = 0; k < j; k++)
                if (bone[k] == b) return false;
            t.skinned = true;
            t.influences += w > 0.0f;
        }
        t.sum += (double)w;
        t.nonzero += w != 0.0f;
    }
    *out = t;
    return true;
}

/* RFC 3629: shortest form only, no surrogates, nothing above U+10FFFF.
 * The length of the valid sequence at s (n > 0 bytes left), 0 when none
 * starts there. */
size_t mc_utf8_sequence_length(const uint8_t *s, size_t n);
/* The index of the first byte of s that starts no valid sequence, or n. */
size_t mc_utf8_invalid_at(const uint8_t *s, size_t n);

#endif
