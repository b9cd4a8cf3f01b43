/* The bash and zsh completion scripts of a program, generated from its
 * command table and option tables (gen.c runs them): commands and
 * subcommands, options, the values of options with a fixed set (.choices),
 * and files or folders where an option's argument or the positional
 * arguments name one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

void cli_gen_bash(const struct cli_program *p, FILE *out);
void cli_gen_zsh(const struct cli_program *p, FILE *out);

enum kind { K_NONE, K_FILE, K_DIR, K_CHOICE };

/* What an option's argument is, from its choices or its placeholder
 * (FILE, PATH, SUITE.json: a file; DIR: a folder). */
static enum kind arg_kind(const struct cli_opt *o)
{
	if (!o->arg)
		return K_NONE;
	if (o->choices)
		return K_CHOICE;
	if (strstr(o->arg, "DIR"))
		return K_DIR;
	if (strstr(o->arg, "FILE") || strstr(o->arg, "PATH") || strchr(o->arg, '.'))
		return K_FILE;
	return K_NONE;
}

/* Whether the positional arguments of s are files. */
static bool args_files(const struct cli_spec *s)
{
	return s && s->max_args != 0 && s->args_what && strstr(s->args_what, "file");
}

/* Whether o is offered: named, and not a deprecated spelling. */
static bool offered(const struct cli_opt *o)
{
	return o->name && o->type != CLI_GROUP && (!o->alias_of || o->alias_arg);
}

typedef void (*opt_fn)(const struct cli_opt *o, void *ctx);

static void each(const struct cli_opt *t, opt_fn fn, void *ctx)
{
	for (; t && t->type != CLI_END; t++) {
		if (t->type == CLI_TABLE)
			each(t->sub, fn, ctx);
		else if (offered(t))
			fn(t, ctx);
	}
}

/* The shell function's name: _assay_ep for assay-ep. */
static void fn_name(FILE *out, const char *prog)
{
	fputc('_', out);
	for (const char *c = prog; *c; c++)
		fputc(*c == '-' ? '_' : *c, out);
}

/* --- bash --- */

struct bash_ctx {
	FILE *out;
	bool values; /* only the options that take a value */
};

static void bash_word(const struct cli_opt *o, void *v)
{
	struct bash_ctx *b = v;
	if (b->values && !o->arg)
		return;
	if (o->short_name)
		fprintf(b->out, " -%c", o->short_name);
	fprintf(b->out, " --%s", o->name);
}

static void bash_context(FILE *out, const char *ctx, const struct cli_spec *s)
{
	struct bash_ctx b = {out, false};
	fprintf(out, "\t'%s') opts='", ctx);
	each(s ? s->opts : NULL, bash_word, &b);
	fputs(" --help'; vals='", out);
	b.values = true;
	each(s ? s->opts : NULL, bash_word, &b);
	fputs("'; subs='", out);
	for (const struct cli_spec *const *sub = s ? s->subs : NULL; sub && *sub; sub++)
		fprintf(out, "%s%s", sub == s->subs ? "" : " ", (*sub)->sub_name);
	fprintf(out, "'; args=%s ;;\n", args_files(s) ? "file" : "none");
}

struct bash_value {
	FILE *out;
	const char *ctx;
};

static void bash_value(const struct cli_opt *o, void *v)
{
	struct bash_value *b = v;
	enum kind k = arg_kind(o);
	if (k == K_NONE)
		return;
	fprintf(b->out, "\t'%s|--%s'", b->ctx, o->name);
	if (o->short_name)
		fprintf(b->out, " | '%s|-%c'", b->ctx, o->short_name);
	fputs(") ", b->out);
	if (k == K_CHOICE) {
		fputs("COMPREPLY=($(compgen -W '", b->out);
		for (const char *const *c = o->choices; *c; c++)
			fprintf(b->out, "%s%s", c == o->choices ? "" : " ", *c);
		fputs("' -- \"$cur\")) ;;\n", b->out);
	} else {
		fprintf(b->out,
			"COMPREPLY=($(compgen -%c -- \"$cur\")); compopt -o filenames "
			"2>/dev/null ;;\n",
			k == K_DIR ? 'd' : 'f');
	}
}

