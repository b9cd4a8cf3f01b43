# A threshold_json with {user-id} (CVS's loader substitutes it in every
# path) read through the threshold lookup shared by the TorchTitan and
# MaxText importers: the user is substituted (here to a file that is not
# there: exit 2 naming it). Before, that lookup had no user to put in and
# assay crashed (segfault; found by fuzz/import_cvs under UBSan in CI).
args: import cvs --user alice tests/fixtures/cli/import/cvs-maxtext-user-threshold.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/cvs-maxtext-user-threshold.json: $.threshold_json: tests/fixtures/cli/import/alice_threshold.json cannot be read (CVS resolves it next to the config)
