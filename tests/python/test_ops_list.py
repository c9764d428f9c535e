"""`tritonize ops`: the PyTorch API the tracer knows, one sorted name per line (functions and nn modules by their
qualified names, Tensor methods as Tensor.NAME); no namespaces, dtypes or constants."""
import os
import subprocess

from harness_paths import REPO

TRITONIZE = os.environ.get("TRITONIZE_BIN", os.path.join(REPO, "build", "tritonize"))


def test_ops_list():
    r = subprocess.run([TRITONIZE, "ops"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    names = r.stdout.split("\n")[:-1]
    assert names == sorted(set(names))
    for known in ["torch.matmul", "torch.nn.functional.scaled_dot_product_attention", "torch.nn.Conv2d",
                  "torch.nn.BCEWithLogitsLoss", "torch.logsumexp", "Tensor.view", "Tensor.chunk"]:
        assert known in names
    for not_api in ["torch", "torch.nn", "torch.float32", "torch.pi", "math.sqrt", "len"]:
        assert not_api not in names
    assert subprocess.run([TRITONIZE, "ops", "x"], capture_output=True).returncode != 0