static void bash_contexts(FILE *out, const struct cli_program *p, bool values)
{
	if (p->spec) {
		struct bash_value b = {out, ""};
		if (values)
			each(p->spec->opts, bash_value, &b);
		else
			bash_context(out, "", p->spec);
		return;
	}
	for (const struct cli_command *c = p->commands; c->name; c++) {
		struct bash_value b = {out, c->name};
		if (values && c->spec)
			each(c->spec->opts, bash_value, &b);
		else if (!values)
			bash_context(out, c->name, c->spec);
		for (const struct cli_spec *const *sub = c->spec ? c->spec->subs : NULL;
		     sub && *sub; sub++) {
			char ctx[128];
			snprintf(ctx, sizeof(ctx), "%s %s", c->name, (*sub)->sub_name);
			b.ctx = ctx;
			if (values)
				each((*sub)->opts, bash_value, &b);
			else
				bash_context(out, ctx, *sub);
		}
	}
}

static const char bash_main[] =
    "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=\n"
    "\t((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
    "\tlocal ctx= cmd= sub= opts= vals= subs= args= skip= w i\n"
    "\tCOMPREPLY=()\n"
    "\t[[ -n $top ]] || { cmd=-; F_ctx ''; }\n"
    "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
    "\t\tw=${COMP_WORDS[i]}\n"
    "\t\tif [[ -n $skip ]]; then skip=; continue; fi\n"
    "\t\tif [[ $w == -* ]]; then\n"
    "\t\t\t[[ \" $vals \" == *\" $w \"* ]] && skip=1\n"
    "\t\t\tcontinue\n"
    "\t\tfi\n"
    "\t\tif [[ -z $cmd ]]; then cmd=$w ctx=$w; F_ctx \"$ctx\"\n"
    "\t\telif [[ -z $sub && \" $subs \" == *\" $w \"* ]]; then\n"
    "\t\t\tsub=$w ctx=\"$cmd $w\"; F_ctx \"$ctx\"\n"
    "\t\tfi\n"
    "\tdone\n"
    "\tif [[ -n $skip ]]; then F_value \"$ctx|$prev\"; return 0; fi\n"
    "\tif [[ -z $cmd ]]; then\n"
    "\t\tif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W '--help --version' -- \"$cur\"))\n"
    "\t\telse COMPREPLY=($(compgen -W \"$top help\" -- \"$cur\")); fi\n"
    "\telif [[ $cmd == help ]]; then COMPREPLY=($(compgen -W \"$top\" -- \"$cur\"))\n"
    "\telif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
    "\telif [[ -n $subs && -z $sub ]]; then COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
    "\telif [[ $args == file ]]; then\n"
    "\t\tCOMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null\n"
    "\tfi\n"
    "\treturn 0\n";

/* bash_main with F replaced by the function's name. */
static void bash_body(FILE *out, const char *prog)
{
	for (const char *c = bash_main; *c; c++) {
		if (*c == 'F' && c[1] == '_') {
			fn_name(out, prog);
			continue;
		}
		fputc(*c, out);
	}
}

void cli_gen_bash(const struct cli_program *p, FILE *out)
{
	fprintf(out,
		"# bash completion for %s, generated from its option tables by\n"
		"# `%s --generate completion bash` (docs/development.md); do not edit.\n\n",
		p->name, p->name);
	fn_name(out, p->name);
	fputs("_ctx() {\n\tcase $1 in\n", out);
	bash_contexts(out, p, false);
	fputs("\t*) opts='--help' vals= subs= args=none ;;\n\tesac\n}\n\n", out);
	fn_name(out, p->name);
	fputs("_value() {\n\tcase $1 in\n", out);
	bash_contexts(out, p, true);
	fputs("\tesac\n}\n\n", out);
	fn_name(out, p->name);
	fputs("() {\n\tlocal top='", out);
	for (const struct cli_command *c = p->commands; !p->spec && c->name; c++)
		fprintf(out, "%s%s", c == p->commands ? "" : " ", c->name);
	fputs("'\n", out);
	bash_body(out, p->name);
	fputs("}\ncomplete -F ", out);
	fn_name(out, p->name);
	fprintf(out, " %s\n", p->name);
}

/* --- zsh --- */

