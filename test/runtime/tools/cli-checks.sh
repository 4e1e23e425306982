# cli-checks.sh - sourced by the tools' command-line tests (approx-tune-cli.sh,
# approx-perforation-tune-cli.sh, approx-inspect-cli.sh); needs $W, the case's
# work directory.
#
#   fails RC REGEX CMD...   CMD exits RC, writes nothing to stdout, exactly one
#                           stderr line matching the extended REGEX, and no
#                           file appears in $W (nothing half-written).
fails() {
  local rc=$1 re=$2
  shift 2
  local before
  before=$(ls -A "$W")
  "$@" >"$W/.out" 2>"$W/.err"
  local got=$?
  if [ "$got" -ne "$rc" ]; then
    echo "FAIL: exit status $got, expected $rc: $*"
    cat "$W/.err"
    exit 1
  fi
  if [ -s "$W/.out" ]; then
    echo "FAIL: unexpected stdout:"
    cat "$W/.out"
    exit 1
  fi
  local lines
  lines=$(wc -l <"$W/.err")
  if [ "$lines" -ne 1 ]; then
    echo "FAIL: stderr has $lines lines, expected one:"
    cat "$W/.err"
    exit 1
  fi
  if ! grep -Eq -- "$re" "$W/.err"; then
    echo "FAIL: stderr does not match /$re/:"
    cat "$W/.err"
    exit 1
  fi
  local after
  after=$(ls -A "$W" | grep -v '^\.out$\|^\.err$')
  if [ "$after" != "$(echo "$before" | grep -v '^\.out$\|^\.err$')" ]; then
    echo "FAIL: files appeared in $W:"
    ls -A "$W"
    exit 1
  fi
  echo "ok: $(cat "$W/.err")"
}
