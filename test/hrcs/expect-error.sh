#!/bin/sh
# expect-error.sh REGEX CMD ARGS...: passes when CMD exits non-zero and
# prints exactly one line on stderr, matching REGEX, and nothing on stdout.
regex=$1; shift
out=$("$@" 2>/tmp/expect-error.$$); rc=$?
err=$(cat /tmp/expect-error.$$); rm -f /tmp/expect-error.$$
lines=$(printf '%s\n' "$err" | wc -l)
if [ "$rc" -eq 0 ]; then echo "FAIL: exit status 0"; exit 1; fi
if [ "$rc" -gt 128 ]; then echo "FAIL: killed by a signal ($rc)"; exit 1; fi
if [ -n "$out" ]; then echo "FAIL: wrote to stdout: $out"; exit 1; fi
if [ "$lines" -ne 1 ]; then echo "FAIL: $lines lines on stderr: $err"; exit 1; fi
if ! printf '%s\n' "$err" | grep -Eq -- "$regex"; then
  echo "FAIL: '$err' does not match '$regex'"; exit 1; fi
echo "ok: $err"
