/*
 * SARIF reportingDescriptor objects for the catalog's codes. Code-scanning
 * services need more than an id and a one-line summary: GitHub refuses
 * rules without fullDescription and help (GH2012), so both are generated
 * here from the catalog (summary, default severity, spec clause, what to
 * do), never written by hand, and stay in step with docs/ISSUES.md.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mc_report.h"

const char *mc_sarif_level(mc_severity sev)
{
    switch (sev) {
    case MC_SEVERITY_ERROR: return "error";
    case MC_SEVERITY_WARNING: return "warning";
    default: return "note";
    }
}

/* What a user can do about a code: one text per kind of check, the kind
 * being the catalog entry's (validator/catalog/mc_kinds.def). A unit test
 * requires a text for every kind, so a new kind cannot fall back to the
 * generic advice unnoticed. */
typedef struct remedy_kind {
    const char *kind;
    const char *text;
} remedy_kind;

static const char generic_remedy[] =
    "Fix the exporter or tool that wrote the file so that it follows the clause above, then re-export the asset.";

static const char override_remedy[] =
    " If the file is known to load correctly in every engine you ship to, lower or ignore the code for the paths "
    "concerned in .modelcheck.json (\"severity\" or \"overrides\").";

static const remedy_kind remedies[] = {
    {"IO",
     "Check that the path exists, is a regular file and is readable by the user running modelcheck; the file "
     "itself was not checked."},
    {"NOTE",
     "Nothing here stops a conforming reader: this note records where the file departs from what writers usually "
     "produce (see the summary). Look at the exporter if that is unexpected; otherwise ignore the code in "
     ".modelcheck.json."},
    {"RESOURCE",
     "modelcheck stops here to bound the memory and time one file can cost (the clause names the limit); what lies "
     "beyond it was not checked. Real assets rarely come near: check the exporter or where the file came from. An "
     "application using the library can raise the limit where the clause names an mc_options field."},
    {"FILE_EMPTY",
     "The file has no bytes: an export or a copy that failed, or a placeholder. Re-export it; keep placeholders out "
     "with \"exclude\" in .modelcheck.json."},
    {"FILE_TOO_LARGE",
     "Check that the file is meant to be this large (the wrong file, or an export of the whole scene?). If it is, "
     "raise max_file_bytes in .modelcheck.json or --max-file-bytes on the command line."},
    {"FILE_UNRECOGNIZED",
     "Check that the file is a model in one of the supported formats (AEM, SEModel, AAMF/SAMF, E3D, NLM) and that "
     "its first bytes are intact. Keep files of other kinds out with \"exclude\" in .modelcheck.json (or "
     "--skip-unrecognized); give --format if detection is wrong."},
    {"FILE_NO_CONTENT",
     "Check the export: an empty selection or scene, or a file cut short (for E3D at a block boundary, which no "
     "other check sees). Compare with the source scene and re-export."},
    {"WORK_LIMIT",
     "The file has more cross-references than modelcheck follows in time linear in its size, so later ones were "
     "not checked: real assets do not come near this, so look at where the file came from. An application using "
     "the library can raise mc_options.work_factor."},
    {"FORMAT_LIMIT",
     "The model exceeds a limit of the format or of the engines that read it (a count, a grid or a name too large "
     "for its field): split the mesh or skeleton, reduce the influences per vertex or shorten the name in the "
     "source scene, and re-export."},
    {"ANIMATION",
     "An animation value is outside what the format allows (durations and rates above 0, key times within the "
     "animation, at least one key per channel and one animation, tracks that name their target, used sequences): "
     "check the action's frame range and keys in the modelling tool or the exporter's animation writer, and "
     "re-export."},
    {"ORDER",
     "Elements come in an order or place the format forbids (a parent after its child, keys out of order, a block "
     "or section where it may not stand): readers that work in one pass meet data they have not read yet. Make the "
     "exporter write them in the required order and re-export."},
    {"HEADER",
     "The header (magic, version or header size) is not the one this format version defines: the file was written "
     "for another version or layout, is another format with the same extension, or its start is damaged. Check "
     "which tool wrote it and re-export with a supported version (or give the right --format)."},
    {"WEIGHT_SUM",
     "Normalise the skin weights so that each skinned vertex's weights add up to the format's total (1, or 255 for "
     "8-bit weights) in the modelling tool or the exporter, and re-export. For float weights, the weight tolerance "
     "(--weight-tolerance, tolerances.weight_sum) widens the accepted rounding if every engine renormalises."},
    {"LZMA",
     "The LZMA-compressed data does not decode to what its block declares: the file was damaged after it was "
     "written (a cut transfer, a merge or a text-mode conversion) or the exporter's compressor is wrong. Get the "
     "original file again, or re-export."},
    {"INTERLEAVED",
     "The interleaved vertex layout is malformed (a list without its terminator, an unknown attribute type, "
     "attributes that overlap or pass the vertex size, or data that is not count x vertex size): fix the "
     "exporter's interleaved writer and re-export."},
    {"SIZES",
     "The sizes do not add up: the file, a block or a table is shorter or longer than its header, counts and "
     "lengths say. A file cut in transfer or storage (an interrupted copy, a Git LFS pointer in place of the file, "
     "a text-mode conversion) shows this, and so does an exporter that writes wrong counts. Compare with the "
     "original file; if that is wrong too, fix the exporter and re-export."},
    {"ALIGNMENT",
     "A block starts at an offset the target hardware cannot read in place: make the exporter pad each block to a "
     "multiple of 4 bytes and re-export."},
    {"DECLARATION",
     "The header and the data disagree (data the header does not announce, or an announcement without data): "
     "readers disagree on which to believe. Make the exporter set flags and counts from the data it writes, and "
     "re-export."},
    {"RESERVED",
     "A reserved field, padding or flag holds a value the format does not define: readers differ on what they do "
     "with it. Make the exporter write the defined values (zero for padding, reserved bytes and run-time fields) "
     "and re-export."},
    {"HIERARCHY",
     "The bone or node hierarchy is not a tree the format allows (a bone its own parent, a cycle, a parent or "
     "child outside the list, several roots or parents, node IDs that are not their index, unreachable or missing nodes): fix the armature or scene "
     "hierarchy in the modelling tool (one root, each bone parented once) or the exporter's hierarchy writer, and "
     "re-export."},
    {"SKIN",
     "A vertex's skinning is inconsistent (a weight out of range or without a bone, one bone in two slots, a "
     "stale index in an unused slot, or a vertex no bone moves): clean up the vertex groups in the modelling tool "
     "(remove empty groups, limit and normalise influences) or fix the exporter's skin writer, and re-export."},
    {"VALUE_RANGE",
     "A value lies outside the range the format defines (the summary gives it): clamp or fix it in the source "
     "scene or the exporter, and re-export."},
    {"EXTENSION",
     "The file uses a block or layout the specification does not define (a reference-code or draft variant, an "
     "extension, or a layout two readings fit): readers that follow the specification skip it or read it "
     "differently. Export with the specification's layout and re-export."},
    {"MISMATCH",
     "Two fields that must agree do not (an index and the row it labels, IDs two tables give the same bone, or "
     "the bones of one mesh's vertices): readers that trust one or the other pose different bones. Make the "
     "exporter write both from the same data and re-export."},
    {"REFERENCE",
     "An index or reference does not point at an element that exists (outside its table, or an ID or name "
     "nothing defines): engines that trust it read out of bounds or leave it unbound. This usually means the "
     "exporter wrote counts and indices from different data (after elements were deleted or merged): fix the "
     "exporter and re-export."},
    {"STRING",
     "A name or string is malformed (no terminator, bytes after it, not UTF-8 or printable, empty, repeated, or a "
     "path that will not resolve elsewhere): rename the element in the scene (short, unique, plain names; "
     "textures by relative path) or fix the exporter's string writer, and re-export."},
    {"DUPLICATE",
     "The same ID, slot, block, attribute or range is given twice: readers keep different copies (the first or "
     "the last). Make the exporter write each once, with unique IDs, and re-export."},
    {"NOT_FINITE",
     "A NaN or an infinity: usually a division by zero in the exporter (normalising a zero-length vector, "
     "inverting a zero scale) or uninitialised memory written out. Find the element in the modelling tool "
     "(degenerate faces, zero scales), fix it or the exporter, and re-export."},
    {"ROTATION",
     "A rotation quaternion is not unit length: normalise rotations when exporting (after interpolation or "
     "conversion from matrices) and re-export. If every engine normalises anyway, --quaternion-tolerance "
     "(tolerances.quaternion) widens the accepted rounding."},
    {"UNIT_VECTOR",
     "A normal or tangent is not unit length: recompute or normalise normals and tangents when exporting (after "
     "non-uniform scaling) and re-export. If every engine normalises anyway, --unit-tolerance (tolerances.unit) "
     "widens the accepted rounding."},
    {"NO_NORMALS",
     "The mesh was written without normals or tangents (all zero): enable them in the export settings and "
     "re-export, unless your engine computes its own."},
    {"TRANSFORM",
     "A transform cannot be used as it is (not invertible, not a rotation, a mirror, a zero scale, or a value "
     "clamped to the limit of its fixed-point type): apply or reset transforms in the modelling tool (no zero or "
     "negative scale, the model near the origin and within the format's range), or fix how the exporter builds "
     "it, and re-export."},
    {"BOUNDS",
     "The stored bounding box does not match the geometry: recompute it from the vertices when exporting (after "
     "the last edit or transform) and re-export."},
    {"FACES",
     "The mesh has faces the format or engines do not expect (an index count that is not whole triangles, or "
     "triangles that repeat a vertex): triangulate and clean up the mesh (merge by distance, delete degenerate "
     "faces) before export."},
    {"SENTINEL",
     "A texture index uses a \"no texture\" sentinel that readers disagree on (-1 where the specification says "
     "255, or 255 while the file has a texture 255): make the exporter write the specification's sentinel, keep "
     "the texture count below 255, and re-export."},
    {"TEXTURE_SIGNATURE",
     "An embedded texture is not an image of a supported type (its first bytes are not its format's signature): "
     "embed the image file itself, not a renamed or converted one, and re-export."},
};

