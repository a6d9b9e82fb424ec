/*
 * modelcheck: strict validation of binary 3D model files.
 *
 * Validate a buffer or a path, read the folded issues from the result, free
 * it. No global state: distinct results may be produced and read from
 * distinct threads concurrently; an mc_options may be shared read-only.
 * One exception, process-wide by nature: mc_validate_path installs, on its
 * first mapping, a SIGBUS handler that guards the mappings it makes (a file
 * truncated while read is reported, not fatal); bus errors elsewhere go to
 * the handler that was installed before it.
 */
#ifndef MODELCHECK_H
#define MODELCHECK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_VERSION_STRING "0.1.0"

/* The exported API of libmodelcheck.so: everything else in the library is
 * built with hidden visibility. */
#if defined(__GNUC__) || defined(__clang__)
#define MC_API __attribute__((visibility("default")))
#else
#define MC_API
#endif

/* What went wrong running the tool, as opposed to what is wrong in a file. */
typedef enum mc_status {
    MC_OK = 0,
    MC_ERR_NOMEM,       /* an allocation failed */
    MC_ERR_INVALID_ARG, /* NULL where a value is required, bad option value */
    MC_ERR_IO           /* the file could not be opened or read: see its IO_ issue */
} mc_status;

MC_API const char *mc_strerror(mc_status status);

typedef enum mc_severity {
    MC_SEVERITY_ERROR = 0,
    MC_SEVERITY_WARNING,
    MC_SEVERITY_INFO,
    MC_SEVERITY_HINT,
    MC_SEVERITY_IGNORE /* only as an override: drop the code entirely */
} mc_severity;

#define MC_SEVERITY_COUNT 4

MC_API const char *mc_severity_name(mc_severity severity);
/* Parses "error", "warning", "info", "hint" or "ignore"; -1 if none. */
MC_API int mc_severity_parse(const char *name);

/* Whether a code can be produced by a file's bytes or only by the tool's
 * environment (I/O). */
typedef enum mc_origin { MC_ORIGIN_CONTENT = 0, MC_ORIGIN_TOOL } mc_origin;

/* Numbered by mc_code_numbers.def (append only: released values never
 * change); mc_catalog.def holds what each code means. */
typedef enum mc_code {
#define MC_NUMBER(name) MC_##name,
#include "mc_code_numbers.def"
#undef MC_NUMBER
    MC_CODE_COUNT
} mc_code;

typedef struct mc_code_info {
    const char *name;    /* "AEM_WEIGHT_SUM" */
    mc_severity severity;/* default severity */
    mc_origin origin;
    const char *summary;
    const char *clause;
    const char *kind;    /* kind of check, e.g. "WEIGHT_SUM" (mc_kinds.def) */
} mc_code_info;

MC_API const mc_code_info *mc_code_get(mc_code code); /* NULL if out of range */
/* Looks a code up by its name; -1 if unknown. */
MC_API int mc_code_find(const char *name);

typedef enum mc_format {
    MC_FORMAT_UNKNOWN = 0,
    MC_FORMAT_AEM,
    MC_FORMAT_SEMODEL,
    MC_FORMAT_AAMF, /* SAMF v2 and legacy AAMF: the layout tells which */
    MC_FORMAT_E3D,
    MC_FORMAT_NLM,
    MC_FORMAT_COUNT
} mc_format;

MC_API const char *mc_format_name(mc_format format); /* "aem", "semodel", "aamf", "e3d", "nlm"; "unknown" */
/* Parses a format name; -1 if none. */
MC_API int mc_format_parse(const char *name);
/* 1 when this build validates the format. */
MC_API int mc_format_supported(mc_format format);

/*
 * Severity overrides: a library-owned table of one severity per code, so
 * that adding an issue code changes no public struct (ABI). A new map holds
 * the catalog defaults. NULL is accepted wherever a map is read, meaning
 * the defaults.
 */
typedef struct mc_severity_map mc_severity_map;

