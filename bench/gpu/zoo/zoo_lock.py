#!/usr/bin/env python3
"""zoo_lock.py LOCKFILE CMD ARGS...: run CMD holding an exclusive flock on LOCKFILE for
its whole life (the descriptor is inherited across exec, so CMD and its children hold
it). zoo_run.py wraps `cuprobe record` in it: cuprobe starts its device-wide counter
sampling before it starts the program, so two records must never overlap."""
import fcntl
import os
import sys

fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
os.set_inheritable(fd, True)
os.execvp(sys.argv[2], sys.argv[2:])
