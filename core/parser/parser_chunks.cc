// Parallel parse of large inputs. The text is cut at instruction lines into
// chunks. Worker threads parse chunks from the end of the text backwards
// (instructions only; operands defined earlier in the same chunk linked, the
// others left as placeholder slots queued by name) while this thread parses
// from the start as usual. When the serial parse reaches a chunk's first
// token exactly at the top of a computation's instruction loop, it takes the
// worker's instructions and adds them in text order — ids, names, operand
// and user lists, control edges and called-computation references come out
// as if it had parsed them itself — and continues where the worker stopped; a
// chunk no worker has started yet it claims and parses itself, so the two
// fronts meet wherever the threads' speeds put them. A chunk whose worker
// failed or saw anything unusual (nested or shapeless instructions, inline
// computations, a name defined twice), or whose start the serial parse does
// not meet there, is dropped and that text parsed serially, so results and
// error messages are always those of the serial parse.
#include <algorithm>
#include <system_error>

#include "core/parser/parser_impl.h"

namespace hloscope {
namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '.' || c == '-' || c == '%';
}

// Offset of the first non-blank character of the first line after `from`
// that looks like an instruction (`  [ROOT ]name = ...`, indented); npos if
// none. Only a guess: the serial parse confirms it by meeting that token.
size_t NextInstructionLine(std::string_view t, size_t from) {
  size_t nl = t.find('\n', from);
  while (nl != std::string_view::npos) {
    size_t q = nl + 1;
    while (q < t.size() && (t[q] == ' ' || t[q] == '\t')) ++q;
    if (q > nl + 1 && q < t.size()) {
      size_t r = q;
      if (t.compare(r, 5, "ROOT ") == 0) r += 5;
      size_t name = r;
      while (r < t.size() && IsNameChar(t[r])) ++r;
      while (r < t.size() && t[r] == ' ') ++r;
      if (r > name && r < t.size() && t[r] == '=') return q;
    }
    nl = t.find('\n', q);
  }
  return std::string_view::npos;
}

}  // namespace

Parser::~Parser() {
  for (auto& job : chunks_) job->cancel.store(true, std::memory_order_relaxed);
  for (std::thread& t : chunk_threads_) t.join();
}

