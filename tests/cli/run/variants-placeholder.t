# A placeholder in a variant's override with no value is a config error at load, not at run time
args: run tests/fixtures/cli/run/variants-placeholder.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/variants-placeholder.json: $.variants.candidate.env.LIB: placeholder {LIBDIR} has no value
