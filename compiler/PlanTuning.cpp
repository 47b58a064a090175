#include "compiler/PlanTuning.h"
#include "compiler/Diagnostics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdlib>

namespace scanjit {

std::string PlanTuning::toString() const {
  std::string s;
  auto add = [&](const char *key, int v) {
    if (v)
      s += (s.empty() ? "" : ",") + std::string(key) + "=" + std::to_string(v);
  };
  add("threads", threads);
  add("items", items);
  add("lookback", lookback);
  add("unroll", unroll);
  add("stages", stages);
  add("rows", rows);
  add("blocks", blocks);
  add("occupancy", occupancy);
  add("lookback_warps", lookbackWarps);
  add("lookback_slack", lookbackSlack);
  add("lookback_rows", lookbackRows);
  add("vector", vector);
  add("groups", groups);
  add("pieces", pieces);
  add("tile_rows", tileRows);
  add("lane_width", laneWidth);
  add("exact_batch", exactBatch);
  add("off_grid", offGrid);
  if (wholeRows >= 0)
    s += (s.empty() ? "" : ",") + std::string("whole_rows=") + std::to_string(wholeRows);
  if (heldShares >= 0)
    s += (s.empty() ? "" : ",") + std::string("held_shares=") + std::to_string(heldShares);
  if (evictFirst >= 0)
    s += (s.empty() ? "" : ",") + std::string("evict_first=") + std::to_string(evictFirst);
  if (laneRuns >= 0)
    s += (s.empty() ? "" : ",") + std::string("lane_runs=") + std::to_string(laneRuns);
  if (lanesOnGrid >= 0)
    s += (s.empty() ? "" : ",") + std::string("lanes_on_grid=") + std::to_string(lanesOnGrid);
  if (packedDirect >= 0)
    s += (s.empty() ? "" : ",") + std::string("packed_direct=") + std::to_string(packedDirect);
  if (rereadShares >= 0)
    s += (s.empty() ? "" : ",") + std::string("reread_shares=") + std::to_string(rereadShares);
  if (rereadTiles >= 0)
    s += (s.empty() ? "" : ",") + std::string("reread_tiles=") + std::to_string(rereadTiles);
  if (lazyStart >= 0)
    s += (s.empty() ? "" : ",") + std::string("lazy_start=") + std::to_string(lazyStart);
  if (laneThreads >= 0)
    s += (s.empty() ? "" : ",") + std::string("lane_threads=") + std::to_string(laneThreads);
  if (wordCopies >= 0)
    s += (s.empty() ? "" : ",") + std::string("word_copies=") + std::to_string(wordCopies);
  if (pieceSpans >= 0)
    s += (s.empty() ? "" : ",") + std::string("piece_spans=") + std::to_string(pieceSpans);
  if (fittedPanel >= 0)
    s += (s.empty() ? "" : ",") + std::string("fitted_panel=") + std::to_string(fittedPanel);
  if (segmented >= 0)
    s += (s.empty() ? "" : ",") + std::string("segmented=") + std::to_string(segmented);
  if (warpRows >= 0)
    s += (s.empty() ? "" : ",") + std::string("warp_rows=") + std::to_string(warpRows);
  return s;
}

llvm::Expected<PlanTuning> parsePlanTuning(llvm::StringRef text) {
  PlanTuning t;
  llvm::SmallVector<llvm::StringRef, 4> tokens;
  text.trim().split(tokens, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef token : tokens) {
    auto [key, value] = token.trim().split('=');
    const bool flag = key == "evict_first" || key == "whole_rows" || key == "held_shares" ||
                      key == "lane_threads" || key == "lane_runs" || key == "lanes_on_grid" || key == "packed_direct" || key == "reread_shares" || key == "reread_tiles" || key == "lazy_start" || key == "piece_spans" || key == "word_copies" || key == "fitted_panel" ||
                      key == "segmented" || key == "warp_rows"; // the keys that may be 0
    int v = 0;
    if (value.getAsInteger(10, v) || v < 0 || (v == 0 && !flag))
      return detail::makeError(ErrorCode::InvalidArgument,
                               "plan tuning '" + token + "': expected key=<positive integer> (evict_first, whole_rows, held_shares, lane_threads, lane_runs, lanes_on_grid, packed_direct, reread_shares, reread_tiles, lazy_start, piece_spans, word_copies, fitted_panel, segmented, warp_rows: 0 or 1)");
    struct Knob {
      const char *name;
      int *field;
      int most;
    } knobs[] = {{"threads", &t.threads, 1024}, {"items", &t.items, 32}, {"lookback", &t.lookback, 32},
                 {"unroll", &t.unroll, 32}, {"stages", &t.stages, 8},  {"rows", &t.rows, 64},
                 {"blocks", &t.blocks, 1 << 20}, {"occupancy", &t.occupancy, 8},
                 {"lookback_warps", &t.lookbackWarps, 32}, {"lookback_slack", &t.lookbackSlack, 2}, {"lookback_rows", &t.lookbackRows, 1 << 20},
                 {"vector", &t.vector, 8}, {"groups", &t.groups, 32},
                 {"tile_rows", &t.tileRows, 1 << 16}, {"lane_width", &t.laneWidth, 8}, {"whole_rows", &t.wholeRows, 1}, {"held_shares", &t.heldShares, 1},
                 {"pieces", &t.pieces, 1 << 20}, {"evict_first", &t.evictFirst, 1},
                 {"lane_threads", &t.laneThreads, 1}, {"lane_runs", &t.laneRuns, 1}, {"lanes_on_grid", &t.lanesOnGrid, 1}, {"packed_direct", &t.packedDirect, 1}, {"reread_shares", &t.rereadShares, 1}, {"reread_tiles", &t.rereadTiles, 1}, {"lazy_start", &t.lazyStart, 1}, {"piece_spans", &t.pieceSpans, 1}, {"word_copies", &t.wordCopies, 1},
                 {"fitted_panel", &t.fittedPanel, 1}, {"segmented", &t.segmented, 1},
                 {"warp_rows", &t.warpRows, 1},
                 {"exact_batch", &t.exactBatch, 1}, {"off_grid", &t.offGrid, 1}};
    bool known = false;
    for (const Knob &k : knobs) {
      if (key != k.name)
        continue;
      known = true;
      if (v > k.most || (k.field == &t.threads && v % 32 != 0) || ((k.field == &t.vector || k.field == &t.laneWidth) && (v & (v - 1)) != 0))
        return detail::makeError(ErrorCode::InvalidArgument,
                                 "plan tuning '" + token + "': out of range (threads: a multiple of 32 up "
                                 "to 1024; items, lookback, unroll: 1 to 32; stages: 1 to 8; rows: 1 to 64; blocks: 1 to 2^20; occupancy: 1 to 8; groups: 1 to 32; tile_rows: 1 to 65536; lookback_warps: 1 to 32; lookback_slack: 1 or 2; lookback_rows, pieces: 1 to 2^20; vector, lane_width: 1, 2, 4 or 8; evict_first, whole_rows, held_shares, lane_threads, lane_runs, lanes_on_grid, packed_direct, reread_shares, reread_tiles, lazy_start, piece_spans, word_copies, fitted_panel, segmented, warp_rows, exact_batch: 0 or 1)");
      *k.field = v;
    }
    if (!known)
      return detail::makeError(ErrorCode::InvalidArgument,
                               "plan tuning '" + token + "': unknown key (threads, items, lookback, unroll, stages, rows, blocks, occupancy, lookback_warps, lookback_slack, lookback_rows, vector, groups, pieces, tile_rows, lane_width, whole_rows, held_shares, evict_first, lane_threads, lane_runs, lanes_on_grid, packed_direct, reread_shares, reread_tiles, lazy_start, piece_spans, word_copies, fitted_panel, segmented, warp_rows, exact_batch, off_grid)");
  }
  return t;
}

llvm::Expected<PlanTuning> planTuningFromEnvironment() {
  const char *env = std::getenv("SCANJIT_PLAN_TUNE");
  if (!env || !*env)
    return PlanTuning{};
  auto t = parsePlanTuning(env);
  if (!t)
    return detail::makeError(ErrorCode::InvalidArgument,
                             "SCANJIT_PLAN_TUNE: " + llvm::toString(t.takeError()));
  return t;
}

} // namespace scanjit
