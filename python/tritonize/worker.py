"""One job in its own process: static check, load, correctness, timing, floor.

python3 -m tritonize.worker --record FILE [options]

The parent (runner.py) writes a record (schema.py) to FILE; the worker fills it in, saving it after every stage,
and exits. With --gpu-lock (several workers sharing one GPU), the stages that measure (correctness and timing)
hold an exclusive lock on that file, so only one worker at a time runs them, and the stages that use the GPU
before them (loading the models and inputs onto it, ModelNew's first call that compiles its kernels,
torch.compile's first call with Inductor's compile processes) hold it shared: several workers prepare at once,
never while one measures. A worker waiting to measure lets no new one start preparing (a turnstile), so
measurements are not starved. Imports and the static check run meanwhile. With --reserved-cpus the worker and
its child processes run on the other cores, and its timing thread on --measure-cpus while it holds the lock, so
that the others' compiles cannot deschedule it mid-measurement (runner.measure_cpus). If the worker hangs or dies, the
parent still finds the stages that finished and `stage` says where it stopped. Errors are caught here only to be classified and recorded: this is the harness, not generated code.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import traceback


def save(record: dict, path: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(record, f)
    os.replace(tmp, path)


def log(message: str) -> None:
    print(f"[worker {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python3 -m tritonize.worker")
    parser.add_argument("--record", required=True, help="the record to fill in (JSON)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--correct-trials", type=int, default=5)
    parser.add_argument("--trials", type=int, default=100, help="timed trials per contender")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=1, help="time the whole interleaved block this many times")
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--no-compile", action="store_true", help="do not time torch.compile")
    parser.add_argument("--calibration", help="JSON from python3 -m tritonize.calibrate")
    parser.add_argument("--gpu-lock", help="lock file held while measuring (several workers on one GPU)")
    parser.add_argument("--measure-cpus", type=_cores, default=[],
                        help="cores the timing thread runs on while it holds the lock (comma-separated)")
    parser.add_argument("--reserved-cpus", type=_cores, default=[],
                        help="cores kept for measuring: the rest of the work (and its child processes) avoids them")
    return parser.parse_args(argv)


def _cores(text: str) -> list[int]:
    return [int(c) for c in text.split(",") if c.strip()]


def run_on_cores(cores: list[int] | set[int]) -> None:
    """Run the calling thread (and the threads and processes it starts from now on) on `cores` only; where the
    system refuses, say so and go on: the measurement is still valid, only noisier."""
    try:
        os.sched_setaffinity(0, set(cores))
    except (AttributeError, OSError, ValueError) as e:
        log(f"cannot run on cores {sorted(cores)}: {e}")


def leave_cores(reserved: list[int]) -> None:
    """Run this process (from now on) on every core it may use but `reserved`, if any is left."""
    if reserved and hasattr(os, "sched_getaffinity"):
        rest = os.sched_getaffinity(0) - set(reserved)
        if rest:
            run_on_cores(rest)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    leave_cores(args.reserved_cpus)  # (before torch starts its threads: they inherit this)
    with open(args.record, encoding="utf-8") as f:
        record = json.load(f)
    start = time.perf_counter()
    try:
        run(record, args)
    except BaseException as e:  # the harness itself failed: say so in the record rather than vanish
        from .schema import set_error

        if record.get("error") is None:
            set_error(record, "harness_error", traceback.format_exc())
        log(f"harness error: {e!r}")
    from .schema import finalize

    if record.get("error") is None:
        record["stage"] = "done"
    record["seconds"] = round(record.get("seconds", 0.0) + time.perf_counter() - start, 3)
    finalize(record)
    save(record, args.record)
    log(f"done: {record['status']} {record['reasons']}")
    sys.stdout.flush()
    sys.stderr.flush()
    # A kernel fault leaves the CUDA context broken, and tearing it down can hang: leave at once.
    os._exit(0)


def run(record: dict, args: argparse.Namespace) -> None:
    from . import static_check
    from .schema import set_error

    path = args.record
    record["stage"] = "static"
    # (which file was measured, byte for byte: scripts/stale_records.py reruns only problems whose file changed)
    with open(record["gen"], "rb") as f:
        record["gen_sha256"] = hashlib.sha256(f.read()).hexdigest()
    record["static"] = static_check.check_file(record["gen"]).to_json()
    log(f"static: {'ok' if record['static']['ok'] else [v['rule'] for v in record['static']['violations']]}")
    save(record, path)

    import torch

    if not torch.cuda.is_available():
        os.environ["TRITON_INTERPRET"] = "1"  # before the generated file imports triton
    device = torch.device("cuda", 0) if torch.cuda.is_available() else torch.device("cpu")
    record["device"] = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    record["harness"]["torch"] = torch.__version__

    from . import protocol
    from .problem import load_module

    with gpu_lock(args.gpu_lock, log, shared=True):
        record["stage"] = "load"
        save(record, path)
        try:
            tag = f"{os.getpid()}"
            ref_module = load_module(record["ref"], f"tritonize_ref_{tag}")
            gen_module = load_module(record["gen"], f"tritonize_gen_{tag}")
            dtype = protocol.TORCH_DTYPES[record["dtype"]]
            ref_model, new_model = protocol.build_models(ref_module, gen_module, device, dtype, args.seed)
        except Exception as e:
            set_error(record, "load_error", _describe(e))
            return
        record["harness"]["triton"] = getattr(sys.modules.get("triton"), "__version__", None)

        record["stage"] = "prepare"
        save(record, path)
        try:
            compiled, compile_seconds, compile_error = prepare(ref_model, new_model, ref_module, device, record,
                                                               args)
        except Exception as e:
            set_error(record, protocol.classify_exception(e), _describe(e))
            return

    with gpu_lock(args.gpu_lock, log), measuring_cores(args.measure_cpus):
        record["stage"] = "correctness"
        save(record, path)
        try:
            record["correctness"] = protocol.check_correctness(ref_model, new_model, ref_module, device,
                                                               record["dtype"], args.seed, args.correct_trials, log)
        except Exception as e:
            set_error(record, protocol.classify_exception(e), _describe(e))
            return
        save(record, path)
        if not record["correctness"]["ok"] or args.no_timing:
            return

        record["stage"] = "timing"
        save(record, path)
        try:
            time_and_floor(record, args, ref_model, new_model, ref_module, device, compiled, compile_seconds,
                           compile_error)
        except Exception as e:
            set_error(record, protocol.classify_exception(e), _describe(e))


def prepare(ref_model, new_model, ref_module, device, record: dict, args):
    """The slow first calls, before the measured stages: ModelNew's (Triton compiles its kernels) and, when it
    is to be timed, torch.compile's (Inductor compiles). Returns (compiled, its first-call seconds, its error)."""
    import torch

    from . import protocol
    from .timing import Timer

    dtype = protocol.TORCH_DTYPES[record["dtype"]]
    inputs = protocol.make_inputs(ref_module, args.seed, device, dtype)
    timer = Timer(device, flush_bytes=0)
    with torch.no_grad():
        new_model(*inputs)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        if args.no_timing or args.no_compile:
            return None, None, None
        try:
            compiled = torch.compile(ref_model)
            seconds = timer.first_call_seconds(lambda: compiled(*inputs))
        except Exception as e:  # torch.compile failing on the reference is not the generated file's fault
            return None, None, _describe(e)
    log(f"torch.compile: first call {seconds:.1f} s")
    return compiled, seconds, None


