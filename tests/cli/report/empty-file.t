# a 0-byte file is not an assay store, and is left as it was
args: report --store tests/fixtures/store/empty-file.db
exit: 2
--- stdout
--- stderr
tests/fixtures/store/empty-file.db: not an assay store (empty file)
