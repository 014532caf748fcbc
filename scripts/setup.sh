#!/usr/bin/env bash
# Installs what cuprobe needs on Debian 12 and builds it (preset "release" unless
# given another). Safe to repeat: installs only what is missing, rebuilds only
# what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"

packages=(build-essential cmake pkg-config zlib1g-dev liblzma-dev libsqlite3-dev
          nlohmann-json3-dev libfmt-dev libcli11-dev libgtest-dev libgmock-dev
          libisal-dev  # gzip inflate 3x zlib's speed (optional to the build: zlib without it)
          libdeflate-dev  # only bench/inflate_speed_bench compares it (whole-buffer API, no faster here)
          python3 xz-utils
          ccache       # the compiler launcher (CMakeLists.txt): CI and every clone rebuild from its cache
          libsentencepiece0  # bench --tokenizer reads SentencePiece models with it (opened at run time)
          tinyproxy    # the bench/wait proxy tests start a real proxy (tinyproxy -d -c CONF, no daemon)
          prometheus   # the exporter's tests start the real server and promtool (on hosts with systemd the
                       # package also enables its own service on :9090; `systemctl disable --now prometheus`)
          python3-grpcio  # the exporter's --kubernetes tests run a fake kubelet (tests/support/fake_kubelet.py)
          chromium)    # the report's browser tests (tests/report/html/report_browser_test.cpp)
[[ $preset == fuzz ]] && packages+=(clang libclang-rt-dev llvm)  # libFuzzer, llvm-symbolizer
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >&2
fi

# Paths below the clone are hashed relative to it, so a clone in another folder hits the cache.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake --preset "$preset" >&2
cmake --build --preset "$preset" -j "$(nproc)" >&2
