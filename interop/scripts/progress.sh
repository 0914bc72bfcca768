# Sourced by the scripts of interop/scripts/: runs a long, quiet command and
# says every 15 seconds that it is still at it, so that no stretch of a run
# is silent for longer.
#
# with_progress LABEL COUNT_DIR LOG COMMAND...
#   LABEL      how the lines begin, e.g. "kafka-release: Maven"
#   COUNT_DIR  a folder whose *.jar files are counted on each line ("" for none)
#   LOG        a file the command's output is appended to ("": the output
#              goes where this script's does)
# The lines go to stderr. Returns the command's status.
with_progress() {
    local label="$1" count_dir="$2" log="$3" pid start status
    shift 3
    start=$SECONDS
    if [ -n "$log" ]; then
        "$@" >>"$log" 2>&1 &
    else
        "$@" &
    fi
    pid=$!
    while ! wait_a_while "$pid"; do
        if [ -n "$count_dir" ]; then
            echo "$label: $((SECONDS - start)) s, $(find "$count_dir" -name '*.jar' 2>/dev/null | wc -l) jars so far" >&2
        else
            echo "$label: $((SECONDS - start)) s" >&2
        fi
    done
    wait "$pid"
    status=$?
    return "$status"
}

# True when process $1 has ended, within 15 seconds.
wait_a_while() {
    local i
    for i in $(seq 30); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.5
    done
    return 1
}
