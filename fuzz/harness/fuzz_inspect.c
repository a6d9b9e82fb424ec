/*
 * libFuzzer / AFL++ harness: the inspect path (issue 27). Each input is
 * inspected (the format module's walk with the structure sink attached) and
 * validated; the validation result inside the inspection must equal the
 * plain one field by field (the sink changes nothing), the tree must turn
 * into JSON, and every kept issue instance, plus a spread of offsets, is
 * located (mc_inspect_at, and as the object the web page asks for) and
 * its bytes rendered as --show-bytes renders them; inspect's text and JSON
 * reports are written. Any difference or a NULL where a value is due aborts; the
 * sanitizers catch the rest. Content detection picks the format (target
 * `inspect`, seeds: corpus/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mc_report.h"
#include "mc_result_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void locate_all(mc_inspect *in, FILE *sink)
{
    const mc_result *r = mc_inspect_result(in);
    for (size_t i = 0; i < r->issue_count; i++)
        for (size_t k = 0; k < r->issues[i].instance_count; k++)
            mc_report_instance_bytes(sink, in, &r->issues[i].instances[k], "| ");
    for (uint32_t sp = 0; sp < mc_inspect_space_count(in); sp++) {
        uint64_t n = 0;
        const uint8_t *bytes = mc_inspect_space(in, sp, &n, NULL);
        if (!bytes) abort();
        uint64_t step = n / 16 + 1;
        for (uint64_t off = 0; off < n; off += step) {
            const mc_location *l = mc_inspect_at(in, sp, off);
            if (!l || !l->node || l->path[0] != '/') abort(); /* every byte has a place */
            mc_report_bytes(sink, l, bytes, n, off, "");
            /* the same place as the web page's hex view asks for it */
            cJSON *j = mc_inspect_at_json(in, sp, off);
            if (!j || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "path"))) abort();
            cJSON_Delete(j);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_options opt;
    mc_options_init(&opt);
    opt.max_instances = 3;
    opt.skip_sha256 = 1;
    opt.max_decompressed_bytes = UINT64_C(16) << 20; /* as the validator targets */
    const uint8_t *p = size ? data : NULL;
    mc_inspect *in = NULL;
    mc_result *plain = NULL;
    if (mc_inspect_memory(p, size, &opt, &in) != MC_OK) abort(); /* only out of memory */
    if (mc_validate_memory(p, size, &opt, &plain) != MC_OK) abort();
    char buf[1024];
    const char *diff = mc_result_diff(mc_inspect_result(in), plain, buf, sizeof buf);
    if (diff) {
        fprintf(stderr, "inspect's walk and validation differ: %s\n", diff);
        abort();
    }
    char *json = mc_inspect_json(in);
    if (!json) abort();
    free(json);
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
        locate_all(in, sink);
        /* the reports of modelcheck inspect (text and JSON) */
        mc_inspect_report_text(sink, in, "fuzz");
        if (mc_inspect_report_json(sink, in, "fuzz", 1) != 0) abort();
        fclose(sink);
    }
    mc_result_free(plain);
    mc_inspect_free(in);
    return 0;
}
