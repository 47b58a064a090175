// Prepares every spec of a manifest and reports where the kernels came
// from: run with SCANJIT_CACHE=readonly and a precompiled cache folder, it
// must compile nothing (exit status 1 if it did).
#include <scanjit/Inspect.h>
#include <scanjit/Scan.h>

#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s specs.txt\n", argv[0]);
    return 2;
  }
  if (!scanjit::gpuAvailable()) {
    std::printf("no GPU (%s): nothing to load\n", scanjit::gpuUnavailableReason().c_str());
    return 0;
  }
  std::ifstream manifest(argv[1]);
  std::string line;
  int prepared = 0;
  while (std::getline(manifest, line)) {
    line = line.substr(0, line.find('#'));
    if (line.find_first_not_of(" \t") == std::string::npos)
      continue;
    try {
      scanjit::prepare(line);
      ++prepared;
    } catch (const scanjit::Error &e) {
      std::printf("error: %s\n", e.what());
      return 1;
    }
  }
  const scanjit::RuntimeStats s = scanjit::runtimeStats();
  std::printf("prepared %d kernels: %llu from the disk cache, %llu compiled\n", prepared,
              (unsigned long long)s.diskHits, (unsigned long long)s.compiles);
  return s.compiles == 0 ? 0 : 1;
}
