# lit configuration: tests pin the CLI's output and the shape of generated code.
import os
import lit.formats

config.name = "scanjit"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.test_source_root = config.source_lit_dir
config.test_exec_root = os.path.join(os.path.dirname(config.scanjit_bin_dir), "tests", "lit-out")
config.substitutions.append(("%scanjit", os.path.join(config.scanjit_bin_dir, "scanjit")))
config.substitutions.append(("FileCheck", config.filecheck))
# Pin the arch so results do not depend on the GPU of the machine running them.
config.environment["SCANJIT_ARCH"] = "sm_90"
for var in ("PATH", "HOME", "TMPDIR", "CUDA_PATH"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# nvdisasm ships with the CUDA toolkit or the nvidia-cuda-nvdisasm wheel
# (scripts/setup.sh installs it where the toolkit lacks it).
import shutil
if shutil.which("nvdisasm", path=config.environment.get("PATH")) or shutil.which(config.nvdisasm):
    config.available_features.add("nvdisasm")
import sys
config.substitutions.append(("%python", sys.executable))
# Tests must not touch the user's cache.
config.environment["SCANJIT_CACHE"] = "off"
