"""Seed workload: cumsum along dim=0 on 32768x32768 float32. Run on a GPU: python3 cumsum_dim0.py"""
import torch

import scanjit.torch
from _seed import run


class Model(torch.nn.Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)


class ModelNew(torch.nn.Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return scanjit.torch.cumsum(x, self.dim)


def get_inputs():
    return [torch.rand(32768, 32768, device="cuda")]


if __name__ == "__main__":
    run("cumsum_dim0", Model(), ModelNew(), get_inputs)
