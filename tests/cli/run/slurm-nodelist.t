# A nodelist with more hosts than the job needs is refused before anything
# runs: Slurm would put every listed host into the job
args: run tests/fixtures/cli/run/slurm-nodelist.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/slurm-nodelist.json: $.launcher: nodelist "cpu[1-3]" names 3 hosts but the job needs 1 node(s); Slurm would put every listed host into the job (name a pool with a reservation or constraint instead)
