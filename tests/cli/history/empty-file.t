# a 0-byte file is not an assay store
args: history --store tests/fixtures/store/empty-file.db 3fa9c2d1
exit: 2
--- stdout
--- stderr
tests/fixtures/store/empty-file.db: not an assay store (empty file)
