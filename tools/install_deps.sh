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
  exit 0
fi
echo "install_deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