/* The first line of o's help, as an _arguments description: no brackets,
 * colons, quotes or backslashes. */
static void zsh_desc(FILE *out, const char *help)
{
	for (const char *c = help ? help : ""; *c && *c != '\n'; c++)
		if (!strchr("[]:'\\`%$", *c))
			fputc(*c, out);
}

static void zsh_spec(const struct cli_opt *o, void *v)
{
	FILE *out = v;
	fputs(" \\\n\t\t", out);
	if (o->short_name)
		fprintf(out, "'(-%c --%s)'{-%c,--%s}'", o->short_name, o->name, o->short_name,
			o->name);
	else
		fprintf(out, "'--%s", o->name);
	fputc('[', out);
	if (o->alias_arg)
		fprintf(out, "same as --%s %s", o->alias_of, o->alias_arg);
	else
		zsh_desc(out, o->help);
	fputc(']', out);
	if (o->arg) {
		fputc(':', out);
		zsh_desc(out, o->arg);
		switch (arg_kind(o)) {
		case K_FILE: fputs(":_files", out); break;
		case K_DIR: fputs(":_files -/", out); break;
		case K_CHOICE:
			fputs(":(", out);
			for (const char *const *c = o->choices; *c; c++)
				fprintf(out, "%s%s", c == o->choices ? "" : " ", *c);
			fputc(')', out);
			break;
		default: fputs(": ", out); break;
		}
	}
	fputc('\'', out);
}

static void zsh_arguments(FILE *out, const struct cli_spec *s, const char *indent)
{
	fprintf(out, "%s_arguments -s :", indent);
	each(s ? s->opts : NULL, zsh_spec, out);
	if (args_files(s))
		fputs(" \\\n\t\t'*:file:_files'", out);
	fputs("\n", out);
}

static void zsh_command(FILE *out, const struct cli_command *c)
{
	fprintf(out, "\t%s)\n\t\tshift words; (( CURRENT-- ))\n", c->name);
	if (c->spec && c->spec->subs) {
		fputs("\t\tif (( CURRENT == 2 )); then\n\t\t\t_values subcommand", out);
		for (const struct cli_spec *const *sub = c->spec->subs; *sub; sub++)
			fprintf(out, " %s", (*sub)->sub_name);
		fputs("\n\t\t\treturn\n\t\tfi\n\t\tcase ${words[2]} in\n", out);
		for (const struct cli_spec *const *sub = c->spec->subs; *sub; sub++) {
			fprintf(out, "\t\t%s) shift words; (( CURRENT-- ))\n", (*sub)->sub_name);
			zsh_arguments(out, *sub, "\t\t\t");
			fputs("\t\t\t;;\n", out);
		}
		fputs("\t\tesac\n\t\t;;\n", out);
		return;
	}
	zsh_arguments(out, c->spec, "\t\t");
	fputs("\t\t;;\n", out);
}

void cli_gen_zsh(const struct cli_program *p, FILE *out)
{
	fprintf(out,
		"#compdef %s\n# zsh completion for %s, generated from its option tables by\n"
		"# `%s --generate completion zsh` (docs/development.md); do not edit.\n\n",
		p->name, p->name, p->name);
	fn_name(out, p->name);
	fputs("() {\n", out);
	if (p->spec) {
		zsh_arguments(out, p->spec, "\t");
	} else {
		fputs("\tlocal -a cmds\n\tcmds=(", out);
		for (const struct cli_command *c = p->commands; c->name; c++) {
			fprintf(out, "\n\t\t'%s:", c->name);
			zsh_desc(out, c->summary);
			fputc('\'', out);
		}
		fputs("\n\t\t'help:show a command help'\n\t)\n", out);
		fputs("\tif (( CURRENT == 2 )); then\n\t\t_describe -t commands command cmds\n"
		      "\t\treturn\n\tfi\n\tcase ${words[2]} in\n",
		      out);
		for (const struct cli_command *c = p->commands; c->name; c++)
			zsh_command(out, c);
		fputs("\thelp) _describe -t commands command cmds ;;\n\tesac\n", out);
	}
	fputs("}\n\n", out);
	fn_name(out, p->name);
	fputs(" \"$@\"\n", out);
}
