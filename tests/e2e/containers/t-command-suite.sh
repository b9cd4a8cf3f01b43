#!/usr/bin/env bash
# A command suite whose cases run in a podman container: they pass, their
# rows (written inside the container into the case folder, mounted at the
# same path) are parsed and stored, each container had the run's name and
# labels, none remains, and the image's digest is recorded on the case and
# the run, and shown by summary.json, the reports and `assay history`.
. "$(dirname "$0")/lib.sh" "$@"
cat >suite.json <<JSON
{"kind": "command", "name": "ctr", "cluster": "e2e", "revision": "r1",
 "combos": {"a": {"V": 1}, "b": {"V": 2}},
 "container": {"image": "$IMAGE", "runtime": "podman", "pull": "never",
               "mounts": ["$T:/work:ro"], "workdir": "/work", "env": ["ROW_UNIT"]},
 "env": {"ROW_UNIT": "s"},
 "argv": ["sh", "-c", "cat /proc/1/cgroup >/dev/null; [ \"\$(pwd)\" = /work ] || exit 9; printf '{\"series\":{\"workload\":\"w\",\"v\":%s},\"metric\":\"m\",\"statistic\":\"mean\",\"value\":%s.5,\"unit\":\"%s\",\"direction\":\"lower\"}\\\\n' {V} {V} \"\$ROW_UNIT\" > {CASE_DIR}/rows.ndjson"],
 "parser": "rows", "results": ["{CASE_DIR}/rows.ndjson"]}
JSON
run_assay 0 run --store s.db --out out --quiet suite.json
run=$(q s.db "SELECT run_id FROM runs")
expect_eq "$(q s.db "SELECT c.case_id || ' ' || m.value || ' ' || s.unit FROM measurements m JOIN cases c ON c.id = m.\"case\" JOIN series s ON s.id = m.series ORDER BY c.case_id" | tr '\n' ' ')" \
  "a 1.5 s b 2.5 s " "rows parsed from inside the container"
expect_no_containers "$run"
# The command ran through podman with the name and labels of its case.
cmd=out/$run/a/command.txt
expect_grep "^ROW_UNIT=s podman run --rm --init --log-driver none --name assay-$run-a-a1 --label assay\.run=$run --label assay\.case=a --pull=never " "$cmd"
expect_grep " --env ROW_UNIT " "$cmd"
# Provenance: the digest podman resolves the image to, on the case and the run.
digest=$(podman image inspect --format '{{index .RepoDigests 0}}' "$IMAGE" | sed 's/.*@//')
expect_eq "$(q s.db "SELECT DISTINCT image || ' ' || image_digest FROM cases")" "$IMAGE $digest" "case image"
expect_eq "$(q s.db "SELECT image || ' ' || image_digest FROM runs")" "$IMAGE $digest" "run image"
expect_grep "\"image_digest\": \"$digest\"" "out/$run/summary.json"
run_assay 0 history --store s.db "$(q s.db "SELECT key FROM series LIMIT 1")"
expect_grep "$digest" out.txt
# The report says which image produced the numbers.
expect_grep "image digest $digest" "out/$run/summary.md"
expect_grep "<dt>image digest</dt><dd class=\"mono\" title=\"$digest\">" "out/$run/report.html"
echo ok
