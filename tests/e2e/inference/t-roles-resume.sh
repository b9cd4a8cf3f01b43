#!/usr/bin/env bash
# Role servers of a run killed (SIGKILL) after its first cell: each node
# ends its role's server once its ssh connection closes; a decode process
# a node kept anyway (planted with the role's label, as a network partition
# would leave one) is ended by `--resume`, which starts every role again, in
# order, and runs only the cell not finished: every cell stored once. (The
# loopback nodes share this machine's processes: the first host's sweep
# finds it, whichever node it runs on.)
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 3
roles_suite suite.json '' 2
S=$(store_new s)
run_killed "$S" out
run=$RUN
expect_none_left "assay-$run-"
servers_gone
ssh -F "$ASSAY_SSH_CONFIG" -o BatchMode=yes "$NODE2" \
  "ASSAY_SSH_LABEL=assay-$run-server-decode-a1-n0 setsid sleep 305 </dev/null >/dev/null 2>&1 &"
expect_planted "assay-$run-server-decode-a1"
run_assay 0 run --store "$S" --out out --resume last suite.json
expect_grep "host $NODE1: ended 1 process\(es\) of an earlier attempt" err.txt
expect_eq "$(grep -oE '(prefill|decode|router): (started|stopped)' err.txt | tr '\n' ' ')" \
  "prefill: started decode: started router: started router: stopped decode: stopped prefill: stopped " \
  "start and stop order of the resumed attempt"
expect_grep "label assay-$run-server-router-a2-nN" out/*/server-router/command.txt
expect_eq "$(wc -l < "$T/server-pids.txt")" 6 "server processes started (three roles, two attempts)"
servers_gone
expect_none_left "assay-$run-"
expect_eq "$(q "$S" "SELECT count(*) FROM cases WHERE outcome = 'passed'")" 2 "cells passed"
expect_eq "$(q "$S" "SELECT count(*) FROM (SELECT case_id FROM cases GROUP BY run, case_id HAVING count(*) > 1) d")" 0 "cells stored twice"
echo ok
