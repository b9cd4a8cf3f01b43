#!/usr/bin/env bash
# Lint speed: generates N madengine manifests of about 50 KB each (default
# 1,000: a 2-node Slurm deployment, ~33 images with their model cards, large
# env blocks, one image-tag warning per file), then times `assay lint` over
# all of them in one process, next to two baselines run the same way: reading
# the files (cat) and parsing them without any rule (python3 json.load, when
# python3 is there). assay runs once on one thread (--jobs 1) and once with
# its default (one thread per CPU). The four commands run interleaved, R
# rounds (default 5) of each in turn, so a change in machine load hits all
# of them alike; each is reported as its best round, in wall time and in CPU
# time (user + system, which load on a shared machine disturbs less), with
# the ratios. Target: assay --jobs 1 takes no more CPU than json.load.
#   bench/lint-speed.sh [N] [RUNS]        ASSAY=path/to/assay to pick a binary
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
runs=${2:-5}
assay=${ASSAY:-build/release/bin/assay}
if [ ! -x "$assay" ]; then
  echo "building $assay (release)..." >&2
  cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >/dev/null
  cmake --build build/release -j 2 >/dev/null
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# One manifest per file; i varies names and values so no two files are equal.
awk -v n="$n" -v dir="$dir" '
function q(s) { return "\"" s "\"" }
BEGIN {
  for (f = 0; f < n; f++) {
    out = sprintf("%s/m%04d/build_manifest.json", dir, f)
    system("mkdir -p " dir "/" sprintf("m%04d", f))
    printf "{\n  \"built_images\": {\n" > out
    models = 33
    for (m = 0; m < models; m++) {
      key = sprintf("ci-pyt_model%02d_f%04d_vllm.ubuntu.amd", m, f)
      img = (m == 0) ? "rocm/vllm:latest" : key
      printf "    %s: {\n      \"docker_image\": %s,\n      \"dockerfile\": \"docker/vllm.ubuntu.amd.Dockerfile\",\n      \"base_docker\": \"rocm/vllm:rocm6.4.1_vllm_0.9.1_20250702\",\n      \"docker_sha\": \"sha256:%064d\",\n      \"build_duration\": %d.%d,\n      \"local_image\": %s\n    }%s\n", q(key), q(img), f * 100 + m, 300 + m, f % 10, (m == 0 ? "true" : "false"), (m < models - 1 ? "," : "") > out
    }
    printf "  },\n  \"built_models\": {\n" > out
    for (m = 0; m < models; m++) {
      key = sprintf("ci-pyt_model%02d_f%04d_vllm.ubuntu.amd", m, f)
      printf "    %s: {\n      \"name\": \"pyt_model%02d_f%04d\",\n      \"url\": \"\",\n      \"dockerfile\": \"docker/vllm\",\n      \"scripts\": \"scripts/vllm/run.sh\",\n      \"data\": \"huggingface\",\n      \"n_gpus\": \"8\",\n      \"owner\": \"mad.support@example.com\",\n      \"training_precision\": \"bf16\",\n      \"multiple_results\": \"perf_model%02d.csv\",\n      \"tags\": [\"pyt\", \"vllm\", \"inference\", \"model%02d\", \"nightly\"],\n      \"timeout\": -1,\n      \"args\": \"--model_repo org/model-%02d --config configs/default.yaml --max-num-seqs 256 --tensor-parallel-size 8\",\n      \"additional_docker_run_options\": \"--privileged --group-add render --shm-size 64G --device=/dev/infiniband --cap-add IPC_LOCK --ulimit memlock=-1 -v /sys:/sys:ro\",\n      \"skip_gpu_arch\": [\"gfx906\", \"gfx908\"],\n      \"distributed\": {\"launcher\": \"vllm\", \"nnodes\": 2},\n      \"slurm\": {\"nodes\": 2, \"gpus_per_node\": 8, \"time\": \"04:00:00\"}\n    }%s\n", q(key), m, f, m, m, m, (m < models - 1 ? "," : "") > out
    }
    printf "  },\n  \"context\": {\n    \"docker_env_vars\": {\n" > out
    for (v = 0; v < 60; v++)
      printf "      \"APP_SETTING_%02d\": \"value-%d-%d-/opt/rocm/lib:/usr/local/lib\",\n", v, f, v > out
    printf "      \"NCCL_SOCKET_IFNAME\": \"eth0\",\n      \"GLOO_SOCKET_IFNAME\": \"eth0\",\n      \"NCCL_IB_HCA\": \"mlx5_0:1,mlx5_1:1\"\n    },\n" > out
    printf "    \"docker_mounts\": {\"/dev/infiniband\": \"/dev/infiniband\", \"/data\": \"/mnt/shared/data\"},\n    \"docker_build_arg\": {\"ROCM_VERSION\": \"6.4.1\"},\n    \"gpu_vendor\": \"AMD\",\n    \"guest_os\": \"UBUNTU\",\n    \"docker_gpus\": \"0,1,2,3,4,5,6,7\"\n  },\n" > out
    printf "  \"credentials_required\": [],\n  \"deployment_config\": {\n    \"target\": \"slurm\",\n    \"slurm\": {\"partition\": \"gpu\", \"account\": \"perf-ci\", \"nodes\": 2, \"nodelist\": \"gpu[%03d-%03d]\", \"gpus_per_node\": 8, \"time\": \"04:00:00\", \"network_interface\": \"eth0\"},\n", f % 500, f % 500 + 1 > out
    printf "    \"distributed\": {\"launcher\": \"vllm\", \"backend\": \"nccl\", \"port\": 29500, \"nnodes\": 2, \"nproc_per_node\": 8},\n    \"env_vars\": {\n" > out
    for (v = 0; v < 60; v++)
      printf "      \"JOB_SETTING_%02d\": \"value-%d-%d-/mnt/shared/cache\",\n", v, f, v > out
    printf "      \"NCCL_SOCKET_IFNAME\": \"eth0\"\n    }\n  }\n}\n" > out
    close(out)
  }
}'
files=("$dir"/m*/build_manifest.json)
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
bytes=$(cat "${files[@]}" | wc -c)
echo "lint-speed: ${#files[@]} manifests, $(calc "$bytes / ${#files[@]} / 1024") KB each on average," \
  "$(calc "$bytes / 1048576") MB in all; $(nproc) CPUs"

# The findings must be what the generator planted: one warning per file.
set +e
"$assay" lint "${files[@]}" >"$dir/findings" 2>/dev/null
rc=$?
set -e
found=$(wc -l <"$dir/findings")
if [ "$rc" != 0 ] || [ "$found" != "${#files[@]}" ]; then
  echo "lint-speed: expected ${#files[@]} image-tag warnings and exit 0, got $found (exit $rc)" >&2
  head -5 "$dir/findings" >&2
  exit 1
fi

# One timed run of "$@": prints "wall cpu" in seconds, from bash's time
# keyword (real, and user + system of the command).
timed() {
  local TIMEFORMAT='%R %U %S'
  { time "$@" >/dev/null 2>&1; } 2>"$dir/time" || true
  awk '{ printf "%.4f %.4f\n", $1, $2 + $3 }' "$dir/time"
}
names=("cat (read the files)")
cmds=("cat ${files[*]@Q}")
if command -v python3 >/dev/null; then
  printf '%s\n' "${files[@]}" >"$dir/list"
  cat >"$dir/load.py" <<'PY'
import json, sys
for p in open(sys.argv[1]).read().split():
    with open(p) as f:
        json.load(f)
PY
  names+=("python3 json.load (parse only, no rules)")
  cmds+=("python3 ${dir@Q}/load.py ${dir@Q}/list")
fi
names+=("assay lint --jobs 1 (all default rules)" "assay lint (all default rules, $(nproc) threads)")
cmds+=("${assay@Q} lint --jobs 1 ${files[*]@Q}" "${assay@Q} lint ${files[*]@Q}")
declare -a wall cpu
for k in "${!cmds[@]}"; do wall[k]=999999; cpu[k]=999999; done
for _ in $(seq "$runs"); do
  for k in "${!cmds[@]}"; do
    read -r w c < <(eval "timed ${cmds[k]}")
    wall[k]=$(awk -v a="$w" -v b="${wall[k]}" 'BEGIN { print (a < b ? a : b) }')
    cpu[k]=$(awk -v a="$c" -v b="${cpu[k]}" 'BEGIN { print (a < b ? a : b) }')
  done
done
printf '%-46s %9s %9s   %s\n' "best of $runs interleaved rounds" "wall" "CPU" "(manifests/s by CPU)"
for k in "${!cmds[@]}"; do
  printf '%-46s %8.3fs %8.3fs   (%.0f/s)\n' "${names[k]}" "${wall[k]}" "${cpu[k]}" \
    "$(calc "${#files[@]} / (${cpu[k]} > 0 ? ${cpu[k]} : 0.001)")"
done
last=$((${#cmds[@]} - 1)); one=$((last - 1))
if [ "${#cmds[@]}" = 4 ]; then
  printf 'ratios: assay --jobs 1 / python3 json.load = %.2fx CPU, %.2fx wall\n' \
    "$(calc "${cpu[one]} / ${cpu[1]}")" "$(calc "${wall[one]} / ${wall[1]}")"
  verdict=$(awk -v a="${cpu[one]}" -v b="${cpu[1]}" 'BEGIN { print (a <= b ? "met" : "NOT met") }')
  echo "target: assay lint --jobs 1 takes no more CPU than json.load: $verdict"
fi
printf 'default (%s threads) / --jobs 1 = %.2fx wall; 1000-manifest target under 1 s wall: %s\n' \
  "$(nproc)" "$(calc "${wall[last]} / ${wall[one]}")" \
  "$(awk -v t="${wall[last]}" 'BEGIN { print (t < 1 ? "under" : "OVER") }')"
