# An override a variant cannot make is refused at its JSON path, listing the ones it can
args: run tests/fixtures/cli/run/variants-key.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/variants-key.json: $.variants.candidate.environment: unknown key (expected one of: env, vars, args, image, ld_library_path, ld_preload)
