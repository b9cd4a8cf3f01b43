# A misspelt key is an error naming the file and the JSON path; nothing runs
args: run tests/fixtures/cli/run/unknown-key.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/unknown-key.json: $.timeout_secs: unknown key (expected one of: kind, name, description, launcher, store, output, cluster, revision, signatures, secrets, env, timeout_s, gates, raw_artifacts, container, variants, repeat, expect, combos, runs, argv, cwd, parser, results, logs, context, nodes, gpus_per_node, training, stages, madengine)