void Parser::StartChunks(const ParseOptions& opts) {
  const std::string_view text = lex_.source();
  if (text.size() < opts.parallel_min_bytes || text.size() < 2) return;
  int n = opts.threads;
  if (n <= 0) n = static_cast<int>(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
  if (n < 2) return;
  // Chunks of about opts.chunk_bytes (at most kMaxChunks) over the whole text
  // after the first one. Workers take them from the end backwards; this
  // thread parses from the start and, reaching a chunk, adds the worker's
  // instructions if it is done, waits if a worker is on it, and otherwise
  // claims it and parses that text itself. The two fronts meet wherever the
  // threads' speeds put them: no split decided in advance (the machine may
  // be shared and the threads' speeds unknown), and this thread waits for
  // one chunk at most.
  constexpr size_t kMaxChunks = 4096;
  const size_t count = std::clamp<size_t>(text.size() / std::max<size_t>(opts.chunk_bytes, 64), 2, kMaxChunks);
  claim_unstarted_ = opts.claim_unstarted_chunks;
  std::vector<size_t> starts;
  for (size_t k = 1; k < count; ++k) {
    size_t target = text.size() / count * k;
    size_t s = NextInstructionLine(text, std::max(target, starts.empty() ? size_t{0} : starts.back() + 1));
    if (s == std::string_view::npos) break;
    starts.push_back(s);
  }
  for (size_t k = 0; k < starts.size(); ++k) {
    auto job = std::make_unique<ChunkJob>();
    job->start = starts[k];
    job->end = k + 1 < starts.size() ? starts[k + 1] : text.size();
    chunks_.push_back(std::move(job));
  }
  if (chunks_.empty()) return;
  next_handoff_ = chunks_[0]->start;
  next_from_back_.store(static_cast<int64_t>(chunks_.size()) - 1);
  for (int t = 1; t < n; ++t) {
    try {
      chunk_threads_.emplace_back([this, text] {
        for (int64_t k; (k = next_from_back_.fetch_sub(1)) >= 0;) {
          ChunkJob& j = *chunks_[static_cast<size_t>(k)];
          int expected = ChunkJob::kPending;
          if (!j.state.compare_exchange_strong(expected, ChunkJob::kParsing)) return;  // this thread's front reached it
          j.parser = std::make_unique<Parser>(text, file_, /*lex_first=*/false);
          const bool ok = !j.cancel.load(std::memory_order_relaxed) &&
                          j.parser->ParseChunk(j.start, j.end, j.cancel);
          {
            std::lock_guard<std::mutex> lock(chunk_mu_);
            j.ok = ok;
            j.state.store(ChunkJob::kDone);
          }
          chunk_cv_.notify_all();
        }
      });
    } catch (const std::system_error&) {
      break;  // fewer workers: the others (or this thread) parse their chunks
    }
  }
  if (chunk_threads_.empty()) {  // no thread at all: a serial parse
    chunks_.clear();
    next_handoff_ = static_cast<size_t>(-1);
  }
}

bool Parser::ParseChunk(size_t start, size_t end, const std::atomic<bool>& cancel) {
  chunk_mode_ = true;
  deferring_ = true;  // operands are queued; ParseInstruction links those defined in the chunk
  lex_.StartCountingAt(start);  // the taker corrects the line numbers
  Advance();
  if (tok_.offset != start) return false;
  chunk_first_line_ = tok_.line;
  // Sized once (about one instruction per 48 bytes at most: no rehash).
  chunk_names_.reserve((end - start) / 48 + 16);
  chunk_hashes_.reserve((end - start) / 48 + 16);
  while (!At(Tok::kRbrace) && tok_.offset < end) {
    if (At(Tok::kEof) || cancel.load(std::memory_order_relaxed)) return false;
    Token first = tok_;
    bool is_root = false;
    if (!ParseInstruction(nullptr, &is_root)) return false;
    if (is_root) chunk_roots_.push_back({chunk_instrs_.size() - 1, first});
  }
  chunk_names_ = decltype(chunk_names_)();  // only needed while parsing: memory back now
  return true;
}

bool Parser::TakeChunk(Computation* c, Instruction** root, Token* root_tok, Instruction** last) {
  ChunkJob& job = *chunks_[next_chunk_++];
  next_handoff_ = next_chunk_ < chunks_.size() ? chunks_[next_chunk_]->start : static_cast<size_t>(-1);
  job.cancel.store(tok_.offset != job.start, std::memory_order_relaxed);
  int expected = ChunkJob::kPending;
  if (claim_unstarted_ && job.state.compare_exchange_strong(expected, ChunkJob::kClaimed))
    return true;  // no worker got to it: parse it here
  if (tok_.offset != job.start) return true;  // not met at an instruction: parsed serially
  bool ok;
  {
    std::unique_lock<std::mutex> lock(chunk_mu_);
    chunk_cv_.wait(lock, [&] { return job.state.load() == ChunkJob::kDone; });
    ok = job.ok;
  }
  if (!ok) return true;  // the worker failed or saw something unusual: parsed serially
  Parser* w = job.parser.get();
  // The name table grows once, not by doublings (each rehash moves every
  // name): when the computation goes on past this chunk, expect the rest of
  // the chunked text to hold instructions as densely as this chunk.
  size_t expect = names_.size() + w->chunk_instrs_.size();
  if (w->tok_.kind != Tok::kRbrace && job.end > job.start)
    expect += static_cast<size_t>(static_cast<double>(chunks_.back()->end - job.end) *
                                  static_cast<double>(w->chunk_instrs_.size()) /
                                  static_cast<double>(job.end - job.start));
  names_.reserve(expect);
  // Add the instructions as ParseInstruction would have, one by one, with
  // their true line numbers.
  const int dl = tok_.line - w->chunk_first_line_;
  const std::vector<PendingOperand>& ops = w->pending_ops_;
  size_t op = 0, r = 0;
  for (auto& e : w->chunk_roots_) e.second.line += dl;
  const size_t count = w->chunk_instrs_.size();
  for (size_t k = 0; k < count; ++k) {
    // The worker's core holds these instructions and the name table is
    // larger than a cache: ask for what the next ones touch ahead (the
    // first two cache lines of an instruction hold what adding touches).
    if (k + 8 < count) {
      const char* ahead = reinterpret_cast<const char*>(w->chunk_instrs_[k + 8].get());
      __builtin_prefetch(ahead, 1);
      __builtin_prefetch(ahead + 64, 1);
      names_.Prefetch(w->chunk_hashes_[k + 8]);
    }
    Instruction* raw = c->AddInstruction(std::move(w->chunk_instrs_[k]));
    raw->set_loc({raw->loc().line + dl, raw->loc().col});
    // The worker linked the operands defined in its chunk; fill the
    // placeholders of the others now when defined, else queue them (and,
    // as the serial parse does after a forward reference, all that follow).
    for (; op < ops.size() && ops[op].instr == raw; ++op) {
      if (op + 8 < ops.size()) {  // its name is in text read long ago
        __builtin_prefetch(ops[op + 8].name.data());
        names_.Prefetch(ops[op + 8].hash);
      }
      if (!deferring_) {
        if (Instruction** found = names_.find_hashed(ops[op].name, ops[op].hash)) {
          raw->FillOperand(ops[op].slot, *found);
          continue;
        }
        deferring_ = true;
      }
      pending_ops_.push_back(ops[op]);
      pending_ops_.back().line += dl;
    }
    if (!names_.insert_hashed(raw->name(), w->chunk_hashes_[k], raw).second) {
      Token at;
      at.line = raw->loc().line;
      at.col = raw->loc().col;
      return Fail(at,
                  "instruction '" + raw->name() + "' is defined twice in computation '" + c->name() + "'");
    }
    if (r < w->chunk_roots_.size() && w->chunk_roots_[r].first == k) {
      if (*root)
        return Fail(w->chunk_roots_[r].second, "computation '" + c->name() + "' has more than one ROOT");
      *root = raw;
      *root_tok = w->chunk_roots_[r].second;
      ++r;
    }
    *last = raw;
  }
  for (auto& e : w->pending_ctrl_) {
    for (auto& name : e.second) name.second.line += dl;
    pending_ctrl_.push_back(std::move(e));
  }
  for (auto& e : w->pending_calls_) {
    if (TryResolveCall(e)) continue;
    for (auto& name : e.names) name.second.line += dl;
    pending_calls_.push_back(std::move(e));
  }
  lex_ = w->lex_;
  lex_.ShiftLines(dl);
  tok_ = w->tok_;
  tok_.line += dl;
  ++chunks_taken_;
  job.parser.reset();
  return true;
}

}  // namespace hloscope
