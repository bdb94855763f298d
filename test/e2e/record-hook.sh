#!/bin/sh
# A recording hook for the end-to-end suite: appends {"event": "$1", "payload": <the JSON the
# real client sent on stdin>} to $ERRATA_E2E_PAYLOADS, one line, and answers nothing (exit 0,
# no stdout). A shell script, not Node: the recorder runs beside every hook of every recorded
# session, and a Node start (0.1-0.2 CPU-s on a busy machine) was a sixth of a turn's CPU.
# The payload's line breaks are dropped: in JSON a raw line break is only whitespace between
# tokens (inside a string it is written \n), so the line stays the same JSON value. The line is
# written to a file of its own first and appended with one write, so hooks of events that run
# at once never interleave their lines.
out="${ERRATA_E2E_PAYLOADS:-}"
if [ -z "$out" ]; then
  cat >/dev/null
  exit 0
fi
part="$out.$$.part"
{
  printf '{"event":"%s","payload":' "${1:-?}"
  tr -d '\r\n'
  printf '}\n'
} >"$part"
cat "$part" >>"$out"
rm -f "$part"
