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
#include <string.h>

#include "mc_check.h"
#include "mc_numeric.h"
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
 * every format with a bone hierarchy (docs/formats: the AEM loader, the
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

/*
 * The clean path of an index range check (issue 16): true when the n
 * little-endian u32 at p are all below limit. Branch-free, one decision
 * for the lot, so that the compiler can vectorize it; the caller checks
 * the indices one by one, exactly, only when this is false.
 */
MC_HOT_FN static inline bool mc_u32s_surely_below(const uint8_t *p, size_t n, uint32_t limit)
{
    uint32_t over = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t v;
        memcpy(&v, p + 4 * k, 4);
        if (!MC_HOST_LE) v = mc_le32(p + 4 * k);
        over |= (uint32_t)(v >= limit);
    }
    return over == 0;
}

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

#if defined(MC_LANES)
/* mc_slots_surely_clean of four records at once (mc_numeric.h, "four
 * records side by side"), with bone_ok the inclusive range [bone_lo,
 * bone_hi] (an empty range, lo > hi, accepts no used slot). ok is set in
 * the lanes that pass every slot rule; skinned where some slot is used;
 * influences counts the used slots of positive weight, as the exact slot
 * checks count them. */
typedef struct mc_lanes_slots {
    __m128 ok, skinned;
    __m128i influences;
} mc_lanes_slots;

static inline mc_lanes_slots mc_lanes_slots_judge(const __m128 bone[4], const __m128 weight[4],
                                                  int32_t bone_lo, int32_t bone_hi)
{
    const __m128i unused_id = _mm_set1_epi32(-1), lo = _mm_set1_epi32(bone_lo),
                  hi = _mm_set1_epi32(bone_hi);
    const __m128 all = _mm_castsi128_ps(unused_id); /* -1: every bit set */
    mc_lanes_slots t = {all, _mm_setzero_ps(), _mm_setzero_si128()};
    for (int j = 0; j < 4; j++) {
        __m128 w = weight[j];
        __m128i b = mc_lanes_i32(bone[j]);
        __m128 unused = _mm_castsi128_ps(_mm_cmpeq_epi32(b, unused_id));
        /* every weight in [0, 1]; an unused slot weighs 0; a used one names
         * a bone in range */
        __m128 out_of_range = _mm_castsi128_ps(_mm_or_si128(_mm_cmplt_epi32(b, lo), _mm_cmpgt_epi32(b, hi)));
        __m128 used = _mm_andnot_ps(unused, all);
        __m128 slot_ok = _mm_or_ps(_mm_and_ps(unused, _mm_cmpeq_ps(w, _mm_setzero_ps())),
                                   _mm_andnot_ps(out_of_range, used));
        slot_ok = _mm_and_ps(slot_ok, mc_lanes_within(w, 0.0f, 1.0f));
        /* a used bone named in no earlier slot */
        for (int k = 0; k < j; k++) {
            __m128 same = _mm_castsi128_ps(_mm_cmpeq_epi32(b, mc_lanes_i32(bone[k])));
            slot_ok = _mm_andnot_ps(_mm_andnot_ps(unused, same), slot_ok);
        }
        t.ok = _mm_and_ps(t.ok, slot_ok);
        t.skinned = _mm_or_ps(t.skinned, used);
        /* a set mask is -1: subtracting it counts the slot */
        t.influences = _mm_sub_epi32(
            t.influences, _mm_castps_si128(_mm_and_ps(used, _mm_cmpgt_ps(w, _mm_setzero_ps()))));
    }
    return t;
}

/* The exact weight-sum rule of four records at once: the lanes where
 * |w0 + w1 + w2 + w3 - 1| <= tolerance x (the non-zero weights, or 1).
 * The sum is made in double in slot order, as the exact checks make it
 * (they start from 0, and 0 + w0 is w0 but for the sign of a zero, which
 * no comparison sees), and the bound as they make it, so the lanes agree
 * with them. */
static inline __m128 mc_lanes_weight_sum_ok(const __m128 weight[4], double tolerance)
{
    const __m128 zero = _mm_setzero_ps();
    __m128i nonzero = _mm_setzero_si128();
    for (int j = 0; j < 4; j++)
        nonzero = _mm_sub_epi32(nonzero, _mm_castps_si128(_mm_cmpneq_ps(weight[j], zero)));
    /* nonzero ? nonzero : 1 */
    __m128i none = _mm_cmpeq_epi32(nonzero, _mm_setzero_si128());
    nonzero = _mm_or_si128(nonzero, _mm_and_si128(none, _mm_set1_epi32(1)));
    const __m128d one = _mm_set1_pd(1.0), tol = _mm_set1_pd(tolerance),
                  sign = _mm_set1_pd(-0.0);
    __m128d ok[2];
    for (int h = 0; h < 2; h++) { /* lanes 0 and 1, then 2 and 3 */
        __m128d sum = _mm_setzero_pd();
        for (int j = 0; j < 4; j++) {
            __m128d w = _mm_cvtps_pd(h ? _mm_movehl_ps(weight[j], weight[j]) : weight[j]);
            sum = j ? _mm_add_pd(sum, w) : w; /* 0 + w0: w0 */
        }
        __m128i n = h ? _mm_shuffle_epi32(nonzero, _MM_SHUFFLE(3, 2, 3, 2)) : nonzero;
        __m128d dev = _mm_andnot_pd(sign, _mm_sub_pd(sum, one));
        ok[h] = _mm_cmple_pd(dev, _mm_mul_pd(tol, _mm_cvtepi32_pd(n)));
    }
    /* each double lane's mask is 64 set bits: take one 32-bit half of each */
    return _mm_shuffle_ps(_mm_castpd_ps(ok[0]), _mm_castpd_ps(ok[1]), _MM_SHUFFLE(2, 0, 2, 0));
}

/* Lane-wise largest of small counts (0 to 4): 16-bit max suffices, as
 * the upper halves are zero (SSE2 has no 32-bit max). */
static inline __m128i mc_lanes_max_count(__m128i a, __m128i b)
{
    return _mm_max_epi16(a, b);
}

/* The largest lane of small counts, folded into max. */
static inline unsigned mc_lanes_fold_max(__m128i counts, unsigned max)
{
    uint32_t v[4];
    _mm_storeu_si128((__m128i *)(void *)v, counts);
    for (int k = 0; k < 4; k++)
        if (v[k] > max) max = v[k];
    return max;
}
#endif

/* RFC 3629: shortest form only, no surrogates, nothing above U+10FFFF.
 * The length of the valid sequence at s (n > 0 bytes left), 0 when none
 * starts there. */
size_t mc_utf8_sequence_length(const uint8_t *s, size_t n);
/* The index of the first byte of s that starts no valid sequence, or n. */
size_t mc_utf8_invalid_at(const uint8_t *s, size_t n);

#endif
