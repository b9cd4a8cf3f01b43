#!/usr/bin/env bash
# Runs the quickstart suite (configs/quickstart.json: assay-ep's mpi and shm
# backends at EP 2 on this machine) with a release build, then says where the
# results are. Exits with assay's exit code (docs/exit-codes.md).
set -uo pipefail
build=${1:-build/release}
"$build/bin/assay" run configs/quickstart.json
rc=$?
store=out/quickstart/assay.db
if [ -f "$store" ]; then
  echo
  echo "Next: the stored measurements, e.g. the roundtrip p50 of every point:"
  echo "  sqlite3 -header -column $store \"SELECT s.fields ->> '\$.backend' AS backend," \
       "s.fields ->> '\$.precision' AS precision, s.fields ->> '\$.phase' AS phase, s.fields ->> '\$.tokens' AS tokens, m.value AS p50_us" \
       "FROM measurements m JOIN series s ON s.id = m.series WHERE s.metric = 'latency_us'" \
       "AND s.statistic = 'p50' AND s.fields ->> '\$.component' = 'roundtrip'" \
       "AND m.run = (SELECT max(id) FROM runs) ORDER BY 1, 2, 3, 4\""
  echo "and shm against mpi at each point (the ab gate, recorded: docs/suite.md, \"Gates\"):"
  echo "  sqlite3 -header -column $store \"SELECT c.case_id, v.message FROM verdicts v" \
       "JOIN cases c ON c.id = v.\\\"case\\\" WHERE v.gate = 'ab' AND c.run = (SELECT max(id) FROM runs)\""
fi
exit $rc
