/* A program outside the project, built against the installed modelcheck
 * (pkg-config or find_package): zeroed options mean the defaults, a
 * severity map changes one code. usage: consumer FILE; prints
 * "<format> <valid> <issues> <severity of the first issue>". */
#include <stdio.h>
#include <string.h>

#include <modelcheck.h>

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    mc_options options;
    memset(&options, 0, sizeof options);
    mc_severity_map *map = mc_severity_map_new();
    if (!map || mc_severity_map_set(map, MC_AEM_UNSKINNED_VERTEX, MC_SEVERITY_ERROR) != MC_OK) return 2;
    options.severity = map;
    mc_result *r = NULL;
    mc_status st = mc_validate_path(argv[1], &options, &r);
    if (st != MC_OK) {
        fprintf(stderr, "consumer: %s\n", mc_strerror(st));
        mc_result_free(r);
        mc_severity_map_free(map);
        return 2;
    }
    printf("%s %d %zu %s\n", mc_format_name(r->format), mc_result_valid(r), r->issue_count,
           r->issue_count ? mc_severity_name(r->issues[0].severity) : "-");
    mc_result_free(r);
    mc_severity_map_free(map);
    return 0;
}
