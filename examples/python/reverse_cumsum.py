"""Seed workload: reverse cumsum, dim=1 on 32768x32768 float32. Run on a GPU: python3 reverse_cumsum.py"""
import torch

import scanjit.torch
from _seed import run


class Model(torch.nn.Module):
    def __init__(self, dim=1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x.flip(self.dim), dim=self.dim).flip(self.dim)


class ModelNew(torch.nn.Module):
    def __init__(self, dim=1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return scanjit.torch.cumsum(x, self.dim, reverse=True)


def get_inputs():
    return [torch.rand(32768, 32768, device="cuda")]


if __name__ == "__main__":
    run("reverse_cumsum", Model(), ModelNew(), get_inputs)
