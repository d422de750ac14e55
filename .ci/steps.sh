# Sourced by .ci/fast and .ci/run: `step NAME COMMAND...` runs a step whatever the earlier ones did,
# records its exit status and time, and `summary` prints them all and returns 1 if any failed.
# So a flaky step (a browser click timing out on a loaded machine) cannot hide the others' results.
STEP_NAMES=()
STEP_RESULTS=()

step() {
    local name=$1 start rc
    shift
    echo
    echo "=== $name: $*"
    start=$SECONDS
    "$@"
    rc=$?
    STEP_NAMES+=("$name")
    STEP_RESULTS+=("$(printf '%-4s %4ds  exit %d' "$([ "$rc" = 0 ] && echo ok || echo FAIL)" $((SECONDS - start)) "$rc")")
    echo "=== $name: exit $rc after $((SECONDS - start)) s"
    return 0
}

summary() {
    local i failed=0
    echo
    echo "=== summary ($SECONDS s in all; load: $(uptime | sed 's/.*load average: //'))"
    for i in "${!STEP_NAMES[@]}"; do
        printf '%-20s %s\n' "${STEP_NAMES[$i]}" "${STEP_RESULTS[$i]}"
        case ${STEP_RESULTS[$i]} in FAIL*) failed=1 ;; esac
    done
    [ "$failed" = 0 ] && echo "all steps passed" || echo "some steps FAILED (above)"
    return "$failed"
}
