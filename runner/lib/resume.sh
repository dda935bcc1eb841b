#!/usr/bin/env bash
# Runs that outlive an interruption: every run keeps its resolved options (options.json) and a journal of
# the steps it finished (progress.jsonl: the floor, the handlers, each cell of each pass); `run --resume
# DIR` takes the options back, drops what was half done, removes what a killed runner left in the kernel
# (its namespace and cgroups), and goes on with the first unfinished cell of the same seeded order.

RESUME=""
RESUME_ARGS=()
declare -A FINISHED=()

# resume_arguments ARG...: RESUME_ARGS = the arguments to parse: as given, or for --resume DIR the run's
# saved options with --out DIR (and --skip-build when given again).
resume_arguments() {
  local arg dir="" skip_build=0
  local -a saved
  RESUME_ARGS=("$@")
  for arg in "$@"; do [[ "$arg" != --resume ]] || dir="?"; done
  [[ -n "$dir" ]] || return 0
  while (($# > 0)); do
    case "$1" in
      --resume) dir="${2:?--resume needs a run folder}" && shift ;;
      --skip-build) skip_build=1 ;;
      *) die "a resumed run keeps the options it began with ($dir/options.json); only --skip-build may be added, not '$1'" ;;
    esac
    shift
  done
  [[ -d "$dir" ]] || die "no run folder $dir to resume"
  [[ -f "$dir/options.json" ]] || die "$dir has no options.json: it is not a run folder, or it stopped before its first cell"
  RESUME=$(cd "$dir" && pwd)
  jq -e 'type == "array" and all(type == "string")' "$RESUME/options.json" >/dev/null 2>&1 ||
    die "$RESUME/options.json is not a JSON list of options"
  mapfile -d '' -t saved < <(jq -j '.[] | . + "\u0000"' "$RESUME/options.json")
  RESUME_ARGS=("${saved[@]}" --out "$RESUME")
  if ((skip_build)); then RESUME_ARGS+=(--skip-build); fi
}

# save_options ARG...: the run's options with its seed and passes made explicit, for --resume.
save_options() {
  jq -n '$ARGS.positional' --args -- "$@" --seed "$SEED" --passes "$PASSES" >"$OUT/options.json"
}

# Refuses to resume a run whose runner is still at work, or whose code is not the tree's; then removes
# what a killed runner of that run left behind. Called before anything is built.
resume_check() {
  local pid state
  if [[ -f "$RESUME/runner.pid" ]]; then
    pid=$(<"$RESUME/runner.pid")
    if [[ "$pid" =~ ^[0-9]+$ ]] && [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q rpcmatrix; then
      die "run $RESUME is still being run by process $pid"
    fi
  fi
  state=$("$PYTHON" -m analysis resume --run "$RESUME" --root "$ROOT" --check) || exit 2
  info "run $RESUME: $state"
  if [[ -f "$RESUME/runner.tag" ]]; then remove_leftovers "$(<"$RESUME/runner.tag")"; fi
}

# remove_leftovers TAG: a runner killed without its clean-up leaves its namespace, its cgroups and the
# servers and clients in them. Once that runner is gone (resume_check), they are stopped by the PIDs their
# cgroups list (only processes the run itself started are there), and the rest is removed.
remove_leftovers() {
  local tag="$1" dir sub pid tries
  local -a dirs=() pids=()
  [[ "$tag" =~ ^[0-9]+$ ]] || return 0
  for dir in /sys/fs/cgroup /sys/fs/cgroup/unified /sys/fs/cgroup/cpuacct /sys/fs/cgroup/cpuset; do
    if [[ -d "$dir/rpcmatrix-$tag" ]]; then dirs+=("$dir/rpcmatrix-$tag"); fi
  done
  for dir in "${dirs[@]}"; do
    for sub in server client parked warming; do
      # cgroup files report a size of 0: read them
      if [[ -r "$dir/$sub/cgroup.procs" ]]; then mapfile -t -O "${#pids[@]}" pids <"$dir/$sub/cgroup.procs"; fi
    done
  done
  if ((${#pids[@]} > 0)); then
    mapfile -t pids < <(printf '%s\n' "${pids[@]}" | sort -un)
    info "stopping ${#pids[@]} processes the interrupted run left: ${pids[*]}"
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  fi
  for dir in "${dirs[@]}"; do
    for sub in server client parked warming; do
      tries=0
      while [[ -r "$dir/$sub/cgroup.procs" && -n "$(<"$dir/$sub/cgroup.procs")" ]] && ((tries < 50)); do
        sleep 0.1
        tries=$((tries + 1))
      done
    done
    rmdir "$dir/server" "$dir/client" "$dir/parked" "$dir/warming" "$dir" 2>/dev/null || warn "could not remove $dir"
  done
  local ns
  for ns in "rpcmatrix-$tag" "rpcmatrix-$tag-client"; do
    if ip netns list 2>/dev/null | grep -q "^$ns\b\( \|$\)"; then
      ip netns del "$ns" 2>/dev/null || true
      info "removed the namespace $ns the interrupted run left"
    fi
  done
}

# After the new runner has set up its own namespace and cgroups: trims the run and notes the resumption.
resume_run() {
  "$PYTHON" -m analysis resume --run "$OUT" --root "$ROOT" >&2 || die "could not resume $OUT (see above)"
  local key
  while IFS= read -r key; do
    [[ -n "$key" ]] && FINISHED[$key]=1
  done < <(jq -r 'if .cell then "\(.pass)|\(.cell)" else "\(.pass)|stage:\(.stage)" end' "$OUT/progress.jsonl" 2>/dev/null)
  PROCESS_SEQ=$(find "$OUT/processes" -mindepth 2 -maxdepth 2 -type d -name '[0-9]*-*' -printf '%f\n' 2>/dev/null |
    cut -d- -f1 | sort -n | tail -n 1 | sed 's/^0*//')
  PROCESS_SEQ="${PROCESS_SEQ:-0}"
}

# is_finished PASS STEP: the journal lists STEP (a cell's name or stage:NAME) as finished in PASS.
is_finished() {
  [[ -n "${FINISHED[$1|$2]:-}" ]]
}

# journal PASS STEP: STEP is finished; written only after all its records are.
journal() {
  local pass="$1" step="$2" quoted
  if [[ "$step" == stage:* ]]; then
    json_quote quoted "${step#stage:}"
    printf '{"pass":%s,"stage":%s}\n' "$pass" "$quoted" >>"$OUT/progress.jsonl"
  else
    json_quote quoted "$step"
    printf '{"pass":%s,"cell":%s}\n' "$pass" "$quoted" >>"$OUT/progress.jsonl"
  fi
}
