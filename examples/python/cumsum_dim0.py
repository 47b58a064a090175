"""Seed workload: cumsum along dim=0 on 32768x32768 float32 (cumsum.py's models,
the other dim). Run on a GPU: python3 cumsum_dim0.py"""
from _seed import run
from cumsum import Model, ModelNew, get_inputs

if __name__ == "__main__":
    run("cumsum_dim0", Model(dim=0), ModelNew(dim=0), get_inputs)
