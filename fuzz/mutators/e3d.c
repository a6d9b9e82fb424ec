/*
 * E3D (e3d.adoc of github.com/ecere/E3D-spec, docs/formats/e3d.md): the input
 * becomes a block tree (u16 type, u32 length including the 6-byte header).
 * Containers are the types the spec and docs/formats/e3d.md nest ("Nesting");
 * attributes and morphs start with a u32 count, animationTrack with its key
 * frames, before their children. An LZMA block (0x0010: u32 size, 5 property
 * bytes, raw LZMA1) is decoded with the LZMA SDK and its payload parsed as
 * children, so mutations reach compressed content; on output it is compressed
 * again with the block's own lc/lp/pb and dictionary size (a new LZMA block
 * gets the reference writer's 4/4/4, 2^26).
 *
 * One call: a few edits (a leaf's payload, a container's count prefix, a
 * block type; delete, duplicate, insert (fresh or copied from elsewhere),
 * swap; wrap blocks into a new LZMA block or unwrap one; now and then a
 * deliberately wrong length or declared size), then the tree is written out
 * with every length recomputed on the way up. Bytes that do not parse as
 * blocks (a top-level tail) are kept verbatim.
 *
 * Bounds: MCM_E3D_NODES blocks, MCM_E3D_DECODED decoded bytes per call,
 * MCM_E3D_DEPTH nesting; anything past them stays opaque bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "mcm_lzma.h" /* first: the SDK names as the mutators' copy has them */

#include "LzmaDec.h"
#include "LzmaEnc.h"
#include "mc_lzma_alloc.h"
#include "mc_reader.h"
#include "mcm.h"

enum {
    MCM_E3D_NODES = 4096,
    MCM_E3D_DEPTH = 24,
    MCM_E3D_DECODED = 1 << 20,
    MCM_E3D_OWNED = 512,
    T_VERSION = 0x0001,
    T_LZMA = 0x0010
};

typedef enum { N_ROOT, N_LEAF, N_BOX, N_LZMA, N_RAW } node_kind;

typedef struct {
    uint16_t type;
    uint8_t kind;
    const uint8_t *p; /* leaf payload, box prefix, raw bytes; unused for LZMA */
    size_t n;
    uint8_t props[5];   /* LZMA: lc/lp/pb byte and dictionary size */
    int32_t len_delta;  /* added to the written length: a framing error on purpose */
    int32_t size_delta; /* LZMA: added to the declared uncompressed size */
    int first, next;    /* children, siblings (-1: none) */
} node;

typedef struct {
    node *nodes;
    int count;
    void *owned[MCM_E3D_OWNED];
    unsigned nowned;
    size_t decoded;
    mcm_rng *r;
    int *par; /* parents(): the parent of each block in the tree */
} tree;

/* ---- memory ---- */

static ISzAlloc sz = MC_LZMA_ALLOCATOR;

/* Every buffer the tree points to besides the input, freed together. */
static uint8_t *own(tree *t, size_t n)
{
    if (t->nowned >= MCM_E3D_OWNED) return NULL;
    uint8_t *b = malloc(n ? n : 1);
    if (b) t->owned[t->nowned++] = b;
    return b;
}

static int new_node(tree *t, uint16_t type, node_kind kind)
{
    if (t->count >= MCM_E3D_NODES) return -1;
    node *n = &t->nodes[t->count];
    memset(n, 0, sizeof *n);
    n->type = type;
    n->kind = (uint8_t)kind;
    n->first = n->next = -1;
    if (t->par) t->par[t->count] = -2; /* not in the tree until linked and walked */
    return t->count++;
}

/* ---- types ---- */

/* Every block type of e3d.adoc's table and the reference code's morph
 * blocks (docs/formats/e3d.md): inserted blocks and type changes draw from it. */
