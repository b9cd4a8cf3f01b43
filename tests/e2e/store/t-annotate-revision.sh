#!/usr/bin/env bash
# store annotate refuses (exit 2, nothing written) a revision at which none
# of the selected series has a point, naming the revision and the filter;
# a revision one of them has is annotated; --remove of an annotation that
# is not there says so. At 9918b4f `--kind ack --revision no-such-rev` was
# stored silently.
. "$(dirname "$0")/lib.sh" "$@"
for i in 1 2 3; do
  printf '{"series":{"cluster":"c","scale":"1x8","precision":"bf16","workload":"w","n":%d},"metric":"m","statistic":"mean","value":%d.5,"unit":"s","direction":"lower","revision":"r%d","timestamp":"2026-11-0%dT00:00:00Z"}\n' "$i" "$i" "$i" "$i"
done >rows.ndjson
run_assay 0 store ingest --store a.db rows.ndjson
run_assay 2 store annotate --store a.db --match workload=w --revision no-such-rev --kind ack
expect_eq "$(cat err.txt)" "assay store: annotate: none of the 3 series --match workload=w selects has a point at revision 'no-such-rev'" "three series"
run_assay 2 store annotate --store a.db --match n=1 --revision r2 --kind ignore --note x
expect_eq "$(cat err.txt)" "assay store: annotate: the series --match n=1 selects has no point at revision 'r2'" "one series"
expect_eq "$(q a.db "SELECT count(*) FROM annotations")" 0 "nothing written"
# r2 is a revision of one of the three: the annotation is made.
run_assay 0 store annotate --store a.db --match workload=w --revision r2 --kind ack
expect_eq "$(q a.db "SELECT count(*) FROM annotations")" 3 "annotated"
# An expected change is annotated before its revision runs.
run_assay 0 store annotate --store a.db --match n=1 --revision r9 --kind expected --note planned
expect_eq "$(q a.db "SELECT count(*) FROM annotations WHERE kind = 'expected'")" 1 "expected ahead"
run_assay 0 store annotate --store a.db --match n=2 --revision r2 --kind expected --remove
expect_grep '^[0-9a-f]{12} r2 expected: was not there$' out.txt
echo ok
