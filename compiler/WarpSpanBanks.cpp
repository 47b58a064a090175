#include "compiler/WarpSpanBanks.h"

#include <algorithm>
#include <array>

namespace scanjit::planning {

double warpSpanBankWays(int64_t L, int lanes, int items, int elemBytes) {
  const int rows = 32 / lanes;
  int64_t wavefronts = 0;
  for (int start = 0; start < 4; ++start) {
    for (int j = 0; j < items; ++j) {
      // The distinct words each bank serves for this item (a warp touches
      // at most 32: a small list a bank).
      std::array<std::array<int64_t, 32>, 32> words;
      std::array<int, 32> count{};
      for (int r = 0; r < rows; ++r) {
        for (int i = 0; i < lanes; ++i) {
          const int64_t word = (start + (r * L + int64_t(i) * items + j) * elemBytes) / 4;
          const int bank = int(word % 32);
          const auto first = words[bank].begin(), last = first + count[bank];
          if (std::find(first, last, word) == last)
            words[bank][count[bank]++] = word;
        }
      }
      wavefronts += *std::max_element(count.begin(), count.end());
    }
  }
  return double(wavefronts) / (4.0 * items);
}

} // namespace scanjit::planning
