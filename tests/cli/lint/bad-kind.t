# an unknown --kind names the kinds
args: lint --kind manifests tests/fixtures/cli/lint/manifest.json
exit: 2
--- stdout
--- stderr
assay lint: --kind: expected one of manifest, models, platforms, sweep, suite, context, cluster, got 'manifests'
