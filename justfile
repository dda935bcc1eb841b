# rpcmatrix: `just --list` shows the recipes. On a fresh machine run `runner/setup.sh` once first
# (it installs just itself); every recipe below also re-runs set-up, which skips what is there.

set shell := ["bash", "-euo", "pipefail", "-c"]

# Run the benchmark matrix (just bench [PROFILE] [OPTIONS]; profiles in idl/workloads.json: default, full, juric, ...) into results/<run-id>/ and results/latest
[group('bench')]
bench *ARGS: setup
    set -- {{ARGS}}; profile=default; if (($#)) && [[ "$1" != -* ]]; then profile=$1 && shift; fi; \
      runner/rpcmatrix run --profile "$profile" "$@"

# Latency under load: each server of the default protocols driven by its own language's clients, closed and open loop,
# the knee, overload and recovery (idl/workloads.json's load profile; report/load.md)
[group('bench')]
load *ARGS: setup
    runner/rpcmatrix run --profile load {{ARGS}}

# On the studies' own stacks (Java client and server); lan100 was Juric's and Rozman's 100 Mbit/s switched LAN, lan10
# Allman's 10 Mbit/s Ethernet; NETWORKS.md in each study's last run (python -m analysis studies RUN --beside RUN2 ...).
# The studies on their networks: Juric's and Rozman's comparisons on lan100, Allman's on lan10 and wan, beside loopback
[group('bench')]
study-networks: setup
    #!/usr/bin/env bash
    set -euo pipefail
    stamp=$(date -u +%Y%m%dT%H%M%SZ)
    study() { # PROFILE PROTOCOLS STUDIES NETWORK...: a run per network, then the study's table across them
      local profile="$1" protocols="$2" cells="" studies="$3" network protocol
      local -a runs=() beside=()
      for protocol in ${protocols//,/ }; do cells+="${cells:+,}$protocol/java→java"; done # the study's own stack
      shift 3
      for network in "$@"; do
        runs+=("results/$stamp-$profile-$network")
        runner/rpcmatrix run --profile "$profile" --protocol "$protocols" --cell "$cells" --network "$network" \
          --out "${runs[-1]}"
      done
      for network in "${runs[@]:1}"; do beside+=(--beside "$network"); done
      PYTHONPATH=runner .venv/bin/python -m analysis studies "${runs[0]}" "${beside[@]}" --study "$studies" >/dev/null
      echo "study-networks: ${runs[-1]}/NETWORKS.md"
    }
    study juric rawtcp,rmi,rmi-tls,soap11,wss-sign,wss-sign-encrypt juric,rozman loopback lan100
    study allman rawtcp,xmlrpc,xmlrpc-gzip allman loopback lan10 wan

# Go on with an interrupted run from its first unfinished cell, with the options it began with (same commit only)
[group('bench')]
resume RUN *ARGS: setup
    runner/rpcmatrix run --resume '{{RUN}}' {{ARGS}}

# Interop certification: every cell's vectors and values drawn for the run; --implementation NAME [--manifest PATH] or --server-at PROTOCOL=HOST:PORT: its certificate, whose verdict is the exit status
[group('bench')]
certify *ARGS: setup
    runner/rpcmatrix run --profile certify {{ARGS}}

# The Kubernetes manifests that run a planned run on a cluster, e.g. just k8s --protocol grpc --out k8s/grpc --server-node node-a (runner/README.md#kubernetes)
[group('bench')]
k8s *ARGS:
    runner/rpcmatrix k8s {{ARGS}}

# List the cells a run would have, without running them
[group('bench')]
cells *ARGS:
    runner/rpcmatrix cells {{ARGS}}

# Print the exact commands of one cell, e.g. just commands 'xmlrpc/java→python'
[group('bench')]
commands CELL:
    runner/rpcmatrix commands '{{CELL}}'

# How far runs of the same matrix agree (p50s within ±5% of their median), e.g. just agree results/A results/B results/C
[group('bench')]
agree +RUNS:
    runner/rpcmatrix agree {{RUNS}}

# Run B against run A as benchstat does (change with 95% interval, Mann–Whitney U, Holm; on the passes when there are enough): COMPARE.md into B, e.g. just compare results/A results/B --threshold 0.1
[group('bench')]
compare A B *ARGS:
    PYTHONPATH=runner .venv/bin/python -m analysis compare '{{A}}' '{{B}}' {{ARGS}}

# How far compare can be trusted: runs A and A2 of one commit, B with a slowdown injected (runner/README.md); CALIBRATION.md into B
[group('bench')]
calibrate A A2 B *ARGS:
    PYTHONPATH=runner .venv/bin/python -m analysis calibrate '{{A}}' '{{A2}}' '{{B}}' {{ARGS}}

# The runs' database (results/history.sqlite, or $RPCMATRIX_HISTORY): just history load RUN, just history show 'grpc/java→java' --workload ping
[group('bench')]
history *ARGS:
    PYTHONPATH=runner .venv/bin/python -m analysis history {{ARGS}}

# Publication tables (Markdown, CSV, LaTeX booktabs) with captions, e.g. just tables results/latest --kind protocol grpc --format latex
[group('bench')]
tables RUN *ARGS:
    PYTHONPATH=runner .venv/bin/python -m analysis tables '{{RUN}}' {{ARGS}}

# Copy a run of a committed, clean tree into results/published/ (refuses anything else)
[group('bench')]
publish RUN="results/latest":
    runner/rpcmatrix publish '{{RUN}}'

# Every test: runner and contract, each language's unit tests, then the end-to-end smoke matrix (what CI runs)
[group('test')]
test: setup lint test-runner test-languages test-smoke test-metadata test-certify test-battery

# The fast loop: lint, the runner's unit tests and each language's unit tests (no bats, smoke matrix or battery)
[group('test')]
test-fast: setup lint test-runner-unit test-languages

# Python lint: ruff (ruff.toml) over runner/ and python/
[group('test')]
lint:
    .venv/bin/ruff check

# bats runs four tests at once: they wait on processes and timeouts as much as they compute (two at a time kept 1.5 of
# the 2 CPUs busy: 311 s; three: 276 s; with this stop's tests three took 189 s and four 176 s, a run beside them).
# The runner's own tests: its unit tests, then bats on fake implementations (real processes, namespaces, signals)
[group('test')]
test-runner: test-runner-unit
    bats --jobs 4 runner/tests

# shellcheck takes every shell file git has or would add (*.sh, *.bats, runner/rpcmatrix, .ci/run); the libraries in
# runner/lib/ through runner/rpcmatrix, which sources them: alone, each would show the others' variables as unused
# (--check-sourced).
# The runner's unit tests: shellcheck, pytest on the conductor, the analysis, the IDLs and the manifests
[group('test')]
test-runner-unit:
    git ls-files --cached --others --exclude-standard -z '*.sh' '*.bats' ':!runner/lib/' | \
      xargs -0 shellcheck -x runner/rpcmatrix .ci/run
    shellcheck -x --check-sourced runner/rpcmatrix
    .venv/bin/python -m pytest -q runner/tests

# The languages' own tests at once (runner/tests/at_once.sh: each one's output whole as it ends; one after another
# they left half of the 2 CPUs idle)
[group('test')]
test-languages:
    runner/tests/at_once.sh 'just test-java' 'just test-python' 'just test-dotnet' 'just test-node'

# Java unit tests (JUnit 5 on Maven Surefire)
[group('test')]
test-java:
    bash java/test.sh

# Python unit and process tests (pytest)
[group('test')]
test-python:
    bash python/test.sh

# .NET unit tests on Mono
[group('test')]
test-dotnet:
    bash dotnet/test.sh

# Node.js: ESLint, then the unit and process tests on Node's built-in test runner (node --test)
[group('test')]
test-node:
    bash node/test.sh

# Real processes, each pair of languages of every protocol and every implementation on each side, every vector but the
# large ones (just certify sends them, crossing every pair) and a few timed calls, in two runs at once; every vector
# must pass
[group('test')]
test-smoke:
    bash runner/tests/smoke.sh

# Published metadata stands on its own: each SOAP server's ?wsdl fetched from another network namespace, every import
# followed over the network (no file: URL, no path of the server's machine)
[group('test')]
test-metadata:
    bash runner/tests/metadata.sh

# Certification end to end (runner/tests/certify.sh): the outside example earns its certificate, impostors do not, every protocol's server is certified at its address, bad addresses are verdicts
[group('test')]
test-certify:
    bash runner/tests/certify.sh

# Hostile input against every server of every protocol it takes: results/<time>-battery/BATTERY.md, the survival
# matrix beside results/latest's negative tests; a server that regresses from runner/battery-expected.json fails it
[group('bench')]
battery *ARGS: setup
    runner/rpcmatrix battery $([[ -f results/latest/env.json ]] && echo --vectors-run results/latest) {{ARGS}}

# A quick subset of the battery (the Python and Java servers of five protocols, the attacks that take no waiting)
[group('test')]
test-battery:
    out=$(mktemp -d /tmp/rpcmatrix-battery.XXXXXX) && runner/rpcmatrix battery --out "$out" \
      --protocol xmlrpc,jsonrpc,rawtcp,hessian2,httpinvoker --server python,java \
      --attacks random-bytes,declared-4gb,invalid-document,xxe-file,external-dtd,entity-expansion,jsonrpc-spec,truncated-frame,huge-count,foreign-class,java-serialization

# Install what is missing (system packages, just, the runner's venv, the floor program, TLS material)
setup:
    runner/setup.sh
