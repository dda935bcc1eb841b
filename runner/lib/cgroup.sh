#!/usr/bin/env bash
# CPU time and CPU pinning of servers and clients through control groups. Each side of a cell goes into a cgroup
# of its own (v2: pure, or the "unified" half of a hybrid hierarchy), whose counter also keeps the time of threads
# and children that have exited (microseconds). Where the machine has two CPUs or more, each side is pinned to a
# CPU of its own with a cpuset cgroup (or, without one, with taskset), so client and server never share a core.
# Processes warming up together, whose calls are not timed, share every CPU (warming); idle ones wait apart
# (parked), so the counters hold the active pair only.

CGROUP_DIR="" CPUSET_DIR=""
# role -> CPU, where pinning falls back to taskset
declare -A PIN_CPUS=()
ROLES=(server client parked warming)

# cgroup_create TAG SETUP: the run's cgroups, where a v2 hierarchy takes them; what was made goes to the run's
# setup facts (SETUP: "name<TAB>value" lines).
cgroup_create() {
  local base role
  for base in /sys/fs/cgroup /sys/fs/cgroup/unified; do
    if [[ -f "$base/cgroup.procs" && -f "$base/cgroup.stat" ]] && mkdir "$base/rpcmatrix-$1" 2>/dev/null; then
      CGROUP_DIR="$base/rpcmatrix-$1"
      for role in "${ROLES[@]}"; do mkdir "$CGROUP_DIR/$role" 2>/dev/null || { cgroup_destroy && return 0; }; done
      printf 'cgroup\tv2\n' >>"$2"
      return 0
    fi
  done
}

# cpuset_role ROLE CPUS MEMS: one role's cpuset cgroup.
cpuset_role() {
  mkdir "$CPUSET_DIR/$1" && printf '%s\n' "$2" >"$CPUSET_DIR/$1/cpuset.cpus" &&
    printf '%s\n' "$3" >"$CPUSET_DIR/$1/cpuset.mems"
}

# cpuset_create TAG SETUP: the server pinned to the last CPU, the client to the first (CPU 0 also takes most of the
# machine's housekeeping, and the client is idle while it waits), with a cpuset cgroup or else taskset; how, or
# why not, goes to the run's setup facts.
cpuset_create() {
  local cpus last mems v1=/sys/fs/cgroup/cpuset
  cpus=$(nproc 2>/dev/null || echo 1)
  if ((cpus < 2)); then
    printf 'pin_reason\tthe machine has one CPU\n' >>"$2"
    return 0
  fi
  last=$((cpus - 1))
  if [[ -f "$v1/cpuset.cpus" ]] && mkdir "$v1/rpcmatrix-$1" 2>/dev/null; then
    CPUSET_DIR="$v1/rpcmatrix-$1"
    mems=$(<"$v1/cpuset.mems")
    if { cat "$v1/cpuset.cpus" >"$CPUSET_DIR/cpuset.cpus" && printf '%s\n' "$mems" >"$CPUSET_DIR/cpuset.mems" &&
      cpuset_role server "$last" "$mems" && cpuset_role client 0 "$mems" && cpuset_role parked 0 "$mems" &&
      cpuset_role warming "0-$last" "$mems"; } 2>/dev/null; then
      printf 'pin\tcpuset\nserver_cpu\t%s\nclient_cpu\t0\n' "$last" >>"$2"
      return 0
    fi
    cpuset_destroy
  fi
  if command -v taskset >/dev/null; then
    PIN_CPUS[client]=0 PIN_CPUS[server]="$last"
    printf 'pin\ttaskset\nserver_cpu\t%s\nclient_cpu\t0\n' "$last" >>"$2"
  else
    printf 'pin_reason\tneither a cpuset cgroup nor taskset is available\n' >>"$2"
  fi
}

# pin_prefix ROLE: the argv prefix (a word a line) that pins ROLE where pinning falls back to taskset.
pin_prefix() {
  [[ -z "$CPUSET_DIR" && -n "${PIN_CPUS[$1]:-}" ]] || return 0
  printf '%s\n' taskset -c "${PIN_CPUS[$1]}"
}