MC_API mc_severity_map *mc_severity_map_new(void);            /* NULL when out of memory */
MC_API mc_severity_map *mc_severity_map_copy(const mc_severity_map *map);
MC_API void mc_severity_map_free(mc_severity_map *map);
/* MC_ERR_INVALID_ARG for an unknown code or severity. */
MC_API mc_status mc_severity_map_set(mc_severity_map *map, mc_code code, mc_severity severity);
/* The severity in effect (the catalog default for a NULL map); MC_SEVERITY_IGNORE
 * for an unknown code. */
MC_API mc_severity mc_severity_map_get(const mc_severity_map *map, mc_code code);

/* A tolerance of exactly 0 (exact comparison): 0 itself means the default. */
#define MC_TOLERANCE_EXACT (-1.0)
/* max_instances: keep no instance, only counts (0 itself means the default). */
#define MC_INSTANCES_NONE UINT32_MAX

/*
 * Validation options. A zero-initialised mc_options means every default:
 * each field's 0 stands for the default named beside it. Tolerances follow
 * the Khronos glTF-Validator defaults: see docs/ISSUES.md. The struct only
 * grows at its end; the map pointer keeps per-code data out of it.
 */
typedef struct mc_options {
    mc_format format;                /* 0 (MC_FORMAT_UNKNOWN): detect by content */
    uint32_t max_instances;          /* instances kept per code (count is exact); 0: 10 */
    double weight_sum_tolerance;     /* per non-zero weight; 0: 2e-7 */
    double unit_tolerance;           /* | |v| - 1 | for unit vectors; 0: 0.00674 */
    double quaternion_tolerance;     /* | |q| - 1 | for rotations; 0: 0.00769 */
    uint64_t max_file_bytes;         /* larger files: FILE_TOO_LARGE; 0: 4 GiB */
    uint32_t max_depth;              /* nesting depth (tree formats); 0: 64 */
    uint64_t max_decompressed_bytes; /* per file, all compressed blocks; 0: 256 MiB */
    uint64_t work_factor;            /* cross-reference budget: visits per file byte; 0: 16 */
    int skip_sha256;                 /* leave mc_result.sha256 unset (faster) */
    const mc_severity_map *severity; /* NULL: the catalog's default severities */
} mc_options;

/* Zeroes options (every default). */
MC_API void mc_options_init(mc_options *options);

/* The values in effect for options (NULL: the defaults), for display: every
 * 0 replaced by its default, an exact tolerance as 0.0, MC_INSTANCES_NONE
 * as 0. The severity pointer is copied as it is. */
MC_API void mc_options_effective(const mc_options *options, mc_options *out);

typedef struct mc_instance {
    uint64_t offset;          /* byte offset in the file */
    uint64_t payload_offset;  /* offset inside decoded data, if has_payload_offset */
    int has_payload_offset;
    char path[96];            /* structural path, e.g. /vertices/17/weights */
    char message[224];        /* what was found, and what was expected */
} mc_instance;

typedef struct mc_issue {
    mc_code code;
    mc_severity severity;     /* after overrides */
    uint64_t count;           /* every occurrence, kept or not */
    uint64_t first_offset;    /* offset of the first occurrence */
    size_t instance_count;    /* the first ones, at most max_instances */
    mc_instance *instances;
} mc_issue;

/* Model statistics; 0 where a format has no such thing. */
typedef struct mc_info {
    uint64_t vertices;
    uint64_t indices;
    uint64_t triangles;
    uint64_t meshes;
    uint64_t materials;
    uint64_t textures;
    uint64_t bones;
    uint64_t animations;
    uint64_t sequences;
    uint64_t keyframes;
    uint64_t nodes;          /* scene / animation nodes */
    uint64_t uv_layers;      /* most UV sets on one mesh */
    uint64_t blend_shapes;   /* morph targets, blend shapes */
    uint64_t compressed_blocks;
    uint64_t decompressed_bytes;
    uint32_t max_influences; /* most bones with non-zero weight on one vertex */
} mc_info;

typedef struct mc_result {
    mc_format format;
    const char *layout;       /* layout variant, e.g. "aem1"; "" if none */
    uint64_t size;            /* bytes */
    unsigned char sha256[32];
    int hashed;               /* sha256 is filled */
    mc_issue *issues;         /* by first offset, then code number (stable across releases) */
    size_t issue_count;
    uint64_t counts[MC_SEVERITY_COUNT]; /* occurrences per severity */
    int truncated;            /* some issue kept fewer instances than its count */
    mc_info info;
} mc_result;

