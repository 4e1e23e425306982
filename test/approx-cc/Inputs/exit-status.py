"""Runs a command; prints its stdout, then its stderr, then "exit N"."""
import subprocess
import sys

r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
sys.stdout.write(r.stdout.decode("utf-8", "replace"))
sys.stdout.write(r.stderr.decode("utf-8", "replace"))
print("exit %d" % r.returncode)
