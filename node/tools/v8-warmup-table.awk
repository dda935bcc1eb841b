#!/usr/bin/awk -f
# Turns node/tools/v8-warmup.js's output into a table: its '#' lines, each with the client's functions V8
# finished optimising since the line before (its --trace-opt lines in between).
/^\[completed optimizing/ { client++ }
/^#/ { line = substr($0, 2); if (line ~ /^t_s/) print line "\tclient_optimised"; else { print line "\t" client + 0; client = 0 } }
