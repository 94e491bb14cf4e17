#!/usr/bin/env python3
"""Peak resident memory of a command, as the kernel counts it (wait4's ru_maxrss).

    peak_rss.py [--stop-after SECONDS] COMMAND [ARGS...]

With --stop-after the command is sent SIGTERM after that many seconds (for the GUI, which does
not exit by itself: open a session, let its what-if run, then stop). Prints the peak in MB and
the seconds it ran; exits with the command's status (0 when it was stopped as asked).
"""
import os
import signal
import sys
import time


def main(argv):
    stop_after = None
    if len(argv) > 2 and argv[1] == "--stop-after":
        stop_after = float(argv[2])
        argv = argv[2:]
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[1], argv[1:])
        finally:
            os._exit(127)
    stopped = False
    while True:
        waited, status, usage = os.wait4(pid, os.WNOHANG)
        if waited == pid:
            break
        if stop_after is not None and not stopped and time.monotonic() - start >= stop_after:
            os.kill(pid, signal.SIGTERM)
            stopped = True
        time.sleep(0.05)
    seconds = time.monotonic() - start
    print(f"peak_rss_MB={usage.ru_maxrss / 1024:.1f} seconds={seconds:.1f}"
          + (" (stopped)" if stopped else ""))
    if stopped:
        return 0
    return os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8


if __name__ == "__main__":
    sys.exit(main(sys.argv))