static const uint16_t known_types[] = {
    0x0001, 0x0010, 0x1000, 0x1010, 0x1020, 0x1021, 0x1022, 0x1030, 0x1031, 0x1040, 0x1050, 0x1051, 0x1052,
    0x1053, 0x1054, 0x1060, 0x1070, 0x1071, 0x1072, 0x1073, 0x1074, 0x2000, 0x2010, 0x2011, 0x2018, 0x2020,
    0x2030, 0x2031, 0x2037, 0x2070, 0x2080, 0x2081, 0x2090, 0x2091, 0x2097, 0x2800, 0x4000, 0x3000, 0x3010,
    0x3011, 0x3012, 0x3020, 0x3021, 0x3030, 0x3031, 0x3032, 0x3040, 0x8000, 0x8010, 0x8011, 0x8012, 0x8013,
    0x8020, 0x8021, 0x8022, 0x8023, 0x8024, 0x8030, 0x8031, 0x8032, 0x8034, 0x8100, 0x8101, 0x8102, 0x8103,
    0x8200, 0x8201, 0x8202, 0x8300, 0x8301, 0x8400, 0x8401, 0x9000, 0x9001, 0x9002, 0x9003, 0x9101, 0x9102,
    0x9103, 0xA000, 0xA010, 0xA021, 0xA022, 0xA100, 0xA110, 0xA120, 0xA210, 0xA220, 0xA230, 0xA240, 0xA250,
    0xA260, 0xA270, 0xA280, 0xA290, 0xA2A0, 0xA2B0, 0xA2C0, 0xA300, 0xFFFF, 0x0000,
};

static bool is_map(uint16_t type)
{
    return (type >= 0x8100 && type <= 0x8103) || (type >= 0x8200 && type <= 0x8202) || type == 0x8300 ||
           type == 0x8301 || type == 0x8400 || type == 0x8401;
}

static bool is_container(uint16_t type)
{
    switch (type) {
    case 0x1000: case 0x1010: case 0x1050: case 0x1070: case 0x1071: case 0x2000: case 0x3000: case 0x3010:
    case 0x8000: case 0x8010: case 0x9000: case 0x9001: case 0xA000: case 0xA010: case 0xA100:
        return true;
    default:
        return is_map(type);
    }
}

/* Bytes before a container's children, or SIZE_MAX if p/n cannot hold them. */
static size_t prefix_len(uint16_t type, const uint8_t *p, size_t n)
{
    switch (type) {
    case 0x2000:
    case 0x1070: return n >= 4 ? 4 : SIZE_MAX;
    case 0xA100: {
        if (n < 4) return SIZE_MAX;
        uint64_t keys = mc_le32(p);
        uint64_t len = 5 + 4 * keys;
        return len <= n ? (size_t)len : SIZE_MAX;
    }
    default: return 0;
    }
}

/* ---- parsing ---- */

static int parse_list(tree *t, int parent, const uint8_t *p, size_t n, unsigned depth, bool lenient);

static bool decode_lzma(tree *t, int id, const uint8_t *p, size_t n, unsigned depth)
{
    if (n < 9 || depth >= MCM_E3D_DEPTH) return false;
    uint32_t declared = mc_le32(p);
    if (declared > MCM_E3D_DECODED - t->decoded) return false; /* bounded before any allocation */
    uint8_t *out = own(t, declared);
    if (!out) return false;
    SizeT out_len = declared, in_len = n - 9;
    ELzmaStatus status;
    SRes res = LzmaDecode(out, &out_len, p + 9, &in_len, p + 4, 5, LZMA_FINISH_ANY, &status, &sz);
    if (res != SZ_OK || out_len != declared) return false;
    t->decoded += declared;
    node *nd = &t->nodes[id];
    memcpy(nd->props, p + 4, 5);
    nd->kind = N_LZMA;
    if (parse_list(t, id, out, declared, depth + 1, false) < 0) {
        nd->kind = N_LEAF;
        nd->first = -1;
        return false;
    }
    return true;
}

