/*
 * The project configuration file, .modelcheck.json (README, "Use in a
 * repository"; schema: reports/schema/config.schema.json): ignored codes,
 * severity overrides, tolerances, max_issues, max_file_bytes, excluded
 * paths and per-path overrides. Found from the working directory upwards
 * to the repository root (the first directory holding .git), or named by
 * --config. Command-line options win over the file, also over its per-path
 * overrides.
 */
#ifndef MCC_CONFIG_H
#define MCC_CONFIG_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "modelcheck.h"

#define MCC_CONFIG_NAME ".modelcheck.json"

typedef struct mcc_config mcc_config;

/* Loads the file at path, or (path NULL) the one found from the working
 * directory upwards; *out is NULL when none was found. Every problem is
 * written to err as one line naming the file and the key path
 * (".modelcheck.json: overrides[0].severity.FOO: unknown issue code"); on
 * any, returns -1 and nothing is kept. 0 otherwise. */
int mcc_config_load(const char *path, mcc_config **out, FILE *err);
void mcc_config_free(mcc_config *cfg);

/* Applies the file's top-level settings to options and map (before the
 * command line is read, so that the command line wins). */
void mcc_config_apply(const mcc_config *cfg, mc_options *options, mc_severity_map *map);

/* The command line set this code's severity, or this option: per-path
 * overrides leave it alone. */
void mcc_config_pin_code(mcc_config *cfg, mc_code code);
enum mcc_pinned { MCC_PIN_WEIGHT = 1, MCC_PIN_UNIT = 2, MCC_PIN_QUAT = 4, MCC_PIN_MAX_ISSUES = 8,
                  MCC_PIN_MAX_BYTES = 16 };
void mcc_config_pin(mcc_config *cfg, unsigned what);

/* 1 when the file's "exclude" globs match path (a path as named on the
 * command line or found by the walk). */
int mcc_config_excluded(const mcc_config *cfg, const char *path);

/* The options for one file: base itself when no override matches path,
 * else the options of base plus the matching overrides in file order,
 * built once per combination and kept in cfg (valid until
 * mcc_config_free; base must not change in between). Call from one thread;
 * the options returned may be read from any. NULL when out of memory. */
const mc_options *mcc_config_options_for(mcc_config *cfg, const char *path, const mc_options *base);

/* {"path": ..., "sha256": ...} for the report's settings; JSON null without
 * a config (cfg NULL). */
cJSON *mcc_config_json(const mcc_config *cfg);

/* The options of the files cfg governs before per-path overrides: cli (the
 * defaults plus the command line) with the file's top level applied where
 * the command line set nothing. Built once, kept in cfg; cli itself when
 * cfg is NULL; NULL when out of memory. */
const mc_options *mcc_config_base(mcc_config *cfg, const mc_options *cli);
/* The file's path as named or found (NULL for none). */
const char *mcc_config_path(const mcc_config *cfg);

/* One configuration per checked file, as ruff finds them: the nearest
 * .modelcheck.json above the file (above a directory argument: from the
 * directory itself), stopping at the repository root; or the one --config
 * names; or none (--no-config). Each file is loaded once, its pins copied
 * from pinned_code[MC_CODE_COUNT] (NULL: none) and pinned. */
enum mcc_config_mode { MCC_DISCOVER, MCC_EXPLICIT, MCC_NONE };
typedef struct mcc_config_set mcc_config_set;
mcc_config_set *mcc_config_set_new(int mode, const char *explicit_path, const unsigned char *pinned_code,
                                   unsigned pinned);
void mcc_config_set_free(mcc_config_set *s);
/* *out: the configuration governing path (NULL: none). 0; -1 when that
 * file was refused (its problems were written to err when first loaded);
 * -2 when out of memory. */
int mcc_config_set_lookup(mcc_config_set *s, const char *path, int is_dir, FILE *err, mcc_config **out);
/* The paths of the configurations that governed some file, in the order of
 * first use, at most max of them; their count. */
size_t mcc_config_set_used(const mcc_config_set *s, const char **paths, size_t max);

/* --show-config: the settings that apply to path and where each came from
 * (default, the file's top level or an override, the command line), one
 * "key: value (origin)" a line; severities only where they differ from the
 * catalog or were set. -1 when out of memory. */
int mcc_config_show(mcc_config *cfg, const char *path, const mc_options *cli, FILE *out);

/* Glob matching as the file uses it, relative to the config's directory:
 * '*' and '?' and [...] within one path segment, "**" as a whole segment for
 * any number of segments; a glob without '/' matches the last segment at any
 * depth. */
int mcc_glob_match(const char *glob, const char *relpath);

#endif
