"""A fork server for protocol.py: imports torch and Triton (with the interpreter on) once, then runs each protocol
request in a forked child, so that a test pays the ~2 s of those imports once per test process instead of once per
problem, while every problem still runs in a process of its own (nothing it changes reaches the next one, a crash
is its own, and a hung kernel is killed at its timeout).

Requests and replies are JSON lines on stdin / stdout:
    {"argv": [REF, GEN, "--set", ...], "timeout": SECONDS, "env": {...}}
    {"returncode": N, "output": "what the child printed", "timed_out": false}
run_protocol() (protocol.py) starts one server per test process and falls back to a plain subprocess per request
when TRITONIZE_PROTOCOL_FORK=0.
"""

import json
import os
import sys
import tempfile
import time
import traceback


def run_child(request, out_fd):
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    os.environ.clear()
    os.environ.update(request["env"])
    code = 1
    try:
        import protocol
        code = protocol.main(request["argv"])
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        traceback.print_exc()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def wait(pid, timeout):
    """The child's exit status, or None after killing it at the timeout."""
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return None
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def serve():
    os.environ["TRITON_INTERPRET"] = "1"
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch  # noqa: F401  (the imports every child would repeat)
    import triton  # noqa: F401
    import triton.language  # noqa: F401
    import protocol  # noqa: F401
    for line in sys.stdin:
        request = json.loads(line)
        with tempfile.TemporaryFile() as out:
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                run_child(request, out.fileno())
            code = wait(pid, request["timeout"])
            out.seek(0)
            text = out.read().decode(errors="replace")
        reply = {"returncode": code, "output": text, "timed_out": code is None}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
