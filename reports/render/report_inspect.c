/*
 * The reports of `modelcheck inspect` (cli/inspect.c) and of the
 * WebAssembly build (web/src/mc_wasm.c), written here once so that both
 * print the same bytes: the text view, the JSON document
 * (reports/schema/inspect.schema.json) and the --at view of one byte.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_report.h"
#include "modelcheck.h"

/* "123", "0x7b"; the whole string must be a number. */
static int parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

/* OFFSET, or BLOCK+OFFSET for a byte of a decoded LZMA block (BLOCK is its
 * file offset, optionally written as the path segment lzma@BLOCK, or as a
 * whole path ending in it). */
int mc_inspect_parse_at(const mc_inspect *in, const char *s, uint32_t *space, uint64_t *off)
{
    *space = 0;
    const char *plus = strrchr(s, '+');
    if (!plus) return parse_u64(s, off);
    char block[256];
    size_t n = (size_t)(plus - s);
    if (n >= sizeof block) return -1;
    memcpy(block, s, n);
    block[n] = '\0';
    char *b = strrchr(block, '@');
    b = b ? b + 1 : block;
    char *slash = strchr(b, '/'); /* a whole issue path: its last block */
    if (slash) *slash = '\0';
    uint64_t boff;
    if (parse_u64(b, &boff) != 0 || parse_u64(plus + 1, off) != 0) return -1;
    *space = mc_inspect_space_of_block(in, boff);
    return *space ? 0 : -2;
}

/* ---- text ---- */

static void print_attr_value(FILE *out, const mc_attr *a)
{
    switch (a->type) {
    case MC_VALUE_U64: fprintf(out, "%" PRIu64, a->u); break;
    case MC_VALUE_I64: fprintf(out, "%" PRId64, a->i); break;
    case MC_VALUE_F64: fprintf(out, "%g", a->f); break;
    case MC_VALUE_STRING: {
        if (!a->s[0]) {
            fputs("\"\"", out);
            break;
        }
        char *q = mc_text_quote(a->s);
        fputs(q ? q : "?", out);
        free(q);
        break;
    }
    case MC_VALUE_VEC:
    case MC_VALUE_U64S:
        fputc('(', out);
        for (size_t i = 0; i < a->n; i++) {
            if (i) fputs(", ", out);
            if (a->type == MC_VALUE_VEC)
                fprintf(out, "%g", a->v[i]);
            else
                fprintf(out, "%" PRIu64, a->list[i]);
        }
        fputc(')', out);
        break;
    }
}

/* An E3D block's type as the spec writes it, "type=0x1000"; hex_type 2:
 * with the block's name, "type=0x1010 (mesh)" (its path segment, "mesh/0"'s
 * "mesh"), where the line's path does not end with it. */
static int print_block_type(FILE *out, const mc_node *n, const mc_attr *a, int hex_type)
{
    if (strcmp(a->key, "type") != 0 || a->type != MC_VALUE_U64 || a->u > 0xFFFF) return 0;
    const mc_node *named = n;
    /* a record of a block (the mesh of mesh/0) has its block's name */
    if (!named->name[0] || strchr("0123456789", named->name[0])) named = n->parent ? n->parent : n;
    size_t len = strcspn(named->name, "/");
    fprintf(out, "  type=0x%04" PRIx64, a->u);
    if (hex_type == 2 && len && strncmp(named->name, "0x", 2) != 0) fprintf(out, " (%.*s)", (int)len, named->name);
    return 1;
}

/* hex_type: the file is E3D, whose "type" attributes are block types (2:
 * named, print_block_type) */
static void print_attrs(FILE *out, const mc_node *n, int hex_type, const char *skip)
{
    for (const mc_attr *a = n->attrs; a; a = a->next) {
        if (skip && strcmp(a->key, skip) == 0) continue;
        if (hex_type && print_block_type(out, n, a, hex_type)) continue;
        fprintf(out, "  %s=", a->key);
        print_attr_value(out, a);
    }
}

static int is_structural(const char *kind)
{
    static const char *const kinds[] = {"file", "header", "section", "array", "block", "lzma",
                                        "chunk", "record", NULL};
    for (int i = 0; kinds[i]; i++)
        if (strcmp(kind, kinds[i]) == 0) return 1;
    return 0;
}