/* Validates size bytes at data. *out is set to a result to free with
 * mc_result_free, also when the file is invalid; the buffer is not kept. */
MC_API mc_status mc_validate_memory(const void *data, size_t size,
                             const mc_options *options, mc_result **out);

/* Validates a file: read into memory when small, else through a read-only
 * mapping; "-" reads standard input into memory. Only a regular file is
 * opened (a FIFO or a device is reported without it). On MC_ERR_IO, *out
 * still holds a result whose IO_ issue says what failed. */
MC_API mc_status mc_validate_path(const char *path, const mc_options *options,
                           mc_result **out);

/* mc_validate_path for a path that the caller's directory listing has just
 * shown to be a regular file (readdir's d_type is DT_REG): it skips the
 * lookup that mc_validate_path makes before opening, one system call per
 * file. Whatever has replaced the file since is still reported as
 * mc_validate_path reports it, and a symbolic link put in its place is
 * followed only the way mc_validate_path follows it. Results are identical. */
MC_API mc_status mc_validate_listed_path(const char *path, const mc_options *options,
                                         mc_result **out);

/* A result for a path the caller could not read itself, such as a directory
 * it could not list: one IO_OPEN_FAILED issue saying "what: strerror(err)"
 * (IO_READ_FAILED when err is ENOMEM: a file whose bytes did not fit).
 * Returns MC_ERR_IO with *out set (like mc_validate_path), or MC_ERR_NOMEM. */
MC_API mc_status mc_result_io_error(const char *what, int err, const mc_options *options,
                                    mc_result **out);

MC_API void mc_result_free(mc_result *result);

/* 1 when the result has no issue of severity error. */
MC_API int mc_result_valid(const mc_result *result);

/* The folded issue for a code, or NULL if the code did not fire. */
MC_API const mc_issue *mc_result_find(const mc_result *result, mc_code code);

/* ---- Bytes from outside (file names, names read from a model), shown ---- */

/* 1 when s is well-formed UTF-8 (no overlong form, surrogate or code point
 * above U+10FFFF). */
MC_API int mc_utf8_valid(const char *s);

/* s made fit for JSON, which must be UTF-8: a copy of s when it is valid
 * UTF-8 (*escaped = 0); otherwise (*escaped = 1) every byte that belongs to
 * no well-formed sequence, and every '%', is written %XX (uppercase hex), so
 * that percent-decoding gives s back byte for byte. Free the result; NULL
 * when out of memory. */
MC_API char *mc_utf8_escape(const char *s, int *escaped);

/* s made safe to print on a terminal, as git quotes paths: a copy when it
 * holds no control character (C0, DEL, C1), no bidi control (U+202A to
 * U+202E, U+2066 to U+2069), no invalid UTF-8, no '"' and no '\\';
 * otherwise s in double quotes with \n, \t, \r, \", \\, \u202E for a bidi
 * control and \xHH for the other bytes, so that no byte of s can move the
 * cursor, reorder or split a line, and no quoted name reads as another.
 * Free the result; NULL when out of memory. */
MC_API char *mc_text_quote(const char *s);

/* ---- Structure: what is inside a file, and where (mc_inspect) ---- */

/*
 * mc_inspect runs the same single walk as validation with a structure sink
 * attached: each format module reports the sections, records and blocks it
 * passes (offset, size, path segment, record layout, decoded attributes).
 * The result is a tree of mc_node, the validation result of that same walk,
 * and the decoded bytes of compressed blocks (E3D LZMA), each a "space".
 *
 * Paths: a node's path is its ancestors' names joined by '/' from the root
 * ("" names the root, whose path is "/"); an element i of an array node and
 * a field f of its record add "/i" and "/f", an element j of an indexed
 * field "/j". Issue paths use the same syntax (docs/INSPECT.md).
 *
 * ABI: every struct below is allocated by the library and read through
 * pointers; they only grow at their end, and enum values are append only.
 * A format module adopts the sink through validator/core/mc_struct.h.
 */