/* One block's payload under node id. */
static void parse_payload(tree *t, int id, const uint8_t *p, size_t n, unsigned depth)
{
    node *nd = &t->nodes[id];
    nd->p = p;
    nd->n = n;
    if (nd->type == T_LZMA) {
        if (!decode_lzma(t, id, p, n, depth)) {
            t->nodes[id].kind = N_LEAF;
            t->nodes[id].p = p;
            t->nodes[id].n = n;
        }
        return;
    }
    if (!is_container(nd->type) || depth >= MCM_E3D_DEPTH) return;
    size_t pre = prefix_len(nd->type, p, n);
    if (pre == SIZE_MAX) return;
    int saved = t->count;
    nd->kind = N_BOX;
    nd->n = pre;
    if (parse_list(t, id, p + pre, n - pre, depth + 1, false) < 0) {
        /* not a tiling of blocks: keep it as an opaque leaf */
        t->count = saved;
        nd = &t->nodes[id];
        nd->kind = N_LEAF;
        nd->n = n;
        nd->first = -1;
    }
}

/* Children of parent from p[0..n). Strict: the blocks must tile the range
 * exactly. Lenient (top level): what does not parse becomes a raw tail. */
static int parse_list(tree *t, int parent, const uint8_t *p, size_t n, unsigned depth, bool lenient)
{
    size_t pos = 0;
    int last = -1;
    while (pos < n) {
        int id;
        size_t take;
        uint32_t len = n - pos >= 6 ? mc_le32(p + pos + 2) : 0;
        if (n - pos < 6 || len < 6 || len > n - pos) {
            if (!lenient) return -1;
            id = new_node(t, 0, N_RAW);
            if (id < 0) return -1;
            t->nodes[id].p = p + pos;
            t->nodes[id].n = n - pos;
            take = n - pos;
        } else {
            id = new_node(t, mc_le16(p + pos), N_LEAF);
            if (id < 0) return -1;
            parse_payload(t, id, p + pos + 6, len - 6, depth);
            take = len;
        }
        if (last < 0) t->nodes[parent].first = id;
        else t->nodes[last].next = id;
        last = id;
        pos += take;
    }
    return 0;
}

/* ---- writing ---- */

typedef struct {
    uint8_t *b;
    size_t len, cap;
    bool fail;
} outbuf;

static void put(outbuf *o, const void *p, size_t n)
{
    if (o->fail || n > o->cap - o->len) {
        o->fail = true;
        return;
    }
    if (n) memcpy(o->b + o->len, p, n);
    o->len += n;
}

static void write_list(const tree *t, int first, outbuf *o, unsigned depth);

static void write_lzma(const tree *t, const node *nd, outbuf *o, unsigned depth)
{
    size_t cap = MCM_E3D_DECODED;
    outbuf in = {malloc(cap), 0, cap, false};
    if (!in.b) {
        o->fail = true;
        return;
    }
    write_list(t, nd->first, &in, depth + 1);
    if (in.fail) {
        free(in.b);
        o->fail = true;
        return;
    }
    uint8_t head[9];
    mcm_put32(head, (uint32_t)((int64_t)in.len + nd->size_delta));
    memcpy(head + 4, nd->props, 5);
    put(o, head, sizeof head);
    if (o->fail) {
        free(in.b);
        return;
    }
    unsigned pb = nd->props[0] / 45, lp = nd->props[0] % 45 / 9, lc = nd->props[0] % 9;
    uint32_t dict = mc_le32(nd->props + 1);
    CLzmaEncProps ep;
    LzmaEncProps_Init(&ep);
    ep.lc = (int)lc;
    ep.lp = (int)(lp > 4 ? 4 : lp);
    ep.pb = (int)(pb > 4 ? 4 : pb);
    /* never a larger window than the declared dictionary, so the stream
     * stays decodable with the props as written */
    ep.dictSize = dict < (1u << 12) ? (1u << 12) : dict > (1u << 26) ? (1u << 26) : dict;
    ep.reduceSize = (UInt32)in.len;
    ep.algo = 0;
    ep.btMode = 0;
    ep.fb = 16;
    ep.numThreads = 1;
    uint8_t props_out[LZMA_PROPS_SIZE];
    SizeT props_size = LZMA_PROPS_SIZE, dest = o->cap - o->len;
    SRes res = in.len ? LzmaEncode(o->b + o->len, &dest, in.b, in.len, &ep, props_out, &props_size, 0, NULL,
                                   &sz, &sz)
                      : SZ_ERROR_PARAM;
    free(in.b);
    if (res == SZ_OK) {
        o->len += dest;
    } else if (in.len) {
        o->fail = true;
    }
}

