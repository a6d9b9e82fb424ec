#include <string.h>

#include "completion.h"
#include "modelcheck.h"

static void codes(FILE *out)
{
    for (int i = 0; i < MC_CODE_COUNT; i++) fprintf(out, "%s%s", i ? " " : "", mc_code_get((mc_code)i)->name);
}

/* what, for a single-quoted shell word: ' and \ dropped, [ ] and : (zsh's
 * spec syntax) as ( ) and - */
static void quoted_what(FILE *out, const char *what)
{
    for (const char *p = what; *p; p++) {
        if (*p == '\'' || *p == '\\') continue;
        fputc(*p == '[' ? '(' : *p == ']' ? ')' : *p == ':' ? '-' : *p, out);
    }
}

/* bash: the word before the cursor chooses the values; else options after
 * a dash, subcommands and files in the first place, files elsewhere. */
static void bash(FILE *out, const mcc_completion_opt *o, size_t n, const char *subs)
{
    fputs("# bash completion for modelcheck (generated: modelcheck --completion bash)\n"
          "_modelcheck() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local codes='", out);
    codes(out);
    fputs("'\n    if [ \"${COMP_WORDS[1]}\" = explain ] && [ \"$COMP_CWORD\" -gt 1 ]; then\n"
          "        COMPREPLY=($(compgen -W \"$codes\" -- \"${cur^^}\")); return\n"
          "    fi\n"
          "    case $prev in\n", out);
    for (size_t i = 0; i < n; i++) {
        if (!o[i].takes_value) continue;
        fprintf(out, "        --%s", o[i].name);
        if (o[i].short_name) fprintf(out, "|-%c", o[i].short_name);
        if (!o[i].values) fputs(") return ;;\n", out);
        else if (strcmp(o[i].values, "@file") == 0) fputs(") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", out);
        else if (strcmp(o[i].values, "@code") == 0)
            fputs(") COMPREPLY=($(compgen -W \"$codes\" -- \"${cur^^}\")); return ;;\n", out);
        else fprintf(out, ") COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", o[i].values);
    }
    fputs("    esac\n    if [[ $cur == -* ]]; then\n        COMPREPLY=($(compgen -W '", out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s--%s", i ? " " : "", o[i].name);
        if (o[i].short_name) fprintf(out, " -%c", o[i].short_name);
    }
    fprintf(out, "' -- \"$cur\"))\n"
                 "    elif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
                 "        COMPREPLY=($(compgen -W '%s' -- \"$cur\") $(compgen -f -- \"$cur\"))\n"
                 "    else\n"
                 "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
                 "    fi\n"
                 "}\n"
                 "complete -o filenames -F _modelcheck modelcheck\n",
            subs);
}

static void zsh(FILE *out, const mcc_completion_opt *o, size_t n, const char *subs)
{
    fprintf(out, "#compdef modelcheck\n"
                 "# zsh completion for modelcheck (generated: modelcheck --completion zsh)\n"
                 "local -a codes=(");
    codes(out);
    fprintf(out, ")\n"
                 "if [[ $words[2] == explain ]] && (( CURRENT > 2 )); then\n"
                 "  compadd -a codes; return\n"
                 "fi\n"
                 "if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then\n"
                 "  _alternative 'commands:command:(%s)' 'files:file:_files'; return\n"
                 "fi\n"
                 "_arguments -s \\\n",
            subs);
    for (size_t i = 0; i < n; i++) {
        const char *v = o[i].values;
        const char *action = !o[i].takes_value ? NULL
                             : !v ? " "
                             : strcmp(v, "@file") == 0 ? "_files"
                             : strcmp(v, "@code") == 0 ? "{compadd -a codes}" : NULL;
        for (int form = 0; form < (o[i].short_name ? 2 : 1); form++) {
            if (form) fprintf(out, "  '-%c", o[i].short_name);
            else fprintf(out, "  '--%s%s", o[i].name, o[i].takes_value ? "=" : "");
            fputc('[', out);
            quoted_what(out, o[i].what);
            fputc(']', out);
            if (o[i].takes_value) {
                fprintf(out, ":%s:", o[i].name);
                if (action) fputs(action, out);
                else fprintf(out, "(%s)", v);
            }
            fputs("' \\\n", out);
        }
    }
    fputs("  '*:file:_files'\n", out);
}

static void fish(FILE *out, const mcc_completion_opt *o, size_t n, const char *subs)
{
    fprintf(out, "# fish completion for modelcheck (generated: modelcheck --completion fish)\n"
                 "complete -c modelcheck -n __fish_use_subcommand -a '%s'\n"
                 "complete -c modelcheck -n '__fish_seen_subcommand_from explain' -x -a '",
            subs);
    codes(out);
    fputs("'\n", out);
    for (size_t i = 0; i < n; i++) {
        fputs("complete -c modelcheck", out);
        if (o[i].short_name) fprintf(out, " -s %c", o[i].short_name);
        fprintf(out, " -l %s", o[i].name);
        const char *v = o[i].values;
        if (o[i].takes_value && v && strcmp(v, "@file") == 0) fputs(" -r -F", out);
        else if (o[i].takes_value && v && strcmp(v, "@code") == 0) {
            fputs(" -x -a '", out);
            codes(out);
            fputc('\'', out);
        } else if (o[i].takes_value && v) fprintf(out, " -x -a '%s'", v);
        else if (o[i].takes_value) fputs(" -x", out);
        if (o[i].what[0]) {
            fputs(" -d '", out);
            quoted_what(out, o[i].what);
            fputc('\'', out);
        }
        fputc('\n', out);
    }
}

int mcc_completion_write(FILE *out, const char *shell, const mcc_completion_opt *opts, size_t count,
                         const char *subcommands)
{
    if (strcmp(shell, "bash") == 0) bash(out, opts, count, subcommands);
    else if (strcmp(shell, "zsh") == 0) zsh(out, opts, count, subcommands);
    else if (strcmp(shell, "fish") == 0) fish(out, opts, count, subcommands);
    else return -1;
    return 0;
}
