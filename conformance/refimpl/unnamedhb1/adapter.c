/*
 * The UnnamedHB1 runtime @9d03bbb (github.com/kiwanowski/UnnamedHB1,
 * framework/) behind the certify loader ABI, used as the game uses a model:
 *   legacy AAMF  aamfInitData (which runs amfInitData on every bone's mesh
 *                and builds the scene nodes), then, for every animation,
 *                activateAnimation by its name and setAnimationKeyframe on
 *                every keyframe and once past the last (the game's frame
 *                counter wraps); with no animation the game still steps
 *                animation 0, and so does this
 *   SAMF         (first four bytes 'SAMF' or 'AAMF') samfInitData, then
 *                activateAnimationSkinned and setAnimationKeyframeSkinned the
 *                same way into a bone matrix array of bone_count entries
 * The runtime has no error path: its one check, an assert in aamfInitData,
 * is the only rejection (caught here and reported as such). Drawing (GTE,
 * GPU) is compiled but not run. Textures: the game's texture manager is
 * replaced by one that has every name (findTex reads the 8-byte name and
 * returns a texture), so texture names need not exist.
 *
 * The console is a 32-bit machine and the runtime overlays its structures
 * (pointers included) on the file's bytes: build with -m32, or the AMF
 * layouts shift (scripts/refimpls.sh does). With MC_REFIMPL_MAIN the file is
 * also a command: `adapter FILE` exits 0 (accepted) or 1 (rejected).
 * Nothing the runtime allocates is freed (the game loads once): run with
 * ASAN_OPTIONS=detect_leaks=0.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim_model.h"
#include "mc_loader_abi.h"

int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size);

/* What the game links in beside its loaders. */
unsigned char enemy_aamf_data[4], cyl_amf_data[4], room_amf_data[4], enemy_amf_data[4],
    pellet_amf_data[4];
RenderContext ctx;
RECT screen_clip;

static Texture the_texture;
static unsigned texture_lookups;

Texture *findTex(char *name)
{
    for (int i = 0; i < 8; i++) texture_lookups += (unsigned char)name[i];
    return &the_texture;
}

/* The scene's node setters build matrices with these: identity is enough
 * (the values are never drawn here). */
MATRIX *TransMatrix(MATRIX *m, VECTOR *v)
{
    m->t[0] = v->vx;
    m->t[1] = v->vy;
    m->t[2] = v->vz;
    return m;
}

void RotMat(SVECTOR *r, MATRIX *m)
{
    (void)r;
    memset(m->m, 0, sizeof m->m);
    m->m[0][0] = m->m[1][1] = m->m[2][2] = ONE;
}

static jmp_buf *assert_exit;
static char assert_text[256];

/* The runtime's assert: its one check, so a failed one is its rejection. */
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function)
{
    snprintf(assert_text, sizeof assert_text, "%s:%u: %s: assertion '%s' failed", file, line,
             function, assertion);
    if (assert_exit) longjmp(*assert_exit, 1);
    fprintf(stderr, "%s\n", assert_text);
    abort();
}

static void step_legacy(AAMF *aamf)
{
    for (uint32_t a = 0; a == 0 || a < aamf->animamount; ++a) {
        if (a < aamf->animamount) activateAnimation(aamf, aamf->anims[a]->name);
        uint32_t frames = a < aamf->animamount ? aamf->anims[a]->keyframeamount : 1;
        for (uint32_t k = 0; k <= frames && k <= UINT16_MAX; ++k) setAnimationKeyframe(aamf, (uint16_t)k);
    }
}

static void step_skinned(SAMF *samf)
{
    MATRIX *bones = malloc(sizeof(MATRIX) * (samf->header.bone_count ? samf->header.bone_count : 1));
    for (uint32_t a = 0; a == 0 || a < samf->header.anim_count; ++a) {
        if (a < samf->header.anim_count) activateAnimationSkinned(samf, samf->anims[a]->name);
        uint32_t frames = a < samf->header.anim_count ? samf->anims[a]->keyframeamount : 1;
        for (uint32_t k = 0; k <= frames && k <= UINT16_MAX; ++k)
            setAnimationKeyframeSkinned(samf, (uint16_t)k, bones);
    }
    free(bones);
}

int mc_certify_load(const char *format, const unsigned char *data, size_t size, char *reason,
                    size_t reason_size)
{
    if (strcmp(format, "aamf") != 0) {
        snprintf(reason, reason_size, "the UnnamedHB1 runtime reads AAMF/SAMF only, not %s", format);
        return 1;
    }
    /* the game's data is writable (amfInitData relocates in place) */
    unsigned char *copy = malloc(size ? size : 1);
    if (!copy) {
        snprintf(reason, reason_size, "adapter: out of memory");
        return 1;
    }
    memcpy(copy, data, size);
    jmp_buf here;
    if (setjmp(here)) {
        assert_exit = NULL;
        snprintf(reason, reason_size, "%s", assert_text);
        return 1; /* the runtime's buffers are left as the game would leave them */
    }
    assert_exit = &here;
    if (size >= 4 && (memcmp(copy, "SAMF", 4) == 0 || memcmp(copy, "AAMF", 4) == 0)) {
        SAMF samf;
        memset(&samf, 0, sizeof samf);
        samfInitData(&samf, copy);
        step_skinned(&samf);
    } else {
        AAMF aamf;
        memset(&aamf, 0, sizeof aamf);
        aamfInitData(&aamf, copy);
        step_legacy(&aamf);
    }
    assert_exit = NULL;
    /* the runtime keeps pointers into the data: it lives as long as the game */
    return 0;
}

#ifdef MC_REFIMPL_MAIN
int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    size_t cap = 1 << 16, size = 0, n;
    unsigned char *buf = malloc(cap);
    while (buf && (n = fread(buf + size, 1, cap - size, f)) > 0) {
        size += n;
        if (size == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) return 2;
    char reason[512] = "";
    int rc = mc_certify_load("aamf", buf, size, reason, sizeof reason);
    if (rc != 0) fprintf(stderr, "rejected: %s\n", reason);
    free(buf);
    return rc == 0 ? 0 : 1;
}
#endif
