"""Seed workload: masked cumsum, dim=1 on 32768x32768 float32. Run on a GPU: python3 masked_cumsum.py"""
import torch

import scanjit.torch
from _seed import run


class Model(torch.nn.Module):
    def __init__(self, dim=1):
        super().__init__()
        self.dim = dim

    def forward(self, x, mask):
        return torch.cumsum(x * mask, dim=self.dim)


class ModelNew(torch.nn.Module):
    def __init__(self, dim=1):
        super().__init__()
        self.dim = dim

    def forward(self, x, mask):
        return scanjit.torch.cumsum(x, self.dim, mask=mask)


def get_inputs():
    return [torch.rand(32768, 32768, device="cuda"), torch.randint(0, 2, (32768, 32768), device="cuda").bool()]


if __name__ == "__main__":
    run("masked_cumsum", Model(), ModelNew(), get_inputs)
