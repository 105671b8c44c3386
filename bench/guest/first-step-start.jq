# jq -f bench/guest/first-step-start.jq --argjson wall MICROSECONDS REPORT.json
# Seconds from storprov apply's process start to its first step's start (the
# inspection before any write), from apply's --report: the run clock starts
# inside apply, so the time before it is the caller's wall time ($wall, from
# just before exec to exit) minus the report's elapsed_s. The first step's start
# on the run clock is the first "step-start" event, or where apply emits none
# (before issue 21's event) the earliest "step" event (a step finishing) minus
# that step's elapsed_s.
.elapsed_s as $report_elapsed
| ([.objects[].steps[] | {key: (.step | tostring), value: .elapsed_s}] | from_entries) as $el
| ([.events[] | select(.kind == "step-start") | .t] | min)
  // ([.events[] | select(.kind == "step" and .step != null) | .t - ($el[.step | tostring] // 0)] | min)
| if . == null then null else . + ($wall / 1e6 - $report_elapsed) end
