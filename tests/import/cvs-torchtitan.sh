#!/usr/bin/env bash
# `assay import cvs` on ROCm/cvs dddd914's mi355 llama3_1_8b TorchTitan
# config (tests/fixtures/gate/cvs/SOURCE.md): the suite passes `assay lint`
# and `assay run --dry-run` (two cases, as CVS's sweep.runs). Then the same
# config with its paths moved under a temporary folder and enforce_thresholds
# true runs end to end with a stand-in torchrun that checks the TOML the
# command wrote (CVS's keys, the combination's batch sizes and float8) and
# prints a TorchTitan log: gated with CVS's threshold file, the bf16 cell
# passes and the fp8 cell (tests/fixtures/training/*-fp8-slow.log) fails, as
# tests/cli/run/gates-cvs-torchtitan.t judges them. The distributed config is
# refused (exit 2) and writes no --out file.
set -u
assay=${ASSAY_BIN:?}
cd "${ASSAY_SOURCE_DIR:?}" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
D=tests/fixtures/gate/cvs
c=mi355_llama3_1_8b_single_config
"$assay" import cvs --user alice --out "$tmp/$c.json" "$D/$c.json" 2>"$tmp/err" ||
  { echo "FAIL: import cvs $c"; cat "$tmp/err"; exit 1; }
"$assay" lint "$tmp/$c.json" || { echo "FAIL: assay lint on the suite of $c"; fail=1; }
"$assay" run --dry-run --out "$tmp/dry-out" --store "$tmp/dry.db" "$tmp/$c.json" >"$tmp/dry" 2>&1 ||
  { echo "FAIL: assay run --dry-run"; cat "$tmp/dry"; fail=1; }
got=$(grep -c '^\[[0-9]*/[0-9]*\] ' "$tmp/dry")
[ "$got" = 2 ] || { echo "FAIL: $got cases in the dry run, CVS runs 2"; fail=1; }
[ -e "$tmp/dry.db" ] && { echo "FAIL: the dry run wrote a store"; fail=1; }

# End to end: the config's folders under $tmp, thresholds enforced.
mkdir -p "$tmp/cfg" "$tmp/tt" "$tmp/bin"
sed -e "s|/workspace/Primus/third_party/torchtitan|$tmp/tt|" \
  -e "s|/home/{user-id}/LOG_DIR|$tmp/logs|" -e "s|/home/{user-id}/SCRIPTS|$tmp/scripts|" \
  -e 's|"enforce_thresholds": false|"enforce_thresholds": true|' "$D/$c.json" >"$tmp/cfg/$c.json"
cp "$D/mi355_llama3_1_8b_single_threshold.json" "$tmp/cfg/"
F=$PWD/tests/fixtures/training
cat >"$tmp/bin/torchrun" <<STUB
#!/bin/sh
# stand-in: the TOML named by --job.config_file, then a TorchTitan log
[ "\$(pwd)" = "$tmp/tt" ] || { echo "torchrun: not in torchtitan_root" >&2; exit 9; }
while [ \$# -gt 0 ] && [ "\$1" != --job.config_file ]; do shift; done
t=\$2
grep -qx 'local_batch_size = 1' "\$t" && grep -qx 'global_batch_size = 8' "\$t" &&
  grep -qx 'steps = 10' "\$t" && grep -qx 'flavor = "8B"' "\$t" || { echo "torchrun: bad TOML" >&2; exit 9; }
if grep -qx 'enable_fsdp_float8_all_gather = true' "\$t"; then cat "$F/torchtitan-llama3-8b-fp8-slow.log"
else grep -qx 'enable_fsdp_float8_all_gather = false' "\$t" && cat "$F/torchtitan-llama3-8b-bf16.log"; fi
STUB
chmod +x "$tmp/bin/torchrun"
"$assay" import cvs --user alice --out "$tmp/run.json" "$tmp/cfg/$c.json" 2>"$tmp/err" ||
  { echo "FAIL: import of the moved config"; cat "$tmp/err"; exit 1; }
grep -q '"thresholds"' "$tmp/run.json" || { echo "FAIL: enforced config has no thresholds gate"; fail=1; }
HF_TOKEN=stand-in PATH="$tmp/bin:$PATH" "$assay" run --store "$tmp/run.db" --out "$tmp/runs" "$tmp/run.json" >"$tmp/run" 2>&1
rc=$?
[ $rc = 1 ] || { echo "FAIL: the run exits $rc, not 1 (the fp8 cell under CVS's minimums)"; cat "$tmp/run"; fail=1; }
grep -Eq '^llama3-1-8b-mi355-bs8-mbs1-bf16 +passed ' "$tmp/run" ||
  { echo "FAIL: the bf16 cell did not pass"; cat "$tmp/run"; fail=1; }
grep -Eq '^llama3-1-8b-mi355-bs8-mbs1-fp8 +gate-failed .*threshold tokens_per_sec' "$tmp/run" ||
  { echo "FAIL: the fp8 cell did not fail its threshold"; cat "$tmp/run"; fail=1; }

"$assay" import cvs --user alice --out "$tmp/refused.json" "$D/mi355_llama3_1_70b_distributed_config.json" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] || { echo "FAIL: the distributed config exits $rc, not 2"; fail=1; }
[ -e "$tmp/refused.json" ] && { echo "FAIL: a refused config wrote its --out file"; fail=1; }
[ $fail = 0 ] && echo "ok: TorchTitan config imported, linted, dry-run and run end to end; distributed refused"
exit $fail