/* The type of one element of a field, as stored in the file (little-endian). */
typedef enum mc_field_type {
    MC_FIELD_U8 = 0,
    MC_FIELD_I8,
    MC_FIELD_U16,
    MC_FIELD_I16,
    MC_FIELD_U32,
    MC_FIELD_I32,
    MC_FIELD_U64,
    MC_FIELD_F32,
    MC_FIELD_F64,
    MC_FIELD_BYTES,  /* opaque bytes */
    MC_FIELD_STRING, /* text: NUL-terminated within count bytes, or count bytes */
    MC_FIELD_F16
} mc_field_type;

/* Bytes of one element of type (1 for BYTES and STRING). */
MC_API unsigned mc_field_type_size(mc_field_type type);
MC_API const char *mc_field_type_name(mc_field_type type); /* "u32", "f32", ... */

/* One field of a record: count elements of type at offset inside it. When
 * indexed, each element is its own path segment (/weights/2). */
typedef struct mc_field {
    const char *name;
    mc_field_type type;
    uint32_t offset;
    uint32_t count;
    int indexed;
} mc_field;

typedef enum mc_value_type {
    MC_VALUE_U64 = 0,
    MC_VALUE_I64,
    MC_VALUE_F64,
    MC_VALUE_STRING, /* s: bytes of the file made safe with mc_text_clean rules */
    MC_VALUE_VEC,    /* n doubles in v (n <= 4) */
    MC_VALUE_U64S    /* n values in list (a histogram) */
} mc_value_type;

/* A decoded attribute of a node: a count, a name, a bounding box corner. */
typedef struct mc_attr {
    const char *key;
    mc_value_type type;
    uint64_t u;
    int64_t i;
    double f;
    const char *s;
    double v[4];
    size_t n;
    const uint64_t *list;
    const struct mc_attr *next;
} mc_attr;

typedef struct mc_node {
    const char *name;        /* path segment; "" for the root and for a run of elements
                              * named by their parent (E3D's .../interleaved/4) */
    const char *kind;        /* "file", "section", "record", "array", "block", "lzma", ... */
    uint64_t offset, size;   /* bytes of this node in its space */
    uint32_t space;          /* 0: the file; n > 0: decoded space n (mc_inspect_space) */
    uint32_t inner_space;    /* space of the children (differs for a compressed block) */
    uint64_t count, stride;  /* an array: count records of stride bytes from offset */
    const mc_field *fields;  /* the record layout (of each element of an array) */
    size_t field_count;
    const mc_attr *attrs;    /* in the order reported */
    const struct mc_node *parent, *first_child, *next;
} mc_node;

typedef struct mc_inspect mc_inspect;

/* Inspects size bytes at data, which must stay valid until mc_inspect_free
 * (--at reads them). options as for validation. *out is set also for an
 * invalid file: the tree holds what the walk could follow. */
MC_API mc_status mc_inspect_memory(const void *data, size_t size, const mc_options *options,
                                   mc_inspect **out);
MC_API void mc_inspect_free(mc_inspect *inspect);
MC_API const mc_node *mc_inspect_root(const mc_inspect *inspect);
/* The validation result of the same walk (issues, info, layout). */
MC_API const mc_result *mc_inspect_result(const mc_inspect *inspect);
/* 1 when the tree was cut at its node limit. */
MC_API int mc_inspect_truncated(const mc_inspect *inspect);
/* The bytes of a space (0: the file) and its node; NULL for no such space. */
MC_API const uint8_t *mc_inspect_space(const mc_inspect *inspect, uint32_t space, uint64_t *size,
                                       const mc_node **owner);
MC_API uint32_t mc_inspect_space_count(const mc_inspect *inspect); /* including the file */
/* The decoded space of the compressed block at block_offset (the offset
 * issue paths name: lzma@0xc), the innermost when blocks nest at one
 * offset; 0 when there is none. */
MC_API uint32_t mc_inspect_space_of_block(const mc_inspect *inspect, uint64_t block_offset);

/* Where a byte is: the deepest node holding it, the array element and field
 * when known, the record's bytes (for a hex dump) and the path. */
