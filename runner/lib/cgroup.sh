#!/usr/bin/env bash
# CPU time and CPU pinning of servers and clients through control groups. Each side of a cell goes into
# a cgroup of its own, whose counter also keeps the time of threads and children that have exited
# (microseconds). Where the machine has two CPUs or more, each side is pinned to CPUs of its own with a
# cpuset cgroup (or, without one, with taskset), so client and server never share a core. Without a
# usable hierarchy the runner falls back to /proc ticks (10 ms resolution) and no pinning.

CGROUP_DIR=""
CGROUP_KIND=""
CPUSET_DIR=""
PIN_NOTE="not pinned"
declare -A PIN_CPUS=()

# A cgroup v2 hierarchy (pure, or the "unified" half of a hybrid one) reports cpu.stat in every group;
# v1 needs the cpuacct controller.
cgroup_create() {
  local tag="$1" base
  for base in /sys/fs/cgroup /sys/fs/cgroup/unified; do
    if [[ -f "$base/cgroup.procs" && -f "$base/cgroup.stat" ]] && mkdir "$base/rpcmatrix-$tag" 2>/dev/null; then
      CGROUP_DIR="$base/rpcmatrix-$tag" CGROUP_KIND="v2"
      break
    fi
  done
  if [[ -z "$CGROUP_DIR" && -f /sys/fs/cgroup/cpuacct/cpuacct.usage ]] &&
    mkdir "/sys/fs/cgroup/cpuacct/rpcmatrix-$tag" 2>/dev/null; then
    CGROUP_DIR="/sys/fs/cgroup/cpuacct/rpcmatrix-$tag" CGROUP_KIND="v1"
  fi
  [[ -n "$CGROUP_DIR" ]] || return 1
  mkdir -p "$CGROUP_DIR/server" "$CGROUP_DIR/client" "$CGROUP_DIR/parked" "$CGROUP_DIR/warming" 2>/dev/null || {
    cgroup_destroy
    return 1
  }
}

# cpuset_create TAG: the server gets the last CPU, the client the first (CPU 0 also takes most of the
# machine's housekeeping, and the client is idle while it waits); processes warming up together, whose calls are
# not timed, share every CPU (warming). Needs two CPUs or more.
cpuset_create() {
  local tag="$1" cpus last mems
  cpus=$(nproc 2>/dev/null || echo 1)
  ((cpus >= 2)) || {
    PIN_NOTE="not pinned: the machine has one CPU"
    return 1
  }
  last=$((cpus - 1))
  PIN_CPUS[client]=0 PIN_CPUS[server]="$last"
  if [[ -f /sys/fs/cgroup/cpuset/cpuset.cpus ]] && mkdir "/sys/fs/cgroup/cpuset/rpcmatrix-$tag" 2>/dev/null; then
    CPUSET_DIR="/sys/fs/cgroup/cpuset/rpcmatrix-$tag"
    mems=$(<"/sys/fs/cgroup/cpuset/cpuset.mems")
    if { cat /sys/fs/cgroup/cpuset/cpuset.cpus >"$CPUSET_DIR/cpuset.cpus" &&
      printf '%s\n' "$mems" >"$CPUSET_DIR/cpuset.mems" &&
      mkdir "$CPUSET_DIR/server" "$CPUSET_DIR/client" "$CPUSET_DIR/parked" "$CPUSET_DIR/warming" &&
      printf '%s\n' "$last" >"$CPUSET_DIR/server/cpuset.cpus" && printf '%s\n' "$mems" >"$CPUSET_DIR/server/cpuset.mems" &&
      printf '0\n' >"$CPUSET_DIR/client/cpuset.cpus" && printf '%s\n' "$mems" >"$CPUSET_DIR/client/cpuset.mems" &&
      printf '0\n' >"$CPUSET_DIR/parked/cpuset.cpus" && printf '%s\n' "$mems" >"$CPUSET_DIR/parked/cpuset.mems" &&
      printf '0-%s\n' "$last" >"$CPUSET_DIR/warming/cpuset.cpus" && printf '%s\n' "$mems" >"$CPUSET_DIR/warming/cpuset.mems"; } 2>/dev/null; then
      PIN_NOTE="server on CPU $last, client on CPU 0 (cpuset cgroups); the runner itself is not pinned"
      return 0
    fi
    cpuset_destroy
  fi
  if command -v taskset >/dev/null; then
    CPUSET_DIR=""
    PIN_NOTE="server on CPU $last, client on CPU 0 (taskset: no cpuset cgroup here); the runner itself is not pinned"
    return 0
  fi
  PIN_CPUS=()
  PIN_NOTE="not pinned: neither a cpuset cgroup nor taskset is available"
  return 1
}

