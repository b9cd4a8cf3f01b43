# store series takes --json (the shorthand of --format json) like the other
# commands that print JSON; here the store is missing, so nothing is printed
args: store series --json --store $ASSAY_BUILD_DIR/no-such-dir/assay.db
exit: 2
--- stdout
--- stderr-grep
no-such-dir/assay.db: no such store