class gpu_lock:
    """A flock on `path` for the with-block: exclusive (measuring), or shared (preparing: several workers at once,
    none while one measures); nothing when path is None. flock does not order its waiters, so both first pass a
    turnstile (an exclusive flock on PATH.turnstile): a worker waiting for the exclusive lock holds the turnstile,
    and no new worker starts preparing until it has measured."""

    def __init__(self, path: str | None, log=lambda message: None, shared: bool = False):
        self.path, self.log, self.shared, self.file = path, log, shared, None

    def __enter__(self):
        if self.path:
            import fcntl

            start = time.perf_counter()
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            with open(self.path + ".turnstile", "a+") as turnstile:
                fcntl.flock(turnstile, fcntl.LOCK_EX)
                self.file = open(self.path, "a+")
                fcntl.flock(self.file, fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX)
            # (closing the turnstile releases it)
            self.log(f"gpu lock ({'shared' if self.shared else 'exclusive'}) after {time.perf_counter() - start:.1f} s")
            self.held_since = time.perf_counter()
        return self

    def __exit__(self, *exc):
        if self.file is not None:
            self.file.close()  # closing releases the lock
            # (what a stage holds the GPU for: the exclusive holds, end to end, bound a shared GPU's throughput)
            self.log(f"gpu lock ({'shared' if self.shared else 'exclusive'}) released after "
                     f"{time.perf_counter() - self.held_since:.2f} s")
        return False


class measuring_cores:
    """The with-block's thread runs on `cores` (kept free of the other workers' preparations), then where it ran
    before; nothing when `cores` is empty."""

    def __init__(self, cores: list[int]):
        self.cores, self.before = cores, None

    def __enter__(self):
        if self.cores and hasattr(os, "sched_getaffinity"):
            self.before = os.sched_getaffinity(0)
            run_on_cores(self.cores)
            log(f"measuring on cores {sorted(os.sched_getaffinity(0))}")
        return self

    def __exit__(self, *exc):
        if self.before is not None:
            run_on_cores(self.before)
        return False


def time_and_floor(record: dict, args, ref_model, new_model, ref_module, device, compiled, compile_seconds,
                   compile_error) -> None:
    import torch

    from . import protocol
    from .floor import DEFAULT_CALIBRATION, count_flops, floor_section, tensor_bytes
    from .timing import time_models

    dtype = protocol.TORCH_DTYPES[record["dtype"]]
    inputs = protocol.make_inputs(ref_module, args.seed, device, dtype)
    try:
        timing = time_models(new_model, ref_model, compiled, inputs, device, args.trials, args.warmup,
                             args.repeats, log, compile_seconds)
    except Exception as e:
        if compiled is None or protocol.classify_exception(e) != "runtime_error":
            raise
        # torch.compile failing on the reference is not the generated file's fault: time without it
        compile_error = _describe(e)
        timing = time_models(new_model, ref_model, None, inputs, device, args.trials, args.warmup,
                             args.repeats, log)
    timing["compile_error"] = compile_error
    record["timing"] = timing
    log(f"timing: ours {timing['ours']['median_ms']:.4f} ms, eager {timing['eager']['median_ms']:.4f} ms")

    calibration = DEFAULT_CALIBRATION
    if args.calibration:
        with open(args.calibration, encoding="utf-8") as f:
            calibration = json.load(f)
    with torch.no_grad():
        ref_out = ref_model(*inputs)
    input_storages = frozenset(protocol.storages(inputs))
    try:
        flops = count_flops(ref_model, inputs)
    except Exception as e:
        log(f"flop counter failed: {e!r}")
        flops = 0
    record["floor"] = floor_section(tensor_bytes(inputs), tensor_bytes(ref_out, input_storages), flops,
                                    record["dtype"], calibration, timing["ours"]["median_ms"])


def _describe(e: BaseException) -> str:
    return "".join(traceback.format_exception(type(e), e, e.__traceback__))[-4000:]


if __name__ == "__main__":
    sys.exit(main())
