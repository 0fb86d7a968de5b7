#!/usr/bin/env bash
# Installs the Debian 12 packages hloscope needs (only those missing).
# Used by the README's Quick start and by .ci/run; safe to run repeatedly.
set -euo pipefail
PKGS=(build-essential cmake ninja-build pkg-config
      qt6-base-dev qt6-svg-dev libqt6svg6 libgl1-mesa-dev
      libgraphviz-dev graphviz
      llvm-19-dev libzstd-dev
      libarchive-dev
      libgoogle-perftools-dev
      nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev
      clang-14 libclang-rt-14-dev
      xvfb xauth
      chromium)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all packages present"
else
  echo "install_deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# nvdisasm (SASS from the cubins ptxas writes): the CUDA toolkit here has
# ptxas but not nvdisasm, and PyPI ships it as a small wheel. It is unpacked
# into the project's own .tools/nvdisasm (no change to any Python install);
# core/codegen/sass.cc looks there after $HLOSCOPE_NVDISASM, PATH and the
# toolkit. Failing to fetch it only costs the SASS (every command says so).
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NVDISASM_WHEEL_VERSION=13.5.37
if command -v nvdisasm >/dev/null 2>&1 || [ -x "$ROOT/.tools/nvdisasm/nvidia/cu13/bin/nvdisasm" ]; then
  echo "install_deps: nvdisasm present"
else
  echo "install_deps: fetching nvidia-cuda-nvdisasm==$NVDISASM_WHEEL_VERSION (PyPI) into .tools/nvdisasm"
  tmp=$(mktemp -d)
  if python3 -m pip download --quiet --no-deps --only-binary=:all: \
       "nvidia-cuda-nvdisasm==$NVDISASM_WHEEL_VERSION" -d "$tmp" &&
     rm -rf "$ROOT/.tools/nvdisasm" && mkdir -p "$ROOT/.tools/nvdisasm" &&
     python3 -m zipfile -e "$tmp"/nvidia_cuda_nvdisasm-*.whl "$ROOT/.tools/nvdisasm" &&
     chmod +x "$ROOT/.tools/nvdisasm/nvidia/cu13/bin/nvdisasm"; then
    echo "install_deps: nvdisasm at .tools/nvdisasm/nvidia/cu13/bin/nvdisasm"
  else
    echo "install_deps: warning: could not fetch nvdisasm; SASS will be missing (pip download nvidia-cuda-nvdisasm)" >&2
  fi
  rm -rf "$tmp"
fi
