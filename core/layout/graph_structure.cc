// Structural grouping for modules without op_name metadata (the Llama corpus
// modules, the samples): the computation's items in program order are split
// into
//   - repeated blocks: a maximal run of the sequence that is periodic in the
//     items' structural signatures (opcode, shape, and the opcodes and shapes
//     of their operands). An unrolled 32-layer decoder is 32 periods of one
//     signature sequence; the run is cut where the fewest values cross from
//     one block into the next, so blocks start where layers start (the
//     residual stream is the one value that crosses);
//   - chunks between them, cut at the positions inside a window around even
//     spacing where the fewest values are live across the cut.
// Each level holds at most `fanout` boxes; segments recurse until they hold
// at most `leaf` items. Everything is linear in the items per level.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/layout/graph_model_internal.h"

namespace hloscope::layout::internal {
namespace {

uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

uint64_t HashText(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

struct Run {
  size_t begin = 0, end = 0;  // positions in seq; end - begin == period * blocks
  size_t period = 0, blocks = 0;
};

// Values live across the cut before each position b of seq (cut[b], b in
// [0, n]): producers at positions < b with a user at a position >= b.
// `pos` is scratch of one entry per item, -1 outside calls.
std::vector<int> LiveCuts(const std::vector<TopItem>& items, const std::vector<int>& seq, std::vector<int>& pos) {
  const size_t n = seq.size();
  for (size_t p = 0; p < n; ++p) pos[static_cast<size_t>(seq[p])] = static_cast<int>(p);
  std::vector<size_t> last(n);
  for (size_t p = 0; p < n; ++p) last[p] = p;
  for (size_t p = 0; p < n; ++p)
    for (int o : items[static_cast<size_t>(seq[p])].operands) {
      int q = pos[static_cast<size_t>(o)];
      if (q >= 0 && static_cast<size_t>(q) < p) last[static_cast<size_t>(q)] = std::max(last[static_cast<size_t>(q)], p);
    }
  for (int i : seq) pos[static_cast<size_t>(i)] = -1;
  std::vector<int> diff(n + 2, 0);
  for (size_t p = 0; p < n; ++p)
    if (last[p] > p) {  // live for cuts b in (p, last[p]]
      ++diff[p + 1];
      --diff[last[p] + 1];
    }
  std::vector<int> cut(n + 1, 0);
  int running = 0;
  for (size_t b = 0; b <= n; ++b) {
    running += diff[b];
    cut[b] = running;
  }
  return cut;
}

// Maximal periodic runs, greedily by coverage (larger first; for equal
// coverage the shorter period, i.e. more blocks), not overlapping.
std::vector<Run> FindRuns(const std::vector<uint64_t>& sig, const std::vector<int>& cut) {
  const size_t n = sig.size();
  std::vector<Run> chosen;
  if (n < 6) return chosen;
  // Candidate periods: the commonest gaps between equal signatures.
  std::unordered_map<uint64_t, size_t> last_seen;
  std::unordered_map<size_t, size_t> gaps;
  for (size_t p = 0; p < n; ++p) {
    auto [it, fresh] = last_seen.emplace(sig[p], p);
    if (!fresh) {
      size_t g = p - it->second;
      if (g >= 2 && g <= n / 2) ++gaps[g];
      it->second = p;
    }
  }
  std::vector<std::pair<size_t, size_t>> by_count(gaps.begin(), gaps.end());
  std::sort(by_count.begin(), by_count.end(), [](auto a, auto b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  if (by_count.size() > 24) by_count.resize(24);
  const size_t min_cover = std::max<size_t>(6, n / 50);
  std::vector<Run> cands;
  for (auto [d, count] : by_count) {
    for (size_t i = 0; i + d < n;) {
      if (sig[i] != sig[i + d]) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j + d < n && sig[j] == sig[j + d]) ++j;
      // [i, j + d) is periodic with period d.
      size_t len = j + d - i;
      // Two blocks only when they are large; tiny repeats (two reshapes and
      // a broadcast) are noise, not structure.
      size_t blocks = len / d;
      if (blocks >= 2 && blocks * d >= min_cover && d >= 3 && (blocks >= 3 || d >= 16))
        cands.push_back({i, j + d, d, blocks});
      i = j + 1;
    }
  }
  std::sort(cands.begin(), cands.end(), [](const Run& a, const Run& b) {
    size_t ca = a.period * a.blocks, cb = b.period * b.blocks;
    return ca != cb ? ca > cb : a.period < b.period;
  });
  std::vector<char> taken(n, 0);
  for (const Run& c : cands) {
    bool free = true;
    for (size_t p = c.begin; p < c.end && free; ++p) free = !taken[p];
    if (!free) continue;
    // Phase: blocks start where the fewest values cross into them.
    size_t d = c.period, best_phase = 0;
    int best_cut = -1;
    for (size_t phase = 0; phase < d && c.begin + phase + 2 * d <= c.end; ++phase) {
      int k = cut[c.begin + phase + d];
      if (best_cut < 0 || k < best_cut) best_cut = k, best_phase = phase;
    }
    Run r = c;
    r.begin = c.begin + best_phase;
    r.blocks = (c.end - r.begin) / d;
    r.end = r.begin + r.blocks * d;
    if (r.blocks < 2 || (r.blocks < 3 && d < 16)) continue;
    for (size_t p = r.begin; p < r.end; ++p) taken[p] = 1;
    chosen.push_back(r);
  }
  std::sort(chosen.begin(), chosen.end(), [](const Run& a, const Run& b) { return a.begin < b.begin; });
  return chosen;
}

// Splits [0, n) into `parts` ranges, each cut at the smallest live cut within
// a window around even spacing (ties: nearest the even position).
std::vector<size_t> MinCutBounds(const std::vector<int>& cut, size_t n, size_t parts) {
  std::vector<size_t> bounds{0};
  for (size_t j = 1; j < parts; ++j) {
    size_t ideal = n * j / parts;
    size_t window = std::max<size_t>(1, n / (parts * 3));
    size_t lo = std::max(bounds.back() + 1, ideal > window ? ideal - window : 1);
    size_t hi = std::min(n - (parts - j), ideal + window);
    if (lo > hi) continue;
    size_t best = lo;
    for (size_t b = lo; b <= hi; ++b) {
      auto dist = [&](size_t x) { return x > ideal ? x - ideal : ideal - x; };
      if (cut[b] < cut[best] || (cut[b] == cut[best] && dist(b) < dist(best))) best = b;
    }
    bounds.push_back(best);
  }
  bounds.push_back(n);
  return bounds;
}

std::string RangeName(const std::vector<int>& seq, size_t b, size_t e) {
  return "ops " + std::to_string(seq[b]) + "-" + std::to_string(seq[e - 1]);
}

std::vector<int> Slice(const std::vector<int>& seq, size_t b, size_t e) {
  return std::vector<int>(seq.begin() + static_cast<std::ptrdiff_t>(b), seq.begin() + static_cast<std::ptrdiff_t>(e));
}

class Splitter {
 public:
  Splitter(const std::vector<TopItem>& items, size_t fanout, size_t leaf)
      : items_(items), fanout_(std::max<size_t>(fanout, 2)), leaf_(std::max<size_t>(leaf, 2)) {
    std::vector<int> all(items.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
    sig_ = Signatures(items, all);  // an item's signature does not depend on the sequence
    pos_.assign(items.size(), -1);
  }

  std::vector<Segment> Level(const std::vector<int>& seq, int depth) {
    std::vector<Segment> out;
    if (seq.size() <= leaf_ || depth > 12) {
      out.push_back({Segment::kItems, "", seq, {}, -1, 0});
      return out;
    }
    std::vector<uint64_t> sig(seq.size());
    for (size_t p = 0; p < seq.size(); ++p) sig[p] = sig_[static_cast<size_t>(seq[p])];
    const std::vector<int> cut = LiveCuts(items_, seq, pos_);
    std::vector<Run> runs = FindRuns(sig, cut);
    // Units in order: a repeat (one box), a few loose items, or a gap chunk.
    std::vector<Segment> units;
    auto add_gap = [&](size_t b, size_t e) {
      if (e <= b) return;
      if (e - b <= 2) {
        for (size_t p = b; p < e; ++p) units.push_back({Segment::kItems, "", {seq[p]}, {}, -1, 0});
        return;
      }
      // Not split yet: when the gap is the whole sequence, it is split below.
      units.push_back({Segment::kChunk, RangeName(seq, b, e), Slice(seq, b, e), {}, -1, 0});
    };
    size_t at = 0;
    for (const Run& r : runs) {
      add_gap(at, r.begin);
      Segment rep{Segment::kRepeat, std::to_string(r.blocks) + " identical blocks", {}, {}, -1,
                  static_cast<int>(r.blocks)};
      for (size_t k = 0; k < r.blocks; ++k) {
        size_t b = r.begin + k * r.period;
        Segment block = Chunk(Slice(seq, b, b + r.period), "block " + std::to_string(k + 1), depth);
        block.kind = Segment::kBlock;
        block.identical_to = k == 0 ? -1 : 1;
        rep.children.push_back(std::move(block));
      }
      units.push_back(std::move(rep));
      at = r.end;
    }
    add_gap(at, seq.size());
    // One gap and no repeat: split it at the smallest cuts.
    if (units.size() == 1 && units[0].kind == Segment::kChunk && runs.empty()) {
      size_t parts = std::min(fanout_, (seq.size() + leaf_ - 1) / leaf_);
      parts = std::max<size_t>(parts, 2);
      std::vector<size_t> bounds = MinCutBounds(cut, seq.size(), parts);
      units.clear();
      for (size_t k = 0; k + 1 < bounds.size(); ++k)
        units.push_back(Chunk(Slice(seq, bounds[k], bounds[k + 1]), RangeName(seq, bounds[k], bounds[k + 1]), depth));
      return units;
    }
    for (Segment& u : units)  // gaps between repeats: their own structure
      if (u.kind == Segment::kChunk && u.items.size() > leaf_) {
        u.children = Level(u.items, depth + 1);
        u.items.clear();
      }
    if (units.size() <= fanout_) return units;
    // Too many units: merge the adjacent pair with the fewest items (pairs
    // holding a repeat last) until `fanout` are left; a merged chunk with
    // too many parts is split again from its items.
    std::vector<size_t> sizes;
    for (const Segment& u : units) sizes.push_back(Count(u));
    while (units.size() > fanout_) {
      size_t best = 0;
      auto rank = [&](size_t k) {
        bool rep = units[k].kind == Segment::kRepeat || units[k + 1].kind == Segment::kRepeat;
        return std::make_pair(rep ? 1 : 0, sizes[k] + sizes[k + 1]);
      };
      for (size_t k = 1; k + 1 < units.size(); ++k)
        if (rank(k) < rank(best)) best = k;
      Segment merged{Segment::kChunk, "", {}, {}, -1, 0};
      for (size_t k : {best, best + 1}) {
        Segment& u = units[k];
        if (u.kind == Segment::kChunk && u.name.empty()) {
          for (Segment& c : u.children) merged.children.push_back(std::move(c));
        } else {
          merged.children.push_back(std::move(u));
        }
      }
      units[best] = std::move(merged);
      sizes[best] += sizes[best + 1];
      units.erase(units.begin() + static_cast<std::ptrdiff_t>(best) + 1);
      sizes.erase(sizes.begin() + static_cast<std::ptrdiff_t>(best) + 1);
    }
    size_t begin = 0;
    for (size_t k = 0; k < units.size(); ++k) {
      Segment& u = units[k];
      if (u.kind == Segment::kChunk && u.name.empty()) {
        u.name = RangeName(seq, begin, begin + sizes[k]);
        if (u.children.size() > fanout_) u.children = Bucket(std::move(u.children), seq, begin);
        // A chunk around a repeat says so: "ops 1-3630 · 31 identical blocks".
        for (const Segment& c : u.children)
          if (c.kind == Segment::kRepeat) {
            u.name += " · " + c.name;
            break;
          }
      }
      begin += sizes[k];
    }
    return units;
  }

 private:
  // Consecutive segments (starting at position `begin` of seq) in chunks of
  // at most fanout_, nested until one level holds at most fanout_; the
  // segments keep what was worked out for them.
  std::vector<Segment> Bucket(std::vector<Segment> kids, const std::vector<int>& seq, size_t begin) {
    while (kids.size() > fanout_) {
      const size_t per = (kids.size() + fanout_ - 1) / fanout_;
      std::vector<Segment> next;
      size_t at = begin;
      for (size_t k = 0; k < kids.size(); k += per) {
        const size_t end = std::min(kids.size(), k + per);
        if (end - k == 1) {
          at += Count(kids[k]);
          next.push_back(std::move(kids[k]));
          continue;
        }
        Segment chunk{Segment::kChunk, "", {}, {}, -1, 0};
        size_t n = 0;
        for (size_t j = k; j < end; ++j) {
          n += Count(kids[j]);
          chunk.children.push_back(std::move(kids[j]));
        }
        chunk.name = RangeName(seq, at, at + n);
        at += n;
        next.push_back(std::move(chunk));
      }
      kids = std::move(next);
    }
    return kids;
  }

  static size_t Count(const Segment& s) {
    size_t n = s.items.size();
    for (const Segment& c : s.children) n += Count(c);
    return n;
  }

  Segment Chunk(std::vector<int> seq, std::string name, int depth) {
    Segment s{Segment::kChunk, std::move(name), {}, {}, -1, 0};
    if (seq.size() <= leaf_) {
      s.items = std::move(seq);
    } else {
      s.children = Level(seq, depth + 1);
    }
    return s;
  }

  const std::vector<TopItem>& items_;
  size_t fanout_, leaf_;
  std::vector<uint64_t> sig_;  // per item
  std::vector<int> pos_;       // LiveCuts' scratch
};

}  // namespace

std::vector<uint64_t> Signatures(const std::vector<TopItem>& items, const std::vector<int>& seq) {
  auto self = [&](const TopItem& it) { return Mix(HashText(it.opcode), it.shape_hash); };
  std::vector<uint64_t> out;
  out.reserve(seq.size());
  for (int i : seq) {
    const TopItem& it = items[static_cast<size_t>(i)];
    uint64_t h = self(it);
    for (int o : it.operands) h = Mix(h, self(items[static_cast<size_t>(o)]) * 31 + 7);
    out.push_back(h);
  }
  return out;
}

std::vector<Segment> StructuralSegments(const std::vector<TopItem>& items, const std::vector<int>& seq,
                                        size_t fanout, size_t leaf) {
  return Splitter(items, fanout, leaf).Level(seq, 0);
}

}  // namespace hloscope::layout::internal