static void write_node(const tree *t, int id, outbuf *o, unsigned depth)
{
    const node *nd = &t->nodes[id];
    if (depth > 2 * MCM_E3D_DEPTH) { /* duplicates inside themselves can deepen the tree */
        o->fail = true;
        return;
    }
    if (nd->kind == N_RAW) {
        put(o, nd->p, nd->n);
        return;
    }
    size_t at = o->len;
    uint8_t head[6] = {(uint8_t)nd->type, (uint8_t)(nd->type >> 8), 0, 0, 0, 0};
    put(o, head, sizeof head);
    if (nd->kind == N_LZMA) {
        write_lzma(t, nd, o, depth);
    } else {
        put(o, nd->p, nd->n);
        if (nd->kind == N_BOX) write_list(t, nd->first, o, depth + 1);
    }
    if (o->fail) return;
    mcm_put32(o->b + at + 2, (uint32_t)((int64_t)(o->len - at) + nd->len_delta));
}

static void write_list(const tree *t, int first, outbuf *o, unsigned depth)
{
    for (int c = first; c >= 0 && !o->fail; c = t->nodes[c].next) write_node(t, c, o, depth);
}

/* ---- choosing ---- */

/* Parent of each node and a node of the wanted kinds, uniformly. */
/* Parent of every block reachable from the root (-2: not in the tree any
 * more, e.g. deleted), by a walk that visits each block once: edits only
 * ever choose among reachable blocks, and a list that would lead back to a
 * visited block is cut there. */
static void parents(tree *t, int *stack)
{
    int *par = t->par, sp = 0;
    for (int i = 0; i < t->count; i++) par[i] = -2;
    par[0] = -1;
    stack[sp++] = 0;
    while (sp > 0) {
        int p = stack[--sp], prev = -1;
        for (int c = t->nodes[p].first; c >= 0; prev = c, c = t->nodes[c].next) {
            if (par[c] != -2) { /* never happens in a sound tree */
                if (prev < 0) t->nodes[p].first = -1;
                else t->nodes[prev].next = -1;
                break;
            }
            par[c] = p;
            if (sp < MCM_E3D_NODES) stack[sp++] = c;
        }
    }
}

static int pick(const tree *t, unsigned kinds)
{
    int n = 0;
    for (int i = 1; i < t->count; i++)
        if (t->par[i] >= 0 && (kinds & (1u << t->nodes[i].kind))) n++;
    if (!n) return -1;
    int k = (int)mcm_below(t->r, (size_t)n);
    for (int i = 1; i < t->count; i++)
        if (t->par[i] >= 0 && (kinds & (1u << t->nodes[i].kind)) && k-- == 0) return i;
    return -1;
}

#define K(x) (1u << (x))
#define ANY_BLOCK (K(N_LEAF) | K(N_BOX) | K(N_LZMA))

static int pick_holder(const tree *t)
{
    if (mcm_chance(t->r, 4)) return 0;
    int h = pick(t, K(N_BOX) | K(N_LZMA));
    return h < 0 ? 0 : h;
}

