import torch
import torch.nn as nn


class Model(nn.Module):
    """Relative-position bucketing on int64 token positions: each position's offset from its row's anchor (a signed
    difference), the bucket of that offset by Python's // (floor: -1 // 8 is -1) and the place inside it by % (the
    divisor's sign), a per-head stride tensor dividing with torch.floor_divide and torch.fmod (C's sign rule), and
    int32 block indices. Integer results, compared exactly."""

    def __init__(self, bucket):
        super().__init__()
        self.bucket = bucket

    def forward(self, positions, anchors, strides):
        rel = positions - anchors.unsqueeze(-1)
        bucket = rel // self.bucket
        inside = rel % self.bucket
        per_head = torch.floor_divide(rel.unsqueeze(1), strides.view(1, -1, 1))
        signed = torch.fmod(rel.unsqueeze(1), strides.view(1, -1, 1))
        blocks = positions.int() // 64 - (positions.int() % 64 == 0).int()
        return bucket, inside, per_head, signed, blocks


batch_size = 64
seq_len = 16381
heads = 12

# cpu-shrink: --set batch_size=3 --set seq_len=37 --set heads=2


def get_inputs():
    positions = torch.randint(0, 1 << 20, (batch_size, seq_len))
    anchors = torch.randint(0, 1 << 20, (batch_size,))
    strides = torch.randint(1, 50, (heads,)) * (torch.randint(0, 2, (heads,)) * 2 - 1)
    return [positions, anchors, strides]


def get_init_inputs():
    return [8]
