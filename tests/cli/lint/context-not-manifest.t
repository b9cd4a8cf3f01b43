# --context merges into manifests only
args: lint --context tests/fixtures/lint/rules/context-override/ctx-env.json tests/fixtures/lint/rules/context-override/ctx-2node.json
exit: 2
--- stdout
--- stderr
tests/fixtures/lint/rules/context-override/ctx-2node.json: --context merges an additional-context file into a madengine manifest, and this is a context