/* The node attached to a parent, after sibling `after` (-1: first). */
static void link_child(tree *t, int parent, int after, int id)
{
    if (after < 0) {
        t->nodes[id].next = t->nodes[parent].first;
        t->nodes[parent].first = id;
    } else {
        t->nodes[id].next = t->nodes[after].next;
        t->nodes[after].next = id;
    }
}

static void unlink_child(tree *t, int parent, int id)
{
    int *link = &t->nodes[parent].first;
    while (*link >= 0 && *link != id) link = &t->nodes[*link].next;
    if (*link == id) *link = t->nodes[id].next;
    t->nodes[id].next = -1;
}

static int random_child(const tree *t, int parent)
{
    int n = 0;
    for (int c = t->nodes[parent].first; c >= 0; c = t->nodes[c].next) n++;
    if (!n) return -1;
    int k = (int)mcm_below(t->r, (size_t)n + 1) - 1; /* -1: before the first */
    int c = t->nodes[parent].first;
    if (k < 0) return -1;
    while (k-- > 0 && t->nodes[c].next >= 0) c = t->nodes[c].next;
    return c;
}

/* Deep copy (payload pointers shared: payloads are never written in place). */
static int copy_subtree(tree *t, int id, unsigned depth)
{
    if (depth > MCM_E3D_DEPTH) return -1;
    int c = new_node(t, 0, N_LEAF);
    if (c < 0) return -1;
    t->nodes[c] = t->nodes[id];
    t->nodes[c].first = t->nodes[c].next = -1;
    int last = -1;
    for (int k = t->nodes[id].first; k >= 0; k = t->nodes[k].next) {
        int kc = copy_subtree(t, k, depth + 1);
        if (kc < 0) return -1;
        if (last < 0) t->nodes[c].first = kc;
        else t->nodes[last].next = kc;
        last = kc;
    }
    return c;
}

static bool in_subtree(const int *par, int root, int x)
{
    for (; x >= 0; x = par[x])
        if (x == root) return true;
    return false;
}

/* ---- edits ---- */

/* New payload of a leaf: interesting values at aligned words, u16 indices,
 * bytes; or a resize (cut, grow with a copy of its last element-ish run). */
static void edit_payload(tree *t, int id)
{
    node *nd = &t->nodes[id];
    size_t n = nd->n, grow = 0;
    unsigned op = (unsigned)mcm_below(t->r, 10);
    if (op == 8) grow = (size_t)1 << mcm_below(t->r, 6); /* 1..32 bytes more */
    if (op == 9 && n) n = mcm_below(t->r, n);              /* cut */
    uint8_t *b = own(t, n + grow);
    if (!b) return;
    memcpy(b, nd->p, n);
    if (grow) {
        size_t unit = (size_t)4 << mcm_below(t->r, 3);
        for (size_t i = 0; i < grow; i++)
            b[n + i] = n >= unit && mcm_chance(t->r, 2) ? b[n - unit + i % unit] : (uint8_t)mcm_next(t->r);
        n += grow;
    }
    if (op < 8 && n) {
        unsigned edits = 1 + (unsigned)mcm_below(t->r, 3);
        for (unsigned e = 0; e < edits; e++) {
            size_t w = n / 4 ? 4 * mcm_below(t->r, n / 4) : 0;
            switch (op % 4) {
            case 0:
                if (n >= 4) mcm_put32(b + w, mcm_int_value(t->r, mc_le32(b + w), 4));
                break;
            case 1:
                if (n >= 4) mcm_put32(b + w, mcm_float_value(t->r, mc_le32(b + w)));
                break;
            case 2:
                if (n >= 2) {
                    size_t h = 2 * mcm_below(t->r, n / 2);
                    mcm_put16(b + h, (uint16_t)mcm_int_value(t->r, mc_le16(b + h), 2));
                }
                break;
            default: b[mcm_below(t->r, n)] = (uint8_t)mcm_int_value(t->r, 0, 1); break;
            }
        }
    }
    nd = &t->nodes[id];
    nd->p = b;
    nd->n = n;
}

