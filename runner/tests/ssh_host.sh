#!/usr/bin/env bash
# The other host of --server-host's tests: Debian's sshd in a network namespace of its own, joined to this one by a
# veth pair with addresses from 198.18.0.0/15, authorized_keys holding only the suite's key (secrets/ssh, made at
# set-up), bounded by a timeout, stopped by its PID. It shares this machine's filesystem, so its checkout is this
# one. Usage (sourced): ssh_host_start DIR -> SSH_HOST_IP, SSH_HOST_NS, SSH_HOST_PID; ssh_host_stop.
SSH_HOST_NS="" SSH_HOST_PID="" SSH_HOST_IP=""

ssh_host_start() {
  local dir="$1" key n a b ifc
  key="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/secrets/ssh/id_ed25519"
  [[ -f "$key" ]] || { echo "no $key: run runner/setup.sh" >&2 && return 1; }
  # a /30 per test process, well away from the run's own (netns.sh picks from the low half)
  n=$(($$ % 16384 + 16384)) a=$((18 + n * 4 / 65536)) b=$((n * 4 % 65536))
  SSH_HOST_IP="198.$a.$((b / 256)).$((b % 256 + 2))"
  SSH_HOST_NS="rpcmatrix-sshd-$$" ifc="rpcmsh$$"
  mkdir -p "$dir" && chmod 700 "$dir"
  ip netns add "$SSH_HOST_NS"
  ip link add "$ifc" type veth peer name "${ifc}x" netns "$SSH_HOST_NS"
  ip addr add "198.$a.$((b / 256)).$((b % 256 + 1))/30" dev "$ifc" && ip link set "$ifc" up
  ip -n "$SSH_HOST_NS" addr add "$SSH_HOST_IP/30" dev "${ifc}x"
  ip -n "$SSH_HOST_NS" link set "${ifc}x" up && ip -n "$SSH_HOST_NS" link set lo up
  ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
  cp "$key.pub" "$dir/authorized_keys"
  cat >"$dir/sshd_config" <<EOF
ListenAddress $SSH_HOST_IP
HostKey $dir/host_key
AuthorizedKeysFile $dir/authorized_keys
PidFile none
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
MaxSessions 64
MaxStartups 64
EOF
  mkdir -p /run/sshd
  # the suite's known hosts: this host key, at this address, now (a test host's key is new each time)
  ssh-keygen -R "$SSH_HOST_IP" -f "$(dirname "$key")/known_hosts" >/dev/null 2>&1 || true
  timeout 300 ip netns exec "$SSH_HOST_NS" /usr/sbin/sshd -D -e -f "$dir/sshd_config" 2>"$dir/sshd.log" &
  SSH_HOST_PID=$!
  local tries=0
  until ssh -o BatchMode=yes -o ConnectTimeout=2 -o StrictHostKeyChecking=accept-new -i "$key" \
    -o UserKnownHostsFile="$(dirname "$key")/known_hosts" "root@$SSH_HOST_IP" true 2>/dev/null; do
    ((tries++ < 50)) || { cat "$dir/sshd.log" >&2 && return 1; }
    sleep 0.1
  done
}

# ssh_host_sessions: the PIDs of sshd's session processes (its children), one a line.
ssh_host_sessions() {
  local main
  main=$(pgrep -P "$SSH_HOST_PID" -x sshd || pgrep -P "$(pgrep -P "$SSH_HOST_PID")" -x sshd) || return 0
  pgrep -P "$main" || true
}

ssh_host_stop() {
  local -a left
  if [[ -n "$SSH_HOST_PID" ]]; then kill -TERM "$SSH_HOST_PID" 2>/dev/null || true; fi
  wait "$SSH_HOST_PID" 2>/dev/null || true
  # what sessions started there: the namespace's own processes (ours only), stopped before it goes
  mapfile -t left < <(ip netns pids "$SSH_HOST_NS" 2>/dev/null)
  if ((${#left[@]} > 0)); then kill -KILL "${left[@]}" 2>/dev/null || true; fi
  ip netns del "$SSH_HOST_NS" 2>/dev/null || true
  SSH_HOST_PID="" SSH_HOST_NS=""
  ((${#left[@]} == 0))
}