static int depth_of(const mc_node *n)
{
    int d = 0;
    for (; n && n->parent; n = n->parent) d++;
    return d;
}

/* Next node in depth-first order (no recursion). */
static const mc_node *next_node(const mc_node *root, const mc_node *n)
{
    if (n->first_child) return n->first_child;
    while (n && n != root) {
        if (n->next) return n->next;
        n = n->parent;
    }
    return NULL;
}

/* The array a block holds, named by it (E3D's .../interleaved: the block
 * and its vertices share a path), or NULL. */
static const mc_node *own_array(const mc_node *n)
{
    for (const mc_node *k = n->first_child; k; k = k->next)
        if (!k->name[0] && strcmp(k->kind, "array") == 0 && k->space == n->inner_space) return k;
    return NULL;
}

/* A line of the map: structural, not a record, not an array its block's
 * line already shows. */
static int on_map(const mc_node *n)
{
    if (!is_structural(n->kind) || strcmp(n->kind, "record") == 0) return 0;
    return !(n->parent && !n->name[0] && own_array(n->parent) == n);
}

/* "  " per level, then the path */
static int map_label(const mc_node *n, char *label, size_t size)
{
    char path[256];
    mc_node_path(n, path, sizeof path);
    int d = depth_of(n) - 1;
    return snprintf(label, size, "%*s%s", 2 * (d < 10 ? d : 10), "", path);
}

/* The section map: structural nodes (sections, arrays, blocks) with their
 * place, one line each (a block with its array: the array's count); their
 * records are counted, not listed. The path column is as wide as the
 * deepest path needs. */
static void print_map(FILE *out, const mc_inspect *in)
{
    const mc_node *root = mc_inspect_root(in);
    int hex_type = mc_inspect_result(in)->format == MC_FORMAT_E3D;
    char label[300];
    int width = 40;
    for (const mc_node *n = root->first_child; n; n = next_node(root, n)) {
        int w = on_map(n) ? map_label(n, label, sizeof label) : 0;
        if (w > width) width = w < (int)sizeof label ? w : (int)sizeof label - 1;
    }
    fputs("  sections:\n", out);
    fprintf(out, "    %-*s %12s %12s %10s\n", width, "path", "offset", "size", "count");
    for (const mc_node *n = root->first_child; n; n = next_node(root, n)) {
        if (!on_map(n)) continue;
        map_label(n, label, sizeof label);
        fprintf(out, "    %-*s %12" PRIu64 " %12" PRIu64, width, label, n->offset, n->size);
        const mc_attr *cnt = mc_node_attr(n, "count");
        const mc_node *arr = n->stride ? n : own_array(n);
        if (arr && arr->stride)
            fprintf(out, " %10" PRIu64, arr->count);
        else if (cnt)
            fprintf(out, " %10" PRIu64, cnt->u);
        else
            fprintf(out, " %10s", "");
        print_attrs(out, n, hex_type, "count");
        if (n->space) fprintf(out, "  (decoded space %" PRIu32 ")", n->space);
        if (n->inner_space != n->space) {
            uint64_t size = 0;
            mc_inspect_space(in, n->inner_space, &size, NULL);
            fprintf(out, "  LZMA: %" PRIu64 " packed, %" PRIu64 " unpacked", n->size, size);
        }
        fputc('\n', out);
    }
}

/* Nodes of one kind (meshes, materials, ...): one line each with their
 * decoded attributes. */
static void print_kind(FILE *out, const mc_inspect *in, const char *kind, const char *title)
{
    const mc_node *root = mc_inspect_root(in);
    int any = 0;
    for (const mc_node *n = root->first_child; n; n = next_node(root, n)) {
        if (strcmp(n->kind, kind) != 0) continue;
        if (!any) fprintf(out, "  %s:\n", title);
        any = 1;
        char path[256];
        mc_node_path(n, path, sizeof path);
        fprintf(out, "    %s", path);
        print_attrs(out, n, mc_inspect_result(in)->format == MC_FORMAT_E3D ? 2 : 0, NULL);
        /* names stored as strings of their own (SEModel, E3D blocks) */
        for (const mc_node *k = n->first_child; k; k = k->next) {
            const mc_attr *t = mc_node_attr(k, "text");
            if (!t || (strcmp(k->kind, "string") != 0 && strcmp(k->kind, "block") != 0)) continue;
            fprintf(out, "  %s=", k->name);
            print_attr_value(out, t);
        }
        fputc('\n', out);
    }
}

