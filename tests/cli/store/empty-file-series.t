# a 0-byte file is not an assay store: a read command says so (not "schema version 0")
args: store series --store tests/fixtures/store/empty-file.db
exit: 2
--- stdout
--- stderr
tests/fixtures/store/empty-file.db: not an assay store (empty file)
