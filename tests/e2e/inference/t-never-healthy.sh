#!/usr/bin/env bash
# A server whose health URL never answers 2xx within health_timeout_s is an
# infrastructure failure (exit 5): the first case is infrastructure with the
# reason, the others skipped, and the server stopped (SIGTERM, its group).
# A server that exits before it is healthy is the same, at once.
. "$(dirname "$0")/lib.sh" "$@"
suite suite.json ', "--never-healthy", "--child"'
sed -i 's/"health_timeout_s": 20/"health_timeout_s": 2/' suite.json
S=$(store_new s)
run_assay 5 run --store "$S" --out out suite.json
expect_grep 'did not answer 2xx within 2s \(health_timeout_s\)' out.txt
expect_eq "$(q "$S" "SELECT outcome FROM cases WHERE case_id = 'c1'")" infrastructure "first case"
expect_eq "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'skipped'")" 2 "cases not run"
servers_gone
# The server exits at once (a port already taken: its bind fails).
python3 -c 'import socket, time, sys; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); time.sleep(60)' "$PORT" &
holder=$!
sleep 0.5
suite suite2.json
S2=$(store_new s2)
run_assay 5 run --store "$S2" --out out2 suite2.json
kill "$holder"
expect_grep 'the server exited \(status 1\) before http://127.0.0.1:[0-9]+/health answered' out.txt
expect_grep 'Address already in use' out2/*/server/server.log
echo ok
