"""One job in its own process: static check, load, correctness, timing, floor.

python3 -m tritonize.worker --record FILE [options]

The parent (runner.py) writes a record (schema.py) to FILE; the worker fills it in, saving it after every stage,
and exits. If the worker hangs or dies, the parent still finds the stages that finished and `stage` says where
it stopped. Errors are caught here only to be classified and recorded: this is the harness, not generated code.
"""
from __future__ import annotations

import argparse
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
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
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

    record["stage"] = "correctness"
    save(record, path)
    try:
        record["correctness"] = protocol.check_correctness(ref_model, new_model, ref_module, device, record["dtype"],
                                                           args.seed, args.correct_trials, log)
    except Exception as e:
        set_error(record, protocol.classify_exception(e), _describe(e))
        return
    save(record, path)
    if not record["correctness"]["ok"] or args.no_timing:
        return

    record["stage"] = "timing"
    save(record, path)
    try:
        time_and_floor(record, args, ref_model, new_model, ref_module, device)
    except Exception as e:
        set_error(record, protocol.classify_exception(e), _describe(e))


def time_and_floor(record: dict, args, ref_model, new_model, ref_module, device) -> None:
    import torch

    from . import protocol
    from .floor import DEFAULT_CALIBRATION, count_flops, floor_section, tensor_bytes
    from .timing import time_models

    dtype = protocol.TORCH_DTYPES[record["dtype"]]
    inputs = protocol.make_inputs(ref_module, args.seed, device, dtype)
    compiled, compile_error = None, None
    if not args.no_compile:
        try:
            compiled = torch.compile(ref_model)
        except Exception as e:
            compile_error = _describe(e)
    try:
        timing = time_models(new_model, ref_model, compiled, inputs, device, args.trials, args.warmup,
                             args.repeats, log)
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
