import pytest
import scanjit


class FakeCudaArray:
    """An array that speaks __cuda_array_interface__ at a made-up address: enough
    to build specs without a GPU (nothing reads or writes it)."""

    def __init__(self, shape, typestr="<f4", strides=None, ptr=0x7f0000000000):
        self.__cuda_array_interface__ = dict(shape=tuple(shape), typestr=typestr, strides=strides, data=(ptr, False),
                                             version=3)


@pytest.fixture
def fake():
    return FakeCudaArray


requires_gpu = pytest.mark.skipif(not scanjit.gpu_available(),
                                  reason=f"no GPU: {scanjit.gpu_unavailable_reason()}")