typedef struct bone {
    const mc_node *n;
    int64_t parent;
    uint64_t first_child, next; /* indices + 1; 0 none */
    int seen;
} bone;

/* The skeleton as an indented tree: bones list their parent's index; a
 * bone whose parent is not an earlier bone is a root, and a bone on a
 * cycle (unreachable from a root) is listed after the tree. */
static void print_skeleton(FILE *out, const mc_inspect *in)
{
    const mc_node *root = mc_inspect_root(in);
    uint64_t count = 0;
    for (const mc_node *n = root->first_child; n; n = next_node(root, n))
        count += strcmp(n->kind, "bone") == 0;
    if (!count || count > SIZE_MAX) return; /* nodes in memory: never past SIZE_MAX */
    bone *b = calloc((size_t)count, sizeof *b);
    uint64_t *stack = calloc((size_t)count, sizeof *stack);
    int *depth = calloc((size_t)count, sizeof *depth);
    if (!b || !stack || !depth) goto done;
    uint64_t k = 0;
    for (const mc_node *n = root->first_child; n; n = next_node(root, n)) {
        if (strcmp(n->kind, "bone") != 0) continue;
        const mc_attr *p = mc_node_attr(n, "parent");
        b[k].n = n;
        b[k].parent = p ? (p->type == MC_VALUE_I64 ? p->i : (int64_t)p->u) : -1;
        k++;
    }
    /* children in order: link in reverse */
    for (uint64_t i = count; i-- > 0;) {
        int64_t p = b[i].parent;
        if (p >= 0 && (uint64_t)p < count && (uint64_t)p != i) {
            b[i].next = b[p].first_child;
            b[p].first_child = i + 1;
        }
    }
    fprintf(out, "  skeleton (%" PRIu64 " bones):\n", count);
    for (uint64_t r = 0; r < count; r++) {
        int64_t p = b[r].parent;
        if (p >= 0 && (uint64_t)p < count && (uint64_t)p != r) continue;
        uint64_t sp = 0;
        stack[sp] = r;
        depth[sp++] = 0;
        while (sp) {
            uint64_t i = stack[--sp];
            int d = depth[sp];
            if (b[i].seen) continue;
            b[i].seen = 1;
            const mc_attr *name = mc_node_attr(b[i].n, "name");
            fprintf(out, "    %*s%" PRIu64, 2 * (d < 40 ? d : 40), "", i);
            if (name) {
                fputc(' ', out);
                print_attr_value(out, name);
            }
            fprintf(out, "  (parent %" PRId64 ")\n", b[i].parent);
            /* push children in reverse so the first prints first */
            uint64_t kids[64], nk = 0;
            for (uint64_t c = b[i].first_child; c; c = b[c - 1].next) {
                if (nk < 64) kids[nk++] = c - 1;
                else if (sp < count) stack[sp] = c - 1, depth[sp++] = d + 1;
            }
            while (nk && sp < count) stack[sp] = kids[--nk], depth[sp++] = d + 1;
        }
    }
    for (uint64_t i = 0; i < count; i++)
        if (!b[i].seen)
            fprintf(out, "    %" PRIu64 "  (parent %" PRId64 "; on a cycle: no root reaches it)\n",
                    i, b[i].parent);
done:
    free(b);
    free(stack);
    free(depth);
}

static const mc_instance *first_error(const mc_result *r, const mc_issue **issue)
{
    const mc_instance *best = NULL;
    for (size_t i = 0; i < r->issue_count; i++) {
        const mc_issue *is = &r->issues[i];
        if (is->severity != MC_SEVERITY_ERROR || !is->instance_count) continue;
        if (!best || is->instances[0].offset < best->offset) {
            best = &is->instances[0];
            *issue = is;
        }
    }
    return best;
}