/* A block not from the input: a known type with a small payload of
 * interesting words, or an empty container. */
static int fresh_block(tree *t)
{
    uint16_t type = known_types[mcm_below(t->r, sizeof known_types / sizeof known_types[0])];
    if (type == T_LZMA) type = 0x1020;
    int id = new_node(t, type, is_container(type) ? N_BOX : N_LEAF);
    if (id < 0) return -1;
    static const size_t sizes[] = {0, 1, 2, 4, 6, 8, 12, 16, 24, 32, 64};
    size_t n = is_container(type) ? prefix_len(type, (const uint8_t *)"\0\0\0\0\0", 5) : sizes[mcm_below(t->r, 11)];
    if (n == SIZE_MAX) n = 0;
    uint8_t *b = own(t, n);
    if (!b) return -1;
    memset(b, 0, n);
    for (size_t w = 0; w + 4 <= n; w += 4)
        mcm_put32(b + w, mcm_chance(t->r, 2) ? mcm_int_value(t->r, 1, 4) : mcm_float_value(t->r, 0x3F800000));
    t->nodes[id].p = b;
    t->nodes[id].n = n;
    return id;
}

static void edit_insert(tree *t)
{
    int src = mcm_chance(t->r, 2) ? pick(t, ANY_BLOCK) : -1;
    int id = src >= 0 ? copy_subtree(t, src, 0) : fresh_block(t);
    if (id < 0) return;
    int holder = pick_holder(t);
    link_child(t, holder, random_child(t, holder), id);
}

static void edit_delete(tree *t, const int *par)
{
    int id = pick(t, ANY_BLOCK | K(N_RAW));
    if (id >= 0 && par[id] >= 0) unlink_child(t, par[id], id);
}

static void edit_duplicate(tree *t, const int *par)
{
    int id = pick(t, ANY_BLOCK);
    if (id < 0 || par[id] < 0) return;
    int c = copy_subtree(t, id, 0);
    if (c >= 0) link_child(t, par[id], id, c);
}

/* Moves a block to another place in the tree (never into itself). */
static void edit_move(tree *t, const int *par)
{
    int id = pick(t, ANY_BLOCK);
    int holder = pick_holder(t);
    if (id < 0 || par[id] < 0 || in_subtree(par, id, holder)) return;
    unlink_child(t, par[id], id);
    link_child(t, holder, random_child(t, holder), id);
}

static void edit_swap(tree *t, const int *par)
{
    int a = pick(t, ANY_BLOCK);
    if (a < 0 || par[a] < 0) return;
    int b = t->nodes[a].next;
    if (b < 0) return;
    unlink_child(t, par[a], a); /* a after b */
    link_child(t, par[a], b, a);
}

static void edit_type(tree *t)
{
    int id = pick(t, K(N_LEAF) | K(N_BOX));
    if (id < 0) return;
    node *nd = &t->nodes[id];
    uint16_t type = known_types[mcm_below(t->r, sizeof known_types / sizeof known_types[0])];
    /* a box keeps a container type so its children stay children */
    if (nd->kind == N_BOX && (!is_container(type) || prefix_len(type, nd->p, nd->n) != nd->n)) return;
    if (nd->kind == N_LEAF && type == T_LZMA) return;
    nd->type = type;
}

static void edit_prefix(tree *t)
{
    int id = pick(t, K(N_BOX));
    if (id < 0 || t->nodes[id].n < 4) return;
    node *nd = &t->nodes[id];
    uint8_t *b = own(t, nd->n);
    if (!b) return;
    memcpy(b, nd->p, nd->n);
    if (nd->type == 0xA100 && nd->n > 4 && mcm_chance(t->r, 2)) {
        /* a key frame number or the loop flag, keeping the key count */
        size_t at = 4 + mcm_below(t->r, nd->n - 4);
        b[at] = (uint8_t)mcm_int_value(t->r, b[at], 1);
    } else {
        /* the count: the children's sizes stay, only the claim changes */
        uint32_t v = mcm_int_value(t->r, mc_le32(b), 4);
        if (nd->type == 0xA100) return; /* its length depends on the count */
        mcm_put32(b, v);
    }
    nd = &t->nodes[id];
    nd->p = b;
}

