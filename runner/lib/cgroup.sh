#!/usr/bin/env bash
# CPU time of servers and clients at microsecond resolution from control groups: each side of a cell
# goes into a cgroup of its own, whose counter also keeps the time of threads and children that have
# exited. Without a usable cgroup hierarchy, the runner falls back to /proc ticks (10 ms resolution).

CGROUP_DIR=""
CGROUP_KIND=""

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
  mkdir -p "$CGROUP_DIR/server" "$CGROUP_DIR/client" 2>/dev/null || {
    cgroup_destroy
    return 1
  }
}

# cgroup_join ROLE PID: moves a freshly started process (and so its future threads and children) in.
cgroup_join() {
  [[ -n "$CGROUP_DIR" ]] || return 0
  { printf '%s\n' "$2" >"$CGROUP_DIR/$1/cgroup.procs"; } 2>/dev/null || true
}

# CPU time used so far by ROLE's cgroup, in microseconds; "null" when there is none.
cgroup_cpu_us() {
  local key value
  case "$CGROUP_KIND" in
    v2)
      while read -r key value; do
        [[ "$key" == usage_usec ]] && printf '%s' "$value" && return 0
      done <"$CGROUP_DIR/$1/cpu.stat"
      ;;
    v1)
      read -r value <"$CGROUP_DIR/$1/cpuacct.usage"
      printf '%s' $((value / 1000))
      return 0
      ;;
  esac
  printf 'null'
}

cgroup_destroy() {
  [[ -n "$CGROUP_DIR" ]] || return 0
  rmdir "$CGROUP_DIR/server" "$CGROUP_DIR/client" "$CGROUP_DIR" 2>/dev/null || true
  CGROUP_DIR=""
}
