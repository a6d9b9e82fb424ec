/*
 * The bytes behind a location, as annotated hex: one line per field of the
 * record (offset, bytes, name, decoded value), the field holding the byte
 * marked with '>' and the byte itself with '^' under it, as a compiler
 * shows a source line with a caret. Used by inspect --at and by the text
 * report's --show-bytes.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_file.h"
#include "mc_report.h"

/* Bytes shown of one field (the rest is summarised) and of a record
 * without layout around the byte. */
#define FIELD_BYTES 16u
#define WINDOW_BYTES 32u

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) v = v << 8 | p[i];
    return v;
}

static double half(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static int one_value(char *out, size_t size, mc_field_type t, const uint8_t *p)
{
    unsigned n = mc_field_type_size(t);
    uint64_t u = le(p, n);
    switch (t) {
    case MC_FIELD_I8: return snprintf(out, size, "%d", (int8_t)u);
    case MC_FIELD_I16: return snprintf(out, size, "%d", (int16_t)u);
    case MC_FIELD_I32: return snprintf(out, size, "%" PRId32, (int32_t)u);
    case MC_FIELD_F16: return snprintf(out, size, "%g", half((uint16_t)u));
    case MC_FIELD_F32: {
        float f;
        uint32_t b = (uint32_t)u;
        memcpy(&f, &b, 4);
        return snprintf(out, size, "%.9g", (double)f);
    }
    case MC_FIELD_F64: {
        double d;
        memcpy(&d, &u, 8);
        return snprintf(out, size, "%.17g", d);
    }
    default: return snprintf(out, size, "%" PRIu64, u);
    }
}

/* The decoded value of count elements at p (avail bytes readable). */
void mc_report_field_value(char *out, size_t size, const mc_field *f, const uint8_t *p,
                           uint64_t avail)
{
    out[0] = '\0';
    uint32_t count = f->count ? f->count : 1;
    if (f->type == MC_FIELD_STRING || f->type == MC_FIELD_BYTES) {
        /* count 0: a string to its NUL, shown up to 256 bytes */
        uint64_t want = f->count ? f->count : 256;
        uint64_t n = want < avail ? want : avail;
        if (f->type == MC_FIELD_BYTES) {
            snprintf(out, size, "%" PRIu64 " bytes", n);
            return;
        }
        const uint8_t *nul = memchr(p, 0, (size_t)n);
        size_t len = nul ? (size_t)(nul - p) : (size_t)n;
        char *raw = malloc(len + 1);
        if (!raw) return;
        memcpy(raw, p, len);
        raw[len] = '\0';
        char *q = mc_text_quote(raw);
        snprintf(out, size, "%s%s%s", q && q[0] == '"' ? "" : "\"", q ? q : "",
                 q && q[0] == '"' ? "" : "\"");
        free(q);
        free(raw);
        return;
    }
    unsigned es = mc_field_type_size(f->type);
    size_t used = 0;
    if (count > 1 && used + 1 < size) out[used++] = '(', out[used] = '\0';
    for (uint32_t i = 0; i < count && (uint64_t)(i + 1) * es <= avail && used + 1 < size; i++) {
        int w = one_value(out + used, size - used, f->type, p + (uint64_t)i * es);
        if (w < 0) break;
        used += (size_t)w < size - used ? (size_t)w : size - used - 1;
        if (i + 1 < count) used += (size_t)snprintf(out + used, size - used, ", ");
        if (used >= size) used = size - 1;
    }
    if (count > 1 && used + 1 < size) out[used++] = ')', out[used] = '\0';
}

/* One line: mark, offset in the space, offset in the record (negative
 * before it), up to FIELD_BYTES bytes, label; the caret line under the
 * target byte when it is on this line. */
static void hex_line(FILE *out, const char *indent, char mark, uint64_t at, int64_t rel,
                     const uint8_t *p, uint64_t n, const char *label, uint64_t target,
                     int has_target)
{
    char r[24];
    snprintf(r, sizeof r, "%s%" PRId64, rel < 0 ? "" : "+", rel);
    fprintf(out, "%s%c 0x%08" PRIx64 " %-5s ", indent, mark, at, r);
    unsigned shown = n < FIELD_BYTES ? (unsigned)n : FIELD_BYTES;
    for (unsigned i = 0; i < FIELD_BYTES; i++) {
        if (i < shown)
            fprintf(out, "%02x ", p[i]);
        else
            fputs("   ", out);
    }
    fprintf(out, "%s%s\n", n > FIELD_BYTES ? "... " : "", label);
    if (!has_target || target < at || target - at >= shown) return;
    /* the caret under the byte */
    fprintf(out, "%s  %*s", indent, 8 + 2 + 1 + 5 + 1, "");
    for (uint64_t i = 0; i < target - at; i++) fputs("   ", out);
    fputs("^^\n", out);
}

/* The bytes [from, from + len) of a record starting at rs on one line:
 * their first FIELD_BYTES, or the FIELD_BYTES holding the target. */
static void span(FILE *out, const char *indent, const uint8_t *bytes, uint64_t rs, uint64_t from,
                 uint64_t len, const char *label, uint64_t target)
{
    int hit = target >= from && target - from < len;
    uint64_t line = from;
    if (hit) line = from + (target - from) / FIELD_BYTES * FIELD_BYTES;
    hex_line(out, indent, hit ? '>' : ' ', line, (int64_t)line - (int64_t)rs, bytes + line,
             len - (line - from), label, target, hit);
}

void mc_report_bytes(FILE *out, const mc_location *l, const uint8_t *bytes, uint64_t size,
                     uint64_t target, const char *indent)
{
    const mc_node *n = l->node;
    uint64_t rs = l->record_offset, re = rs + l->record_size;
    if (re > size || re < rs) re = size;
    if (n && n->field_count && re - rs <= 4096) {
        uint64_t pos = rs;
        for (size_t i = 0; i < n->field_count; i++) {
            const mc_field *f = &n->fields[i];
            uint64_t fs = rs + f->offset;
            uint64_t len = (uint64_t)mc_field_type_size(f->type) * (f->count ? f->count : 1);
            if (fs >= re) break;
            if (f->count == 0 && f->type == MC_FIELD_STRING) len = re - fs; /* to the record's end */
            if (len > re - fs) len = re - fs;
            if (fs > pos) /* bytes no field names */
                span(out, indent, bytes, rs, pos, fs - pos, "(unnamed bytes)", target);
            char value[160], label[224];
            mc_report_field_value(value, sizeof value, f, bytes + fs, re - fs);
            snprintf(label, sizeof label, "%s %s = %s", f->name[0] ? f->name : "value",
                     mc_field_type_name(f->type), value);
            span(out, indent, bytes, rs, fs, len, label, target);
            pos = fs + len;
        }
        if (pos < re) span(out, indent, bytes, rs, pos, re - pos, "(unnamed bytes)", target);
        return;
    }
    /* no layout: the record when small, else a window of the bytes around
     * the target, lines counted from the record's start */
    uint64_t start, stop;
    if (re - rs <= 4 * FIELD_BYTES && target >= rs && target < re) {
        start = rs;
        stop = re;
    } else {
        start = target >= WINDOW_BYTES / 2 ? target - WINDOW_BYTES / 2 : 0;
        if (start >= rs) start -= (start - rs) % FIELD_BYTES;
        stop = start + WINDOW_BYTES;
    }
    for (uint64_t at = start; at < stop && at < size; at += FIELD_BYTES) {
        uint64_t n2 = size - at < FIELD_BYTES ? size - at : FIELD_BYTES;
        if (n2 > stop - at) n2 = stop - at;
        int hit = target >= at && target - at < n2;
        hex_line(out, indent, hit ? '>' : ' ', at, (int64_t)at - (int64_t)rs, bytes + at, n2, "",
                 target, hit);
    }
}

/* The space and offset an instance's bytes are in: the decoded bytes of the
 * block its path names last when it has a decoded offset, else the file. */
static int instance_place(const mc_inspect *in, const mc_instance *inst, uint32_t *space,
                          uint64_t *off)
{
    *space = 0;
    *off = inst->offset;
    if (!inst->has_payload_offset) return 0;
    const char *at = strrchr(inst->path, '@');
    if (!at) return -1;
    char *end;
    uint64_t block = strtoull(at + 1, &end, 0);
    if (end == at + 1) return -1;
    *space = mc_inspect_space_of_block(in, block);
    *off = inst->payload_offset;
    return *space ? 0 : -1;
}

void mc_report_instance_bytes(FILE *out, mc_inspect *in, const mc_instance *inst,
                              const char *indent)
{
    uint32_t space;
    uint64_t off, size = 0;
    if (instance_place(in, inst, &space, &off) != 0) {
        fprintf(out, "%s(the decoded bytes of this block were not kept)\n", indent);
        return;
    }
    const uint8_t *bytes = mc_inspect_space(in, space, &size, NULL);
    const mc_location *l = mc_inspect_at(in, space, off);
    if (!bytes || !l) {
        fprintf(out, "%s(offset 0x%" PRIx64 " is the end of the %s: no byte to show)\n", indent, off,
                space ? "decoded block" : "file");
        return;
    }
    fprintf(out, "%sat %s", indent, l->path);
    if (space) fprintf(out, " (decoded offset 0x%" PRIx64 ")", off);
    fputc('\n', out);
    mc_report_bytes(out, l, bytes, size, off, indent);
}

void mc_report_file_text_bytes(FILE *out, const mc_result *r, const char *name, const mc_report_view *view,
                               const mc_options *opt)
{
    /* The file again, for --show-bytes (its report names it: it was just
     * read), at most as long as it was then. The same options give the same
     * walk, so the same paths and offsets; a file changed since it was
     * validated is shown without bytes. */
    mc_file_bytes file;
    int got = strcmp(name, "-") != 0 && mc_file_bytes_open(name, r->size, &file) == 0;
    mc_inspect *in = NULL;
    if (got && file.size == r->size && mc_inspect_memory(file.data, file.size, opt, &in) != MC_OK) in = NULL;
    mc_report_file_text_with(out, r, name, view, in);
    mc_inspect_free(in);
    if (got) mc_file_bytes_close(&file);
}