/* Wraps a run of siblings into a new LZMA block (the reference writer's
 * properties), or replaces an LZMA block by its children. */
static void edit_lzma(tree *t, const int *par)
{
    if (mcm_chance(t->r, 2)) {
        int id = pick(t, K(N_LZMA));
        if (id < 0 || par[id] < 0) return;
        int p = par[id], prev = -1, last = -1;
        for (int c = t->nodes[p].first; c >= 0 && c != id; c = t->nodes[c].next) prev = c;
        for (int c = t->nodes[id].first; c >= 0; c = t->nodes[c].next) last = c;
        if (last < 0) { /* nothing inside: the block goes */
            unlink_child(t, p, id);
            return;
        }
        /* the children take the LZMA block's place */
        t->nodes[last].next = t->nodes[id].next;
        if (prev < 0) t->nodes[p].first = t->nodes[id].first;
        else t->nodes[prev].next = t->nodes[id].first;
        t->nodes[id].first = t->nodes[id].next = -1;
        return;
    }
    int first = pick(t, ANY_BLOCK);
    if (first < 0 || par[first] < 0) return;
    int p = par[first];
    int z = new_node(t, T_LZMA, N_LZMA);
    if (z < 0) return;
    static const uint8_t reference[5] = {0xDC, 0x00, 0x00, 0x00, 0x04}; /* 4/4/4, 2^26 */
    memcpy(t->nodes[z].props, reference, 5);
    /* take first and up to a few of its next siblings */
    int run = 1 + (int)mcm_below(t->r, 4), last = first;
    while (--run > 0 && t->nodes[last].next >= 0) last = t->nodes[last].next;
    int prev = -1;
    for (int c = t->nodes[p].first; c >= 0 && c != first; c = t->nodes[c].next) prev = c;
    int after = t->nodes[last].next;
    t->nodes[last].next = -1;
    t->nodes[z].first = first;
    t->nodes[z].next = after;
    if (prev < 0) t->nodes[p].first = z;
    else t->nodes[prev].next = z;
}

static void edit_framing(tree *t)
{
    int id = pick(t, ANY_BLOCK);
    if (id < 0) return;
    node *nd = &t->nodes[id];
    static const int32_t deltas[] = {-1, 1, -6, 4, -4, 1000, INT32_MIN / 2};
    if (nd->kind == N_LZMA && mcm_chance(t->r, 2)) nd->size_delta = deltas[mcm_below(t->r, 7)];
    else nd->len_delta = deltas[mcm_below(t->r, 7)];
}

/* One tree edit, on the parents as they are now. */
static void edit(tree *t, int *stack)
{
    parents(t, stack);
    const int *par = t->par;
    switch (mcm_below(t->r, 16)) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4: {
        int id = pick(t, K(N_LEAF));
        if (id >= 0) edit_payload(t, id);
        break;
    }
    case 5: edit_prefix(t); break;
    case 6:
    case 7: edit_insert(t); break;
    case 8: edit_delete(t, par); break;
    case 9: edit_duplicate(t, par); break;
    case 10: edit_move(t, par); break;
    case 11: edit_swap(t, par); break;
    case 12: edit_type(t); break;
    case 13: edit_lzma(t, par); break;
    case 14:
        if (mcm_chance(t->r, 3)) edit_framing(t);
        break;
    default: { /* a leaf inside decoded LZMA data, when there is one */
        int id = pick(t, K(N_LZMA));
        int leaf = -1;
        for (int k = 0; id >= 0 && k < 8 && leaf < 0; k++) {
            int c = pick(t, K(N_LEAF));
            for (int x = c; x >= 0; x = par[x])
                if (x == id) leaf = c;
        }
        if (leaf >= 0) edit_payload(t, leaf);
        break;
    }
    }
}

