import torch
import torch.nn as nn

TEMPERATURE = 3.0


class Model(nn.Module):
    """Distillation-style log-ratio over odd-length rows: student.log_softmax(dim=-1) minus
    torch.log_softmax(teacher / TEMPERATURE, -1) (the dim given positionally)."""

    def __init__(self):
        super().__init__()

    def forward(self, student, teacher):
        return student.log_softmax(dim=-1) - torch.log_softmax(teacher / TEMPERATURE, -1)


batch_size = 16
seq_len = 1399
vocab_size = 12007

# cpu-shrink: --set batch_size=3 --set seq_len=5 --set vocab_size=617


def get_inputs():
    student = torch.randn(batch_size, seq_len, vocab_size)
    teacher = torch.randn(batch_size, seq_len, vocab_size) * 4.0
    return [student, teacher]


def get_init_inputs():
    return []
