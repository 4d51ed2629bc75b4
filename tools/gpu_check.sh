#!/usr/bin/env bash
# Build cuda.core wheels for CUDA 13 and CUDA 12 on the GPU machine, run the GPU and API
# tests, the examples and the launch and import benchmarks on the real driver with each, NVIDIA's own
# tests beside NVIDIA's installed cuda.core (when .upstream/ holds them), then merge the
# wheels into the dual wheel and run the GPU tests again with each major's cuda-bindings.
#
# The GPU machine has no network: the packages it lacks travel as wheels in WHEELS
# (default .whl, laid out as README's developer section says): tools/ (meson-python,
# pyproject-metadata), cu13/ and cu12/ (cuda-bindings, CUDA 12 header wheels), and
# cu12-nvrtc/ (nvrtc.h, and libnvrtc.so.12 with its builtins as nvrtc12.tar.xz: the
# CUDA 12 NVRTC wheel is too large to carry whole). CUDA 13 builds against the
# machine's /usr/local/cuda and uses its NVRTC 13. Figures and logs go to $OUT when set.
#
# Environment: MAJORS (default "13 12"; one major per process lets two run at once; an
# empty MAJORS runs only the dual wheel of the wheels built before),
# BENCH=0 skips the launch benchmark, DUAL=0 the dual wheel, OURS_TESTS our test paths to run
# (default: tests/gpu tests/api), UPSTREAM_FILES the NVIDIA test files to run (default: the
# files of the runtime API), UPSTREAM_EXAMPLES=1 also runs NVIDIA's examples on both sides, UPSTREAM_END the time (epoch seconds) by which NVIDIA's suite must
# have ended: files still running are stopped then, and the table is written either way.
set -uo pipefail
cd "$(dirname "$0")/.."
WHEELS=${1:-.whl}
PY=${PYTHON:-python3}
OUT=${OUT:-/tmp/gpu-check-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
status=0
UPSTREAM_FILES=${UPSTREAM_FILES:-tests/test_device.py tests/test_context.py tests/test_stream.py tests/test_event.py \
tests/test_launcher.py tests/test_module.py tests/test_program.py tests/test_host.py tests/test_cuda_utils.py \
tests/memory/test_managed_ops.py tests/test_memory.py tests/test_linker.py tests/test_typing_imports.py \
tests/test_utils.py tests/test_utils_dlpack.py tests/test_strided_layout.py tests/test_program_cache.py \
tests/test_program_cache_multiprocess.py tests/test_program_compile_cache.py tests/test_object_protocols.py}
pip_target() { local target=$1; shift; "$PY" -m pip install -q --no-index --no-deps --no-compile --target "$target" "$@"; }
gpu_tests() {  # major, PYTHONPATH entries...
  local major=$1; shift
  (export PYTHONPATH=$(IFS=:; echo "$*"); cd /tmp && "$PY" -m cuda.core) || status=1
  PYTHONPATH=$(IFS=:; echo "$*") CUDA_CORE_TEST_LOCAL=1 "$PY" -m pytest ${OURS_TESTS:-tests/gpu tests/api} -q -rfEs \
    -p no:cacheprovider --junitxml "$OUT/ours-cu$major.xml" || status=1
}
examples_and_bench() {  # major, PYTHONPATH entries...
  local major=$1; shift
  for example in examples/vector_add.py examples/saxpy.py examples/cuda_graphs.py; do
    PYTHONPATH=$(IFS=:; echo "$*") "$PY" "$example" || status=1
  done
  if [ "${BENCH:-1}" = 1 ]; then
    PYTHONPATH=$(IFS=:; echo "$*") "$PY" benchmarks/launch_bench.py ${LAUNCH_BENCH_ARGS:-} \
      --json "$OUT/launch_bench_cu$major.json" || status=1
    PYTHONPATH=$(IFS=:; echo "$*") "$PY" benchmarks/view_bench.py --json "$OUT/view_bench_cu$major.json" || status=1
    "$PY" benchmarks/import_bench.py --ours "$(IFS=:; echo "$*")" --python "$PY" \
      --json "$OUT/import_bench_cu$major.json" || status=1
  fi
}
upstream_suite() {  # major, our install, our bindings site
  local major=$1 install=$2 site=$3
  [ -d .upstream/cuda_core/tests ] || { echo "(no .upstream/: NVIDIA's tests not run)"; return; }
  # Both sides with the same cuda-bindings (the pinned one of the major), so a difference is
  # cuda.core's; names of later parts of the port get placeholders on our side.
  "$PY" tools/upstream_suite.py --root .upstream --files $UPSTREAM_FILES --ours-python "$PY" \
    --ours-path "$install" --ours-path "$site" --nvidia-python "$PY" --nvidia-path "$site" \
    --later-part-name cuda.core.graph:GraphDefinition \
    --jobs "${UPSTREAM_JOBS:-4}" --timeout "${UPSTREAM_TIMEOUT:-300}" ${UPSTREAM_END:+--deadline $((UPSTREAM_END - $(date +%s)))} \
    --json "$OUT/upstream-cu$major.json" || true
}
upstream_examples() {  # major, our install, our bindings site
  local major=$1 install=$2 site=$3 example name ours nvidia
  [ "${UPSTREAM_EXAMPLES:-0}" = 1 ] && [ -d .upstream/cuda_core/examples ] || return 0
  # NVIDIA's examples, each run as a user would: the exit status on each side (logs in $OUT/examples).
  mkdir -p "$OUT/examples"
  echo "== NVIDIA's examples with CUDA $major: exit status, ours beside NVIDIA's (124: over ${EXAMPLE_TIMEOUT:-90} s)"
  for example in "$PWD"/.upstream/cuda_core/examples/*.py; do
    name=$(basename "$example" .py)
    (cd /tmp && PYTHONPATH="$install:$site" timeout "${EXAMPLE_TIMEOUT:-90}" "$PY" "$example" \
      > "$OUT/examples/$name-ours.log" 2>&1); ours=$?
    (cd /tmp && PYTHONPATH="$site" timeout "${EXAMPLE_TIMEOUT:-90}" "$PY" "$example" \
      > "$OUT/examples/$name-nvidia.log" 2>&1); nvidia=$?
    printf '  %-40s ours %3d   nvidia %3d\n' "$name" "$ours" "$nvidia"
  done
}

# Once per machine: libnvrtc.so.12 for the CUDA 12 build (found by cuda.pathfinder through
# LD_LIBRARY_PATH), and meson-python.
if [ ! -f /tmp/gpu-setup-done ]; then
  mkdir -p /tmp/nvrtc12 && tar -C /tmp/nvrtc12 -xJf "$WHEELS"/cu12-nvrtc/nvrtc12.tar.xz || exit 1
  pip_target /tmp/gpu-tools "$WHEELS"/tools/*.whl || exit 1
  echo "== the version trap: machine's cuda-bindings $("$PY" -c 'import cuda.bindings; print(cuda.bindings.__version__)') with its /usr/local/cuda headers"
  CUDA_PATH=/usr/local/cuda "$PY" tools/cuda_probe.py && echo "(no trap here)"
  touch /tmp/gpu-setup-done
fi

for major in ${MAJORS-13 12}; do
  site=/tmp/gpu-site$major
  rm -rf "$site" /tmp/gpu-install$major /tmp/gpu-wheels$major
  pip_target "$site" "$WHEELS"/cu$major/*.whl || exit 1
  if [ "$major" = 13 ]; then cuda_path=/usr/local/cuda
  else cuda_path="$site/nvidia/cuda_runtime:$site/nvidia/cuda_profiler_api:$PWD/$WHEELS/cu12-nvrtc"; fi
  echo "== CUDA $major: build the wheel (CUDA_PATH=$cuda_path)"
  start=$(date +%s%N)
  if ! PYTHONPATH="$site:/tmp/gpu-tools" CUDA_PATH="$cuda_path" "$PY" -m pip wheel -q --no-build-isolation \
      --no-deps --no-index -w /tmp/gpu-wheels$major . ; then echo "BUILD FAILED for CUDA $major"; status=1; continue; fi
  echo "built in $(( ($(date +%s%N) - start) / 1000000 )) ms: $(ls /tmp/gpu-wheels$major)"
  pip_target /tmp/gpu-install$major /tmp/gpu-wheels$major/*.whl || status=1
  if [ "$major" = 12 ]; then export LD_LIBRARY_PATH=/tmp/nvrtc12${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}; fi
  gpu_tests $major /tmp/gpu-install$major "$site"
  examples_and_bench $major /tmp/gpu-install$major "$site"
  upstream_examples $major /tmp/gpu-install$major "$site"
  upstream_suite $major /tmp/gpu-install$major "$site"
done

if [ "${DUAL:-1}" = 1 ]; then
  echo "== dual wheel"
  "$PY" tools/merge_wheels.py /tmp/gpu-wheels12/*.whl /tmp/gpu-wheels13/*.whl -o /tmp/gpu-dual-wheel || exit 1
  rm -rf /tmp/gpu-dual && pip_target /tmp/gpu-dual /tmp/gpu-dual-wheel/*.whl || exit 1
  for major in 13 12; do
    echo "== dual wheel with cuda-bindings $major"
    gpu_tests dual$major /tmp/gpu-dual /tmp/gpu-site$major
  done
fi
exit $status