/* A block tree and the memory it needs (heap: the node table alone is some
 * 200 KiB). */
typedef struct {
    tree t;
    node *nodes;
    int *par, *stack;
    uint8_t *out;
    size_t out_size;
} work;

static void work_close(work *w)
{
    for (unsigned i = 0; i < w->t.nowned; i++) free(w->t.owned[i]);
    free(w->out);
    free(w->stack);
    free(w->par);
    free(w->nodes);
    free(w);
}

/* data parsed leniently into a tree whose first block is one; NULL when it
 * is not, or memory is short. */
static work *work_open(mcm_rng *r, const uint8_t *data, size_t size, size_t out_size)
{
    work *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->nodes = malloc(MCM_E3D_NODES * sizeof *w->nodes);
    w->par = malloc(MCM_E3D_NODES * sizeof *w->par);
    w->stack = malloc(MCM_E3D_NODES * sizeof *w->stack);
    w->out = malloc(out_size ? out_size : 1);
    w->out_size = out_size;
    tree *t = &w->t;
    t->nodes = w->nodes;
    t->par = w->par;
    t->r = r;
    if (w->nodes && w->par && w->stack && w->out && new_node(t, 0, N_ROOT) == 0 &&
        parse_list(t, 0, data, size, 0, true) == 0 && t->nodes[0].first >= 0 &&
        t->nodes[t->nodes[0].first].kind != N_RAW)
        return w;
    work_close(w);
    return NULL;
}

/* The tree written into w->out: its length, 0 when it does not fit. */
static size_t work_write(work *w)
{
    outbuf o = {w->out, 0, w->out_size, false};
    write_list(&w->t, w->t.nodes[0].first, &o, 0);
    return o.fail ? 0 : o.len;
}

size_t mcm_mutate_e3d(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    mcm_rng r;
    mcm_rng_seed(&r, seed, data, size);
    if (size > max_size) size = max_size;
    if (size < 6 || mcm_chance(&r, 16)) return mcm_bytes(&r, data, size, max_size);
    work *w = work_open(&r, data, size, max_size);
    size_t len = 0;
    if (w) {
        unsigned edits = 1 + (unsigned)mcm_below(&r, 3);
        /* an edit may change nothing (a value already there, a move to
         * where the block was): edit more rather than waste a run */
        for (int attempt = 0; attempt < 4; attempt++) {
            for (unsigned e = 0; e < edits; e++) edit(&w->t, w->stack);
            len = work_write(w);
            if (len != size || memcmp(w->out, data, size) != 0) break;
            edits = 1;
        }
        if (len > 0 && (len != size || memcmp(w->out, data, size) != 0)) memcpy(data, w->out, len);
        else len = 0;
        work_close(w);
    }
    return len ? len : mcm_bytes(&r, data, size, max_size);
}

/* Cut k: the k-th block of the tree (in the order it was read, LZMA
 * content included) dropped with its subtree; the file written again, so
 * every enclosing length and LZMA block is made anew. */
size_t mcm_cut_e3d(uint8_t *data, size_t size, size_t k)
{
    mcm_rng r;
    mcm_rng_seed(&r, 0, data, size);
    work *w = size >= 6 ? work_open(&r, data, size, size) : NULL;
    if (!w) return 0;
    tree *t = &w->t;
    parents(t, w->stack);
    size_t result = 0;
    for (int id = 1; id < t->count; id++) {
        if (t->par[id] < 0 || k-- > 0) continue;
        unlink_child(t, t->par[id], id);
        size_t len = work_write(w);
        if (len > 0 && len < size) memcpy(data, w->out, len);
        result = len > 0 && len < size ? len : size;
        break;
    }
    work_close(w);
    return result;
}
