#!/usr/bin/env bash
# Set-up of a fresh machine (Debian 12 with Java 17, Maven and Python 3.11): installs what is missing,
# skips what is there. Languages build themselves (their manifests' build commands); this script makes
# the common ground: system packages the runner and the manifests ask for, `just`, the Python venv of
# the runner's analysis, and the run's TLS material.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNNER_PACKAGES=(jq iproute2 ethtool openssl procps shellcheck bats)

say() { printf 'setup: %s\n' "$*" >&2; }

missing_packages() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || printf '%s\n' "$pkg"
  done
}

apt_install() {
  local -a missing
  mapfile -t missing < <(missing_packages "$@")
  ((${#missing[@]} > 0)) || return 0
  say "installing ${missing[*]}"
  local sudo=""
  ((EUID == 0)) || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Packages the languages declare in their manifests ("apt": [...]).
manifest_packages() {
  jq -r '.apt // [] | .[]' "$ROOT"/*/manifest.json | sort -u
}

install_just() {
  command -v just >/dev/null && return 0
  say "installing just (from PyPI's rust-just)"
  python3 -m pip install --quiet --disable-pip-version-check rust-just
  command -v just >/dev/null && return 0
  local scripts
  scripts=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
  ln -sf "$scripts/just" /usr/local/bin/just
}

python_venv() {
  local venv="$ROOT/.venv"
  [[ -x "$venv/bin/python" ]] || python3 -m venv "$venv"
  if ! "$venv/bin/python" -c 'import hdrh, pytest' 2>/dev/null; then
    say "installing the runner's Python requirements"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$ROOT/runner/requirements.txt"
  fi
}

main() {
  apt_install jq
  local -a packages
  mapfile -t packages < <(manifest_packages)
  apt_install "${RUNNER_PACKAGES[@]}" "${packages[@]}"
  install_just
  python_venv
  bash "$ROOT/runner/lib/secrets.sh" "$ROOT/secrets"
}

main "$@"