typedef struct mc_location {
    const mc_node *node;
    int has_element;
    uint64_t element;        /* index in the array node */
    const mc_field *field;   /* NULL: between fields, or no layout */
    uint32_t field_element;  /* element of the field holding the byte */
    uint64_t record_offset;  /* the record (array element or node) in the space */
    uint64_t record_size;
    char path[256];
} mc_location;

/* Locates offset in space: the one place that maps a byte to a path.
 * Returns a location owned by inspect (valid until the next call on it), or
 * NULL when offset is outside the space. */
MC_API const mc_location *mc_inspect_at(mc_inspect *inspect, uint32_t space, uint64_t offset);

/* The path of a node, into out (size bytes, cut when longer); returns out. */
MC_API char *mc_node_path(const mc_node *node, char *out, size_t size);
/* The attribute key of node, or NULL. */
MC_API const mc_attr *mc_node_attr(const mc_node *node, const char *key);

/* The tree as JSON (reports/schema/inspect.schema.json, "structure"): free
 * it; NULL when out of memory. */
MC_API char *mc_inspect_json(const mc_inspect *inspect);

/* ---- Fixes: repairing what writers predictably get wrong (mc_fix) ---- */

/*
 * mc_fix runs the walk of mc_inspect once over the input, and for each code
 * that fired and has a fix (validator/catalog/mc_fixes.def) computes byte
 * edits through the record layouts the walk reported (a field written by
 * its path, never by an offset typed again). The edits are applied to a
 * copy, which is validated again; the input is never written. Fixing the
 * output again finds nothing to do (idempotent).
 *
 * SAFE fixes restore a spec invariant without changing what a reader
 * builds; UNSAFE ones change data a reader takes (weights, bounds) and are
 * applied only with unsafe_fixes. docs/FIX.md lists them.
 */
typedef enum mc_fixability {
    MC_FIXABILITY_NONE = 0, /* no honest mechanical repair (mc_code_fix_text says why) */
    MC_FIXABILITY_SAFE,
    MC_FIXABILITY_UNSAFE
} mc_fixability;

MC_API mc_fixability mc_code_fixability(mc_code code);
/* What the code's fix does, or why there is none; NULL for an unknown code. */
MC_API const char *mc_code_fix_text(mc_code code);
MC_API const char *mc_fixability_name(mc_fixability fixability); /* "none", "safe", "unsafe" */

/* One byte edit: size bytes at offset replaced by as many new ones. */
typedef struct mc_edit {
    uint64_t offset;
    uint32_t size;
    const uint8_t *old_bytes;
    const uint8_t *new_bytes;
    mc_code code;            /* the issue the edit fixes */
    mc_fixability fixability;
    char path[96];           /* structural path of the field, e.g. /vertices/17/joint_indices */
    char old_value[64];      /* the field decoded before and after */
    char new_value[64];
} mc_edit;

typedef struct mc_fix_options {
    int unsafe_fixes;        /* also apply UNSAFE fixes */
    /* Which codes to fix (--select / --ignore): NULL fixes every code. */
    int (*wanted)(mc_code code, void *arg);
    void *arg;
} mc_fix_options;

typedef struct mc_fix mc_fix;

/* Fixes size bytes at data (not modified, not kept). *out is set to a fix
 * to free with mc_fix_free, also when nothing could be fixed; options as
 * for validation (fix NULL: safe fixes of every code). */
MC_API mc_status mc_fix_memory(const void *data, size_t size, const mc_options *options,
                               const mc_fix_options *fix, mc_fix **out);
MC_API void mc_fix_free(mc_fix *fix);
/* The edits, by offset (never overlapping). */
MC_API const mc_edit *mc_fix_edits(const mc_fix *fix, size_t *count);
/* The fixed bytes (the input's when there is no edit). */
MC_API const uint8_t *mc_fix_output(const mc_fix *fix, size_t *size);
/* The validation of the input, and of the output. */
MC_API const mc_result *mc_fix_before(const mc_fix *fix);
MC_API const mc_result *mc_fix_after(const mc_fix *fix);
/* Occurrences of codes whose fix is UNSAFE and was not applied (without
 * unsafe_fixes): what --unsafe-fixes would also try. */
MC_API uint64_t mc_fix_withheld(const mc_fix *fix);

#ifdef __cplusplus
}
#endif

#endif
