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
        uint64_t n = count < avail ? count : avail;
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

static void hex_line(FILE *out, const char *indent, char mark, uint64_t at, uint64_t rel,
                     const uint8_t *p, uint64_t n, const char *label, uint64_t target,
                     int has_target)
{
    fprintf(out, "%s%c 0x%08" PRIx64 " +%-4" PRIu64 " ", indent, mark, at, rel);
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
            if (len > re - fs) len = re - fs;
            if (fs > pos) /* bytes no field names */
                hex_line(out, indent, target >= pos && target < fs ? '>' : ' ', pos, pos - rs,
                         bytes + pos, fs - pos, "(unnamed bytes)", target, 1);
            char value[160], label[224];
            mc_report_field_value(value, sizeof value, f, bytes + fs, re - fs);
            snprintf(label, sizeof label, "%s %s = %s", f->name[0] ? f->name : "value",
                     mc_field_type_name(f->type), value);
            int hit = l->field == f;
            uint64_t line = fs;
            /* the field's line, or the line of its bytes holding the target */
            if (hit && len > FIELD_BYTES && target >= fs)
                line = fs + (target - fs) / FIELD_BYTES * FIELD_BYTES;
            hex_line(out, indent, hit ? '>' : ' ', line, line - rs, bytes + line,
                     len - (line - fs), label, target, hit);
            pos = fs + len;
        }
        if (pos < re)
            hex_line(out, indent, target >= pos ? '>' : ' ', pos, pos - rs, bytes + pos, re - pos,
                     "(unnamed bytes)", target, 1);
        return;
    }
    /* no layout: a window of the bytes around the target */
    uint64_t start = target >= WINDOW_BYTES / 2 ? target - WINDOW_BYTES / 2 : 0;
    start -= start % FIELD_BYTES;
    for (uint64_t at = start; at < start + WINDOW_BYTES && at < size; at += FIELD_BYTES) {
        uint64_t n2 = size - at < FIELD_BYTES ? size - at : FIELD_BYTES;
        int hit = target >= at && target - at < n2;
        hex_line(out, indent, hit ? '>' : ' ', at, at >= rs ? at - rs : 0, bytes + at, n2, "",
                 target, hit);
    }
}
