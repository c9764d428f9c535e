"""Numerics tests: generated files run by Triton's interpreter on the CPU against eager PyTorch."""