void mc_inspect_report_text(FILE *out, const mc_inspect *in, const char *name)
{
    const mc_result *r = mc_inspect_result(in);
    char *q = mc_text_quote(name);
    fprintf(out, "%s: %s", q ? q : "?", mc_format_name(r->format));
    free(q);
    if (r->layout[0]) fprintf(out, " (%s)", r->layout);
    uint64_t e = r->counts[MC_SEVERITY_ERROR], w = r->counts[MC_SEVERITY_WARNING];
    fprintf(out, ", %" PRIu64 " bytes: %s (%" PRIu64 " error%s, %" PRIu64 " warning%s)\n", r->size,
            mc_result_valid(r) ? "valid" : "invalid", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s");
    const mc_issue *is = NULL;
    const mc_instance *first = first_error(r, &is);
    if (first) {
        fprintf(out, "  first error: %s at 0x%" PRIx64 " [%s]: %s\n", mc_code_get(is->code)->name,
                first->offset, first->path, first->message);
        fputs("  (the structure below is what could be followed)\n", out);
    }
    if (mc_inspect_truncated(in)) fputs("  note: the tree was cut at its node limit\n", out);
    print_map(out, in);
    print_kind(out, in, "mesh", "meshes");
    print_kind(out, in, "material", "materials");
    print_kind(out, in, "texture", "textures");
    print_skeleton(out, in);
    print_kind(out, in, "animation", "animations");
    print_kind(out, in, "string", "strings");
    print_kind(out, in, "uv_set", "UV sets");
}

/* ---- JSON ---- */

static void json_text(FILE *out, const char *s)
{
    int escaped = 0;
    char *e = mc_utf8_escape(s, &escaped);
    fputc('"', out);
    for (const char *p = e ? e : ""; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
    free(e);
}

int mc_inspect_report_json(FILE *out, const mc_inspect *in, const char *name, int first)
{
    const mc_result *r = mc_inspect_result(in);
    char *tree = mc_inspect_json(in);
    if (!tree) return -1;
    fputs(first ? "\n" : ",\n", out);
    fputs("{\"path\":", out);
    json_text(out, name);
    fprintf(out, ",\"format\":\"%s\",\"layout\":", mc_format_name(r->format));
    json_text(out, r->layout);
    fprintf(out, ",\"size\":%" PRIu64 ",\"valid\":%s,\"errors\":%" PRIu64 ",\"warnings\":%" PRIu64
            ",\"truncated\":%s,\"first_error\":",
            r->size, mc_result_valid(r) ? "true" : "false", r->counts[MC_SEVERITY_ERROR],
            r->counts[MC_SEVERITY_WARNING], mc_inspect_truncated(in) ? "true" : "false");
    const mc_issue *is = NULL;
    const mc_instance *e = first_error(r, &is);
    if (e) {
        fprintf(out, "{\"code\":\"%s\",\"offset\":%" PRIu64 ",\"path\":", mc_code_get(is->code)->name,
                e->offset);
        json_text(out, e->path);
        fputs(",\"message\":", out);
        json_text(out, e->message);
        fputc('}', out);
    } else {
        fputs("null", out);
    }
    fprintf(out, ",\"structure\":%s}", tree);
    free(tree);
    return 0;
}

/* ---- --at and --extract-block ---- */

int mc_inspect_report_at(FILE *out, FILE *err, mc_inspect *in, const char *name, const char *at)
{
    uint32_t space;
    uint64_t off;
    int p = mc_inspect_parse_at(in, at, &space, &off);
    if (p == -2) {
        fprintf(err, "modelcheck inspect: %s: no decoded LZMA block at %s\n", name, at);
        return 2;
    }
    if (p != 0) {
        fputs("modelcheck inspect: --at needs OFFSET or BLOCK+OFFSET (decimal or 0x hex)\n"
              "try 'modelcheck inspect --help'\n", err);
        return 2;
    }
    uint64_t size = 0;
    const uint8_t *bytes = mc_inspect_space(in, space, &size, NULL);
    const mc_location *l = mc_inspect_at(in, space, off);
    char *q = mc_text_quote(name);
    if (!l) {
        fprintf(err, "modelcheck inspect: %s: offset %s is past the end (%" PRIu64 " bytes)\n",
                q ? q : "?", at, size);
        free(q);
        return 2;
    }
    fprintf(out, "%s: 0x%" PRIx64 " (%" PRIu64 ")", q ? q : "?", off, off);
    free(q);
    if (space) fprintf(out, " in decoded space %" PRIu32, space);
    char node[256];
    mc_node_path(l->node, node, sizeof node);
    fprintf(out, "\n  path:   %s\n  node:   %s (%s) at 0x%" PRIx64 ", %" PRIu64 " bytes", l->path, node,
            l->node->kind, l->node->offset, l->node->size);
    if (l->node->stride)
        fprintf(out, ", %" PRIu64 " records of %" PRIu64 " bytes", l->node->count, l->node->stride);
    fputc('\n', out);
    if (l->field) {
        char value[160];
        uint64_t fs = l->record_offset + l->field->offset;
        mc_report_field_value(value, sizeof value, l->field, bytes + fs, size - fs);
        fprintf(out, "  field:  %s, %s x %" PRIu32 " at +%" PRIu32 ", element %" PRIu32 "\n",
                l->field->name[0] ? l->field->name : "value", mc_field_type_name(l->field->type),
                l->field->count ? l->field->count
                                : (uint32_t)(l->record_size - l->field->offset), /* to the end */
                l->field->offset, l->field_element);
        fprintf(out, "  value:  %s\n", value);
    }
    fprintf(out, "  record: 0x%" PRIx64 ", %" PRIu64 " bytes\n", l->record_offset, l->record_size);
    mc_report_bytes(out, l, bytes, size, off, "  ");
    return 0;
}


/* ---- the document around the files, and --at as data ---- */

void mc_inspect_report_begin(FILE *out)
{
    fprintf(out, "{\"tool\":{\"name\":\"modelcheck\",\"version\":\"%s\"},\"files\":[", MC_VERSION_STRING);
}

void mc_inspect_report_end(FILE *out)
{
    fputs("\n]}\n", out);
}

/* The facts --at prints, as an object: what the web page shows under the
 * pointer in its hex view. */
cJSON *mc_inspect_at_json(mc_inspect *in, uint32_t space, uint64_t off)
{
    uint64_t size = 0;
    const uint8_t *bytes = mc_inspect_space(in, space, &size, NULL);
    const mc_location *l = bytes ? mc_inspect_at(in, space, off) : NULL;
    if (!l) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    char node[256];
    mc_node_path(l->node, node, sizeof node);
    cJSON_AddNumberToObject(o, "offset", (double)off);
    cJSON_AddNumberToObject(o, "space", space);
    cJSON_AddStringToObject(o, "path", l->path);
    cJSON *n = cJSON_AddObjectToObject(o, "node");
    cJSON_AddStringToObject(n, "path", node);
    cJSON_AddStringToObject(n, "kind", l->node->kind);
    cJSON_AddNumberToObject(n, "offset", (double)l->node->offset);
    cJSON_AddNumberToObject(n, "size", (double)l->node->size);
    if (l->node->stride) {
        cJSON_AddNumberToObject(n, "count", (double)l->node->count);
        cJSON_AddNumberToObject(n, "stride", (double)l->node->stride);
    }
    if (l->field) {
        char value[160];
        uint64_t fs = l->record_offset + l->field->offset;
        mc_report_field_value(value, sizeof value, l->field, bytes + fs, size - fs);
        cJSON *f = cJSON_AddObjectToObject(o, "field");
        cJSON_AddStringToObject(f, "name", l->field->name[0] ? l->field->name : "value");
        cJSON_AddStringToObject(f, "type", mc_field_type_name(l->field->type));
        cJSON_AddNumberToObject(f, "offset", l->field->offset);
        cJSON_AddNumberToObject(f, "count", l->field->count ? l->field->count
                                                            : (double)(l->record_size - l->field->offset));
        cJSON_AddNumberToObject(f, "element", l->field_element);
        cJSON_AddStringToObject(f, "value", value);
    } else {
        cJSON_AddNullToObject(o, "field");
    }
    cJSON *r = cJSON_AddObjectToObject(o, "record");
    cJSON_AddNumberToObject(r, "offset", (double)l->record_offset);
    cJSON_AddNumberToObject(r, "size", (double)l->record_size);
    return o;
}