static const char *remedy_of_kind(const char *kind)
{
    for (size_t i = 0; kind && i < sizeof remedies / sizeof remedies[0]; i++)
        if (strcmp(remedies[i].kind, kind) == 0) return remedies[i].text;
    return NULL;
}

const char *mc_sarif_remedy(mc_code code, int *content_advice)
{
    const mc_code_info *ci = mc_code_get(code);
    *content_advice = 0;
    if (!ci) return NULL;
    /* the override advice fits what a file's bytes caused, not a note */
    *content_advice = ci->origin == MC_ORIGIN_CONTENT && strcmp(ci->kind, "NOTE") != 0;
    const char *t = remedy_of_kind(ci->kind);
    return t ? t : generic_remedy;
}

int mc_sarif_remedy_is_generic(const char *text)
{
    return text == generic_remedy;
}

__attribute__((format(printf, 1, 2))) static char *text_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* SARIF 3.49.7: a readable name distinct from the opaque id:
 * AEM_NORMAL_NOT_UNIT becomes AemNormalNotUnit. */
static void camel_name(const char *id, char *out, size_t cap)
{
    size_t n = 0;
    int upper = 1;
    for (; *id && n + 1 < cap; id++) {
        if (*id == '_') {
            upper = 1;
            continue;
        }
        char ch = *id;
        if (!upper && ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
        out[n++] = ch;
        upper = 0;
    }
    out[n] = '\0';
}

static void add_message(cJSON *rule, const char *key, const char *text, const char *markdown)
{
    cJSON *m = cJSON_AddObjectToObject(rule, key);
    cJSON_AddStringToObject(m, "text", text ? text : "");
    if (markdown) cJSON_AddStringToObject(m, "markdown", markdown);
}

cJSON *mc_sarif_rule_json(mc_code code)
{
    const mc_code_info *ci = mc_code_get(code);
    if (!ci) return NULL;
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "id", ci->name);
    char name[96];
    camel_name(ci->name, name, sizeof name);
    cJSON_AddStringToObject(r, "name", name);
    add_message(r, "shortDescription", ci->summary, NULL);
    int content = 0;
    const char *sev = mc_severity_name(ci->severity), *todo = mc_advice_what(code, &content);
    const char *also = content ? override_remedy : "", *why = mc_advice_why(code);
    char *full = text_printf("%s. Checked against: %s. Default severity: %s.", ci->summary, ci->clause, sev);
    char *help = text_printf("%s.\nSpecification: %s.\nDefault severity: %s.\nWhy it matters: %s\n"
                             "What to do: %s%s\nCode: %s (modelcheck explain %s).",
                             ci->summary, ci->clause, sev, why ? why : "", todo, also, ci->name, ci->name);
    char *help_md = text_printf("**%s.**\n\n*Specification:* %s.\n\n*Default severity:* %s.\n\n"
                                "*Why it matters:* %s\n\n"
                                "*What to do:* %s%s\n\nCode: `%s` (`modelcheck explain %s`).",
                                ci->summary, ci->clause, sev, why ? why : "", todo, also, ci->name, ci->name);
    add_message(r, "fullDescription", full, NULL);
    add_message(r, "help", help, help_md);
    free(full);
    free(help);
    free(help_md);
    cJSON *conf = cJSON_AddObjectToObject(r, "defaultConfiguration");
    cJSON_AddStringToObject(conf, "level", mc_sarif_level(ci->severity));
    cJSON *props = cJSON_AddObjectToObject(r, "properties");
    cJSON_AddStringToObject(props, "severity", mc_severity_name(ci->severity));
    cJSON_AddStringToObject(props, "clause", ci->clause);
    cJSON_AddStringToObject(props, "origin", ci->origin == MC_ORIGIN_TOOL ? "tool" : "content");
    return r;
}
