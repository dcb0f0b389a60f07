#!/bin/sh
# The benchmark programs' checks on any machine (meson test, suite bench).
#   bench-test.sh bad-option PROGRAM ARG...
#       PROGRAM refuses ARG... with exit status 2 and a message naming
#       itself (not a crash, not a SKIP: exit 77 fails here).
#   bench-test.sh csv CSV PROGRAM ARG...
#       PROGRAM ARG... --csv CSV (CSV removed first) exits 0 and CSV holds
#       the columns of tools/perf-plots.py and one row per measured line,
#       each of PROGRAM's name with as many fields as the header.
set -u
mode=$1
shift
case $mode in
  bad-option)
    prog=$1
    shift
    err=$("$prog" "$@" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 2 ]; then
      echo "FAIL: $prog $*: exit status $rc, expected 2 ($err)"
      exit 1
    fi
    case $err in
      "$(basename "$prog"): "*) echo "ok: $err" ;;
      *) echo "FAIL: $prog $*: message '$err'"; exit 1 ;;
    esac
    ;;
  csv)
    csv=$1
    prog=$2
    shift 2
    rm -f "$csv"
    "$prog" "$@" --csv "$csv" >/dev/null || {
      echo "FAIL: $prog $* --csv $csv: exit status $?"; exit 1; }
    header=bench,variant,width,height,format,parallel,unit,median,q1,q3,iqr,bytes,gbps,fps,ceiling,ceiling_value,share
    [ "$(head -n 1 "$csv")" = "$header" ] || {
      echo "FAIL: first line of $csv: $(head -n 1 "$csv")"; exit 1; }
    rows=$(tail -n +2 "$csv" | wc -l)
    [ "$rows" -gt 0 ] || { echo "FAIL: no rows in $csv"; exit 1; }
    name=$(basename "$prog")
    # Quoted fields hold no comma in these rows except "link, 8 buffers
    # cycled"; count fields outside quotes.
    bad=$(tail -n +2 "$csv" | awk -F, -v name="$name" '
      { line = $0; gsub(/"[^"]*"/, "q", line); n = split(line, f, ",") }
      n != 17 || f[1] != name { print NR + 1 ": " $0 }')
    [ -z "$bad" ] || { echo "FAIL: rows of $csv:"; echo "$bad"; exit 1; }
    echo "ok: $rows rows"
    cat "$csv"
    ;;
  *)
    echo "usage: bench-test.sh bad-option PROGRAM ARG... | csv CSV PROGRAM ARG..."
    exit 2
    ;;
esac
