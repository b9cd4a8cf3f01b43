# reading commands never create a store
args: detect --store $ASSAY_BUILD_DIR/no-such-dir/assay.db
exit: 2
--- stdout
--- stderr-grep
no-such-dir/assay.db: no such store \(No such file or directory\)$
