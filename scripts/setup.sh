#!/usr/bin/env bash
# Installs what is missing on Debian 12 and builds (preset "release" unless
# given another). Safe to repeat: installs only what is missing, rebuilds only
# what changed.
#   setup.sh [PRESET] [TARGET...]
# With targets (scripts/example.sh: `setup.sh release cuprobe`): the packages
# that build cuprobe, a configuration without the test suite, those targets.
# Without (scripts/test.sh): the whole preset, the test suite included, and the
# packages the tests run. Preset "fuzz" adds clang and libFuzzer, no tests.
# No package installed here is left running or enabled as a service.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
targets=("${@:2}")

# What building cuprobe needs.
packages=(build-essential cmake pkg-config zlib1g-dev liblzma-dev libsqlite3-dev
          nlohmann-json3-dev libfmt-dev libcli11-dev
          libnghttp2-dev        # the exporter's kubelet gRPC call (HTTP/2); run time: libnghttp2-14
          libssl-dev            # https (optional to the build: without it https is one line); run time: libssl3
          libsentencepiece-dev  # bench --tokenizer FILE.model (optional to the build, as https); run time: libsentencepiece0
          libisal-dev  # gzip inflate at 3x zlib's speed (optional to the build: zlib without it)
          ccache)      # the compiler launcher (CMakeLists.txt): CI and every clone rebuild from its cache
# What the tests need besides (installed by the test command, never by the example).
test_packages=(libgtest-dev libgmock-dev python3 xz-utils
               libdeflate-dev     # only bench/inflate_speed_bench compares it (whole-buffer API, no faster here)
               libsimdjson-dev    # Kineto events read by simdjson (kineto_json/simd_window; optional: the cursor without it)
               python3-grpcio     # the exporter's --kubernetes tests run a fake kubelet (tests/support/fake_kubelet.py)
               chromium)          # the report's browser tests (tests/report/html/report_browser_test.cpp)
# Servers the tests start themselves, in the foreground, on ports of their own; their packages ship a service
# that would listen on the machine (:9090, :8888, Slurm's :6817/:6818, munge's socket): installed without
# starting it, and disabled (below).
test_servers=(tinyproxy      # the bench/wait proxy tests start a real proxy (tinyproxy -d -c CONF)
              prometheus     # the exporter's tests start the real server and promtool
              slurmctld slurmd slurm-client  # slurm-wlm's parts: tests/cli/analyze_slurm_test.sh starts a one-node
              munge)                         # Slurm cluster and its own munged in a temp dir (sbatch, srun)
build_tests=ON
if [[ $preset == fuzz ]]; then
  packages+=(clang libclang-rt-dev llvm)  # libFuzzer, llvm-symbolizer
  build_tests=""                          # the preset's own: OFF
  test_servers=()
elif ((${#targets[@]})); then
  build_tests=OFF
  test_servers=()
else
  packages+=("${test_packages[@]}")
fi

missing() {  # PACKAGE...: those not installed
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
apt_log="$(mktemp)"
trap 'rm -f "$apt_log"' EXIT
apt_install() {  # APT-GET OPTIONS AND PACKAGES: dpkg's hundreds of lines are shown only when it fails
  if ! DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "$@" > "$apt_log" 2>&1; then
    cat "$apt_log" >&2
    echo "setup: apt-get install $* failed (its output above)" >&2
    return 1
  fi
}
mapfile -t need < <(missing "${packages[@]}")
mapfile -t need_servers < <(missing "${test_servers[@]}")
if ((${#need[@]} + ${#need_servers[@]})); then
  echo "setup: installing ${need[*]} ${need_servers[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq
  ((${#need[@]})) && apt_install "${need[@]}"
fi
if ((${#need_servers[@]})); then
  # invoke-rc.d and deb-systemd-invoke ask policy-rc.d: 101 keeps the services from starting while installing.
  # Without recommends: prometheus's would add prometheus-node-exporter, another service (:9100).
  policy=/usr/sbin/policy-rc.d
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee "$policy" > /dev/null
    "${sudo_cmd[@]}" chmod 755 "$policy"
    trap '"${sudo_cmd[@]}" rm -f "$policy" "$apt_log"' EXIT
  fi
  apt_install --no-install-recommends "${need_servers[@]}"
  # The packages enabled their units and SysV links for the next boot, with systemd running or not (a container,
  # a chroot): disabled here, offline where systemd is not running (systemctl then edits the links only).
  mapfile -t units < <(dpkg-query -L "${need_servers[@]}" | grep -E '^/(usr/)?lib/systemd/system/[^/]+\.(service|timer|socket)$' |
                       xargs -r -n1 basename | sort -u)
  if ((${#units[@]})); then
    echo "setup: disabling ${units[*]} (the tests start their own servers)" >&2
    now=(); [[ -d /run/systemd/system ]] && now=(--now)
    if command -v systemctl > /dev/null; then
      "${sudo_cmd[@]}" systemctl disable "${now[@]}" "${units[@]}" > "$apt_log" 2>&1 || cat "$apt_log" >&2
    else  # no systemd installed: the links its helpers made
      for unit in "${units[@]}"; do
        "${sudo_cmd[@]}" deb-systemd-helper disable "$unit" > /dev/null 2>&1 || true
        [[ -x /etc/init.d/${unit%.service} ]] && { "${sudo_cmd[@]}" update-rc.d "${unit%.service}" disable > /dev/null 2>&1 || true; }
      done
    fi
  fi
fi

# Paths below the clone are hashed relative to it, so a clone in another folder hits the cache.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
configure=(--preset "$preset")
[[ -n $build_tests ]] && configure+=(-DCUPROBE_BUILD_TESTS="$build_tests")
cmake "${configure[@]}" >&2
build=(--build --preset "$preset" -j "$(nproc)")
((${#targets[@]})) && build+=(--target "${targets[@]}")
start=$SECONDS
cmake "${build[@]}" >&2
echo "setup: built ${targets[*]:-the $preset preset} in $((SECONDS - start)) s ($(nproc) cores)" >&2