# The argv prefix that pins ROLE when pinning falls back to taskset (nothing otherwise).
pin_prefix() {
  local role="$1"
  [[ -z "$CPUSET_DIR" && -n "${PIN_CPUS[$role]:-}" ]] || return 0
  printf '%s\n' taskset -c "${PIN_CPUS[$role]}"
}

# The argv prefix that puts what it runs into ROLE's cgroup and cpuset before it starts (nothing without
# them): for a command run in the foreground, such as the floor's client, which cgroup_join could only
# move after it had begun (and after `timeout` had forked it). Goes before netns_prefix, whose command sees
# a /sys of its namespace's own.
cgroup_prefix() {
  local role="$1"
  local -a files=()
  [[ -z "$CGROUP_DIR" ]] || files+=("$CGROUP_DIR/$role/cgroup.procs")
  [[ -z "$CPUSET_DIR" ]] || files+=("$CPUSET_DIR/$role/cgroup.procs")
  ((${#files[@]} > 0)) || return 0
  # shellcheck disable=SC2016 # the script's variables are its own
  printf '%s\n' bash -c 'while [[ "$1" != -- ]]; do { printf "%s\n" "$$" >"$1"; } 2>/dev/null; shift; done; shift; exec "$@"' \
    cgroup-join "${files[@]}" --
}

# cgroup_join ROLE PID: moves a freshly started process (and so its future threads and children) in.
cgroup_join() {
  if [[ -n "$CGROUP_DIR" ]]; then
    { printf '%s\n' "$2" >"$CGROUP_DIR/$1/cgroup.procs"; } 2>/dev/null || true
  fi
  if [[ -n "$CPUSET_DIR" ]]; then
    { printf '%s\n' "$2" >"$CPUSET_DIR/$1/cgroup.procs"; } 2>/dev/null || true
  fi
}

# cgroup_cpu_us ROLE VAR: sets VAR to the CPU time used so far by ROLE's cgroup, in microseconds, or to
# "null" when there is none. Reads with builtins only: it runs between timed repetitions.
cgroup_cpu_us() {
  local key value
  printf -v "$2" 'null'
  case "$CGROUP_KIND" in
    v2)
      while read -r key value; do
        if [[ "$key" == usage_usec ]]; then
          printf -v "$2" '%s' "$value"
          return 0
        fi
      done <"$CGROUP_DIR/$1/cpu.stat"
      ;;
    v1)
      read -r value <"$CGROUP_DIR/$1/cpuacct.usage"
      printf -v "$2" '%s' $((value / 1000))
      ;;
  esac
}

cpuset_destroy() {
  [[ -n "$CPUSET_DIR" ]] || return 0
  rmdir "$CPUSET_DIR/server" "$CPUSET_DIR/client" "$CPUSET_DIR/parked" "$CPUSET_DIR/warming" "$CPUSET_DIR" 2>/dev/null || true
  CPUSET_DIR=""
}

cgroup_destroy() {
  cpuset_destroy
  [[ -n "$CGROUP_DIR" ]] || return 0
  rmdir "$CGROUP_DIR/server" "$CGROUP_DIR/client" "$CGROUP_DIR/parked" "$CGROUP_DIR/warming" "$CGROUP_DIR" 2>/dev/null || true
  CGROUP_DIR=""
}
