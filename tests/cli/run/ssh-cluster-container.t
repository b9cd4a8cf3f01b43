# CVS's container cluster file (orchestrator "container": per-host containers with lifetimes) is refused by name until the ssh launcher runs them; the suite's own container block runs a container per node instead (docs/ssh.md)
args: run --dry-run tests/fixtures/cli/run/ssh-cluster-container.json
exit: 2
--- stdout
--- stderr
tests/fixtures/ssh/cvs-cluster-container.json: $.orchestrator: only "baremetal" is run by the ssh launcher so far: for a container per node, give the suite a container block (docs/ssh.md)
