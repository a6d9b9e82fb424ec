/* Helpers for the unit tests: validate built models, assert on issues. */
#ifndef MC_TEST_SUPPORT_H
#define MC_TEST_SUPPORT_H

#include <stdint.h>

#include "aem_builder.h"
#include "mcl.h"
#include "modelcheck.h"

/* Validates a buffer with options (NULL: defaults); never NULL. */
mc_result *validate_buf(const void *data, size_t size, const mc_options *opt);
/* Writes the model, optionally cuts bytes from the end, validates. */
mc_result *validate_aem(const aemb_model *m, const mc_options *opt, size_t cut);

/* Asserts the result holds exactly the listed codes (terminated by -1). */
void expect_codes(const mc_result *r, ...);
/* Asserts a code fired count times, first at first_offset. */
void expect_issue(const mc_result *r, mc_code code, uint64_t count, uint64_t first_offset);
/* expect_codes(r, code, -1) + expect_issue(r, code, count, offset). */
void expect_only(const mc_result *r, mc_code code, uint64_t count, uint64_t first_offset);

/* The reference loader of a format on a buffer: asserts it loads and
 * mcl_exercise passes; returns the model (mcl_free it). */
mcl_model *loader_accepts(mcl_format format, const void *data, size_t size);
/* Asserts the loader rejects the buffer with that status, the failure
 * recorded at that offset, and no model. */
void loader_rejects(mcl_format format, const void *data, size_t size, mcl_status want, uint64_t offset);

/* Field offset helper: byte offset of record i of section s, plus field. */
uint64_t at(const aemb_model *m, enum aemb_section s, uint64_t i, uint64_t field);

#endif
