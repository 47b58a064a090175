#include "testing/Precompile.h"

#include "scanjit/Scan.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace scanjit::detail {

void precompile(const std::vector<std::string> &specs) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(2u, std::thread::hardware_concurrency()); ++t)
    threads.emplace_back([&] {
      for (size_t i = next++; i < specs.size(); i = next++) {
        try {
          prepare(specs[i]);
        } catch (const Error &) {
          // reported when the spec is prepared to run
        }
      }
    });
  for (auto &t : threads)
    t.join();
}

} // namespace scanjit::detail
