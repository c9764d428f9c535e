# expect: syntax_error
class ModelNew(nn.Module:
    def forward(self, x):
        return x
