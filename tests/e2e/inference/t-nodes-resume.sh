#!/usr/bin/env bash
# A run with a server on two nodes killed (SIGKILL) mid-way: each node ends
# its server once its ssh connection closes; a server process the nodes
# kept anyway (planted with the attempt's label, as a network partition
# would leave one) is ended by `--resume`, which then starts the server
# again and runs only the cells not finished: every cell stored once.
# `--cleanup` of a killed run ends what a node kept the same way.
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 2
nodes_suite suite.json '' 1
S=$(store_new s)
run_killed "$S" out
run=$RUN
expect_none_left "assay-$run-"
servers_gone
# (The loopback nodes share this machine's processes: the first host's
# sweep finds it, whichever node it runs on.)
ssh -F "$ASSAY_SSH_CONFIG" -o BatchMode=yes "$NODE1" \
  "ASSAY_SSH_LABEL=assay-$run-server-a1-n1 setsid sleep 303 </dev/null >/dev/null 2>&1 &"
expect_planted "assay-$run-server-a1"
run_assay 0 run --store "$S" --out out --resume last suite.json
expect_grep "host $NODE1: ended 1 process\(es\) of an earlier attempt" err.txt
expect_grep 'server: started on 2 node\(s\)' err.txt
expect_eq "$(wc -l < "$T/server-pids.txt")" 4 "server processes started (two nodes, two attempts)"
servers_gone
expect_none_left "assay-$run-"
expect_eq "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'passed'")" 3 "cells passed"
expect_eq "$(q "$S" "SELECT count(*) FROM (SELECT case_id FROM cases GROUP BY run, case_id HAVING count(*) > 1) d")" 0 "cells stored twice"
expect_eq "$(q "$S" "SELECT count(*) FROM measurements m JOIN series s ON s.id = m.series WHERE s.metric = 'output_throughput'")" 3 "throughput rows"

# Killed again; --cleanup ends what a node kept and runs nothing.
S2=$(store_new s2)
run_killed "$S2" out2
run=$RUN
expect_none_left "assay-$run-"
ssh -F "$ASSAY_SSH_CONFIG" -o BatchMode=yes "$NODE1" \
  "ASSAY_SSH_LABEL=assay-$run-server-a1-n1 setsid sleep 304 </dev/null >/dev/null 2>&1 &"
expect_planted "assay-$run-server-a1"
before=$(q "$S2" "SELECT count(*) FROM cases WHERE outcome = 'passed'")
run_assay 0 run --store "$S2" --out out2 --cleanup last suite.json
expect_grep "host $NODE1: ended 1 process\(es\) of an earlier attempt" err.txt
expect_none_left "assay-$run-"
expect_eq "$(q "$S2" "SELECT count(*) FROM cases WHERE outcome = 'passed'")" "$before" "cells passed (none run by --cleanup)"
echo ok
