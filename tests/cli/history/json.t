# history takes --json (the shorthand of --format json); the store is missing
args: history --json --store $ASSAY_BUILD_DIR/no-such-dir/assay.db 0123456789ab
exit: 2
--- stdout
--- stderr-grep
no-such-dir/assay.db: no such store