# cgroup_prefix ROLE: the argv prefix that puts what it runs into ROLE's cgroup and cpuset before it starts: for a
# command run in the foreground, such as the floor's client, which cgroup_join could only move after it had begun.
# Goes before netns_prefix, whose command sees a /sys of its namespace's own.
cgroup_prefix() {
  local -a files=()
  [[ -z "$CGROUP_DIR" ]] || files+=("$CGROUP_DIR/$1/cgroup.procs")
  [[ -z "$CPUSET_DIR" ]] || files+=("$CPUSET_DIR/$1/cgroup.procs")
  ((${#files[@]} > 0)) || return 0
  # shellcheck disable=SC2016 # the script's variables are its own
  printf '%s\n' bash -c 'while [[ "$1" != -- ]]; do { printf "%s\n" "$$" >"$1"; } 2>/dev/null; shift; done; shift; exec "$@"' \
    cgroup-join "${files[@]}" --
}

# cgroup_join ROLE PID: moves a process (and so its future threads and children) into ROLE's cgroup and cpuset.
cgroup_join() {
  local dir
  for dir in "$CGROUP_DIR" "$CPUSET_DIR"; do
    if [[ -n "$dir" ]]; then { printf '%s\n' "$2" >"$dir/$1/cgroup.procs"; } 2>/dev/null || true; fi
  done
}

cpuset_destroy() {
  [[ -n "$CPUSET_DIR" ]] || return 0
  rmdir "${ROLES[@]/#/$CPUSET_DIR/}" "$CPUSET_DIR" 2>/dev/null || true
  CPUSET_DIR=""
}

cgroup_destroy() {
  cpuset_destroy
  [[ -n "$CGROUP_DIR" ]] || return 0
  rmdir "${ROLES[@]/#/$CGROUP_DIR/}" "$CGROUP_DIR" 2>/dev/null || true
  CGROUP_DIR=""
}

# remove_leftovers TAG: a runner killed without its clean-up leaves its namespaces, its cgroups and the servers
# and clients in them. Once that runner is gone, they are stopped by the PIDs their cgroups list (only processes
# the run itself started are there), and the rest is removed.
remove_leftovers() {
  local tag="$1" dir role tries
  local -a dirs=() pids=()
  nft delete table ip "rpcmatrix_wire_$tag" 2>/dev/null || true # --server-host's counters (netns.sh)
  for dir in /sys/fs/cgroup /sys/fs/cgroup/unified /sys/fs/cgroup/cpuacct /sys/fs/cgroup/cpuset; do
    if [[ -d "$dir/rpcmatrix-$tag" ]]; then dirs+=("$dir/rpcmatrix-$tag"); fi
  done
  for dir in "${dirs[@]+"${dirs[@]}"}"; do
    for role in "${ROLES[@]}"; do
      # cgroup files report a size of 0: read them
      if [[ -r "$dir/$role/cgroup.procs" ]]; then mapfile -t -O "${#pids[@]}" pids <"$dir/$role/cgroup.procs"; fi
    done
  done
  if ((${#pids[@]} > 0)); then
    mapfile -t pids < <(printf '%s\n' "${pids[@]}" | sort -un)
    info "stopping ${#pids[@]} processes the interrupted run left: ${pids[*]}"
    kill -KILL "${pids[@]}" 2>/dev/null || true
  fi
  for dir in "${dirs[@]+"${dirs[@]}"}"; do
    for role in "${ROLES[@]}"; do
      tries=0
      while [[ -r "$dir/$role/cgroup.procs" && -n "$(<"$dir/$role/cgroup.procs")" ]] && ((tries++ < 50)); do sleep 0.1; done
    done
    rmdir "${ROLES[@]/#/$dir/}" "$dir" 2>/dev/null || warn "could not remove $dir"
  done
  for dir in "rpcmatrix-$tag" "rpcmatrix-$tag-client"; do
    if ip netns del "$dir" 2>/dev/null; then info "removed the namespace $dir the interrupted run left"; fi
  done
}
