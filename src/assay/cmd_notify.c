/* assay notify test FILE: send a sample event to each target of a targets
 * file and say what each answered (docs/notify.md). Nothing is stored; the
 * commands that send real events take --notify FILE. */
#include <stdio.h>
#include <string.h>

#include "assay/notify.h"
#include "cli.h"
#include "opt.h"

struct notify_test_args {
	int unused;
};

static const struct cli_opt notify_test_opts[] = {
    CLI_OPT_END,
};

static const struct cli_spec notify_test_spec = {
    .name = "notify",
    .sub_name = "test",
    .usage = "assay notify test FILE",
    .about = "Send one sample event (a series named assay-notify-test, recovered) to every\n"
	     "target of the targets file FILE, and print what each answered. Nothing is\n"
	     "stored, so it can be sent again.\n",
    .opts = notify_test_opts,
    .min_args = 1,
    .max_args = 1,
    .args_what = "targets file",
};

static const struct cli_spec *const notify_subs[] = {&notify_test_spec, NULL};

const struct cli_spec cmd_notify_spec = {
    .name = "notify",
    .usage = "assay notify test FILE",
    .about = "Check a targets file (docs/notify.md): `assay notify test FILE` reads it as the\n"
	     "commands' --notify FILE does and sends each target a sample event.\n",
    .subs = notify_subs,
    .examples = "assay notify test notify.json",
    .exits = "Exit codes: 0 every target took the sample, 2 bad arguments or a bad targets\n"
	     "file (nothing sent), 5 a target did not take it.\n",
};

static int notify_test(int argc, char **argv)
{
	struct notify_test_args a = {0};
	int first, rc = cli_parse(&notify_test_spec, argc, argv, &a, &first);
	if (rc)
		return rc < 0 ? ASSAY_OK : rc;
	struct assay_notify_config c;
	struct assay_error e;
	if (assay_notify_load(argv[first], &c, &e) != ASSAY_OK)
		return cli_report(&e);
	/* The sample goes to every target, whatever events and series it wants. */
	for (size_t i = 0; i < c.n; i++) {
		c.v[i].events = ~0u;
		strlist_clear(&c.v[i].match.match);
	}
	struct assay_notify_events ev = {0};
	assay_notify_sample(&ev);
	struct assay_notify_results res = {0};
	struct assay_notify_context ctx = {"notify test", NULL};
	rc = assay_notify_send(&c, NULL, &ev, &ctx, &res, &e);
	for (size_t i = 0; i < res.n; i++)
		printf("%s (%s): %s\n", res.v[i].target, res.v[i].type, res.v[i].message);
	if (rc == ASSAY_OK && !assay_notify_results_ok(&res))
		rc = ASSAY_INFRA;
	assay_notify_results_release(&res);
	assay_notify_events_release(&ev);
	assay_notify_config_release(&c);
	return rc;
}

int cmd_notify(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("notify", "expected a subcommand: test");
	if (!strcmp(argv[1], "test"))
		return notify_test(argc - 1, argv + 1);
	return cli_usage_error("notify", "unknown subcommand '%s' (test)", argv[1]);
}
