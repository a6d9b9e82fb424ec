/*
 * Bytes from outside (file names, a loader's output, names read from a model)
 * made fit for where they are shown: JSON, which must be UTF-8 (RFC 8259,
 * section 8.1), and a terminal, which interprets control characters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_check.h"
#include "mc_rules.h"

int mc_utf8_valid(const char *s)
{
    size_t n = strlen(s);
    return mc_utf8_invalid_at((const uint8_t *)s, n) == n;
}

/* A Unicode bidirectional control: U+202A to U+202E (embeddings,
 * overrides) and U+2066 to U+2069 (isolates), three bytes in UTF-8. They
 * reorder what a terminal shows after them, so a name holding one can show
 * as another name. 0 when p does not start one. */
static unsigned bidi_control(const unsigned char *p, size_t left)
{
    if (left < 3 || p[0] != 0xe2) return 0;
    if (p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) return 0x2000u + p[2] - 0x80u;
    if (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9) return 0x2040u + p[2] - 0x80u;
    return 0;
}

/* What a terminal could act on: C0 controls, DEL, C1 controls (U+0080 to
 * U+009F, two bytes in UTF-8), bidi controls, and bytes that are no UTF-8
 * at all. */
static size_t plain_length(const unsigned char *p, size_t left)
{
    if (*p < 0x20 || *p == 0x7f || bidi_control(p, left)) return 0;
    size_t n = mc_utf8_sequence_length(p, left);
    if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) return 0;
    return n;
}

enum style {
    PERCENT, /* JSON: invalid bytes and '%' as %XX */
    QUOTED,  /* terminal, reversible: C escapes inside double quotes */
    CLEAN    /* terminal and JSON, one way: control and invalid bytes as \xHH,
              * bidi controls as \u20XX */
};

enum { ESCAPE_MAX = 7 }; /* "\u202E" and its NUL, the longest escape */

/* The escape of what starts at p in that style, "" to keep the sequence of
 * n bytes at p as it is. A bidi control is escaped whole, as C writes a
 * code point (\u202E); any other byte alone. */
static const char *escape_of(const unsigned char *p, size_t left, enum style st, size_t *n,
                             char buf[ESCAPE_MAX])
{
    static const char hex[] = "0123456789ABCDEF";
    *n = st == PERCENT ? mc_utf8_sequence_length(p, left) : plain_length(p, left);
    if (st == PERCENT && *p == '%') *n = 0;
    if (st == QUOTED && (*p == '"' || *p == '\\')) *n = 0;
    if (*n) return "";
    unsigned bidi = st == PERCENT ? 0 : bidi_control(p, left);
    if (bidi) {
        *n = 3;
        buf[0] = '\\', buf[1] = 'u';
        for (int k = 0; k < 4; k++) buf[2 + k] = hex[(bidi >> (12 - 4 * k)) & 15];
        buf[6] = '\0';
        return buf;
    }
    *n = 1;
    if (st == QUOTED) {
        static const char *const c_escape[][2] = {{"\n", "\\n"}, {"\t", "\\t"}, {"\r", "\\r"},
                                                  {"\"", "\\\""}, {"\\", "\\\\"}};
        for (size_t k = 0; k < sizeof c_escape / sizeof *c_escape; k++)
            if (*p == (unsigned char)c_escape[k][0][0]) return c_escape[k][1];
    }
    buf[0] = st == PERCENT ? '%' : '\\';
    buf[st == PERCENT ? 1 : 2] = hex[*p >> 4];
    buf[st == PERCENT ? 2 : 3] = hex[*p & 15];
    if (st == PERCENT) buf[3] = '\0';
    else buf[1] = 'x', buf[4] = '\0';
    return buf;
}

/* s rewritten into out (size bytes, NUL-terminated), cut before what does
 * not fit, never inside a sequence or an escape. Returns the length. */
static size_t rewrite(char *out, size_t size, const char *s, enum style st)
{
    size_t o = 0, left = strlen(s);
    if (!size) return 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        char buf[ESCAPE_MAX];
        size_t n;
        const char *e = escape_of(p, left, st, &n, buf);
        const char *from = *e ? e : (const char *)p;
        size_t len = *e ? strlen(e) : n;
        if (len >= size - o) break;
        memcpy(out + o, from, len);
        o += len;
        p += n;
        left -= n;
    }
    out[o] = '\0';
    return o;
}

/* A malloc'd copy of s rewritten in that style, between the quotes when
 * given; 4 bytes out for one in is the most any style writes. */
static char *rewrite_copy(const char *s, enum style st, const char *quote)
{
    size_t len = strlen(s), q = strlen(quote);
    if (len > (SIZE_MAX - 1 - 2 * q) / 4) return NULL;
    size_t size = 4 * len + 2 * q + 1;
    char *out = malloc(size);
    if (!out) return NULL;
    memcpy(out, quote, q);
    size_t n = q + rewrite(out + q, size - q, s, st);
    memcpy(out + n, quote, q + 1);
    return out;
}

static char *copy(const char *s)
{
    size_t len = strlen(s);
    char *out = malloc(len + 1);
    if (out) memcpy(out, s, len + 1);
    return out;
}

char *mc_utf8_escape(const char *s, int *escaped)
{
    int change = !mc_utf8_valid(s);
    if (escaped) *escaped = change;
    return change ? rewrite_copy(s, PERCENT, "") : copy(s);
}

char *mc_text_quote(const char *s)
{
    int plain = 1;
    size_t left = strlen(s);
    /* as git quotes paths: a name holding a quote or a backslash is quoted
     * too, or it could read as the quoted form of another name */
    for (const unsigned char *p = (const unsigned char *)s; *p && plain;) {
        size_t n = plain_length(p, left);
        plain = n != 0 && *p != '"' && *p != '\\';
        p += n;
        left -= n;
    }
    return plain ? copy(s) : rewrite_copy(s, QUOTED, "\"");
}

size_t mc_text_clean(char *dst, size_t size, const char *src)
{
    return rewrite(dst, size, src, CLEAN);
}
