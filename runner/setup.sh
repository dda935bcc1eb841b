#!/usr/bin/env bash
# Set-up of a fresh machine (Debian 12 with Java 17, Maven and Python 3.11): installs what is missing,
# skips what is there. It is the one place that installs Debian packages: the runner's own and those the
# languages' manifests ask for ("apt"). Then `just`, ruff and the runner's Python requirements into the
# project's virtual environment (Debian's python3 is externally managed: no pip outside a venv), the
# machine's floor program, and the run's TLS material. Languages build their own libraries.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$ROOT/.venv"
# chromium (with an emoji font for the report's marks): the browser test of report.html (runner/tests/test_html.py)
RUNNER_PACKAGES=(jq iproute2 ethtool openssl procps util-linux gzip git shellcheck bats gcc libc6-dev python3-venv
  chromium fonts-noto-color-emoji)
# postgresql: the history's tests start a throwaway cluster of it (runner/tests/test_history.py)
RUNNER_PACKAGES+=(postgresql)
# parallel: bats runs the runner's tests two at a time (--jobs), most of whose time is waiting on processes
RUNNER_PACKAGES+=(parallel)
# nftables: the counting pass tells the segments carrying payload from bare ACKs (runner/lib/netns.sh);
# tshark: the test that checks those counters against a packet capture (runner/tests/wire.bats)
RUNNER_PACKAGES+=(nftables tshark)
# tinyproxy: the real HTTP proxy of --proxy http (runner/conductor/proxy.py), also in the runner's tests
RUNNER_PACKAGES+=(tinyproxy)
# openssh-server: the tests start an sshd in a namespace of their own as the other host of --server-host
# (runner/tests/ssh.bats); openssh-client runs a server there
RUNNER_PACKAGES+=(openssh-client openssh-server)
# iptables (iptables-nft), libnetfilter-queue-dev, libmnl-dev: the network scenarios' loss rule and, on a kernel
# without netem, the delay line (runner/lib/network.sh, runner/floor/delayline.c)
RUNNER_PACKAGES+=(iptables libnetfilter-queue-dev libmnl-dev)

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

# Packages wanted only for a command not on PATH ("apt_commands": {"npm": "npm"}): a runtime from another
# distribution may bundle the command and conflict with Debian's package of it (NodeSource's nodejs and npm).
packages_for_missing_commands() {
  local command package
  while IFS=$'\t' read -r command package; do
    command -v "$command" >/dev/null || printf '%s\n' "$package"
  done < <(jq -r '.apt_commands // {} | to_entries[] | [.key, .value] | @tsv' "$ROOT"/*/manifest.json | sort -u)
}

python_venv() {
  bash "$ROOT/python/venv.sh"
  if ! "$VENV/bin/python" -c 'import hdrh, pytest, xdist, scipy, sqlalchemy, psycopg, matplotlib, playwright, yaml, kubernetes_validate' 2>/dev/null || [[ ! -x "$VENV/bin/just" || ! -x "$VENV/bin/ruff" ]]; then
    say "installing the runner's Python requirements, just and ruff into $VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$ROOT/runner/requirements.txt"
  fi
}

# just comes from PyPI (rust-just, a prebuilt binary in a wheel) into the venv; a link puts it on PATH.
link_just() {
  local target="/usr/local/bin/just"
  command -v just >/dev/null && return 0
  if [[ -w "$(dirname "$target")" ]]; then
    ln -sf "$VENV/bin/just" "$target"
  else
    sudo ln -sf "$VENV/bin/just" "$target"
  fi
}

# The machine's floor (runner/floor/floor.c) and the delay line (delayline.c), built with the system compiler when
# a source is newer than its program.
build_floor() {
  build_c floor
  build_c delayline -lnetfilter_queue -lmnl
}

# build_c NAME [LIBRARIES...]: runner/floor/NAME.c into runner/floor/bin/NAME.
build_c() {
  local src="$ROOT/runner/floor/$1.c" bin="$ROOT/runner/floor/bin/$1"
  [[ -x "$bin" && "$bin" -nt "$src" ]] && return 0
  say "building runner/floor/bin/$1"
  mkdir -p "$(dirname "$bin")"
  gcc -O2 -Wall -Wextra -pthread -o "$bin" "$src" "${@:2}"
}

# The suite's SSH key pair (secrets/ssh/id_ed25519), the default --server-key: made once, kept after.
ssh_key() {
  local key="$ROOT/secrets/ssh/id_ed25519"
  [[ -f "$key" ]] && return 0
  mkdir -p "$(dirname "$key")" && chmod 700 "$(dirname "$key")"
  ssh-keygen -q -t ed25519 -N '' -C "rpcmatrix suite" -f "$key"
}

main() {
  apt_install jq
  local -a packages
  mapfile -t packages < <(manifest_packages)
  apt_install "${RUNNER_PACKAGES[@]}" "${packages[@]}"
  mapfile -t packages < <(packages_for_missing_commands)
  ((${#packages[@]} == 0)) || apt_install "${packages[@]}"
  python_venv
  link_just
  build_floor
  bash "$ROOT/runner/secrets.sh" "$ROOT/secrets"
  ssh_key
}

main "$@"
