// Parallel parse of large inputs. The text is cut at instruction lines into
// chunks; worker threads parse all but the first (instructions only, operands
// queued by name) while this thread parses from the start as usual. When
// the serial parse reaches a chunk's first token exactly at the top of a
// computation's instruction loop, it takes the worker's instructions and
// adds them in text order — ids, names, operand and user lists, control
// edges and called-computation references come out as if it had parsed them
// itself — and continues where the worker stopped. A chunk whose worker
// failed or saw anything unusual (nested or shapeless instructions, inline
// computations), or whose start the serial parse does not meet there, is
// dropped and that text parsed serially, so results and error messages are
// always those of the serial parse.
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
  // Each worker parses kPerWorker consecutive chunks; this thread parses
  // the first part of the text, then adds each chunk's instructions as soon
  // as it is done, while the workers parse their later chunks. Adding a
  // chunk executes about a quarter of the instructions parsing it does, but
  // takes longer per instruction (it reaches into memory the worker wrote);
  // kTake = 0.65 gave the two threads nearly equal CPU time on the Llama
  // module (this thread then parses ~30% of the text). Shares that make both
  // finish together:
  // share0 + kTake * (1 - share0) * (kPerWorker - 1) / kPerWorker = (1 - share0) / (n - 1).
  constexpr int kPerWorker = 8;
  constexpr double kTake = 0.65;
  const double w = 1.0 / (n - 1), c = kTake * (kPerWorker - 1) / kPerWorker;
  const double share0 = std::max(0.5 / n, (w - c) / (1.0 + w - c));
  const double share = (1.0 - share0) / ((n - 1) * kPerWorker);
  std::vector<size_t> starts;
  for (int k = 1; k < (n - 1) * kPerWorker + 1; ++k) {
    size_t target = static_cast<size_t>(static_cast<double>(text.size()) * (share0 + share * (k - 1)));
    size_t s = NextInstructionLine(text, std::max(target, starts.empty() ? size_t{0} : starts.back() + 1));
    if (s == std::string_view::npos) break;
    starts.push_back(s);
  }
  for (size_t k = 0; k < starts.size(); ++k) {
    auto job = std::make_unique<ChunkJob>();
    job->start = starts[k];
    job->end = k + 1 < starts.size() ? starts[k + 1] : text.size();
    job->parser = std::make_unique<Parser>(text, file_);
    chunks_.push_back(std::move(job));
  }
  if (chunks_.empty()) return;
  next_handoff_ = chunks_[0]->start;
  const size_t per = (chunks_.size() + static_cast<size_t>(n) - 2) / static_cast<size_t>(n - 1);
  for (size_t a = 0; a < chunks_.size(); a += per) {
    const size_t b = std::min(chunks_.size(), a + per);
    try {
      chunk_threads_.emplace_back([this, a, b] {
        Lexer last(chunks_[a]->parser->lex_.source());
        for (size_t k = a; k < b; ++k) {
          ChunkJob& j = *chunks_[k];
          const bool ok = !j.cancel.load(std::memory_order_relaxed) &&
                          j.parser->ParseChunk(j.start, j.end, j.cancel, k > a ? &last : nullptr);
          last = j.parser->lex_;  // before `done`: the taker may then destroy the parser
          {
            std::lock_guard<std::mutex> lock(chunk_mu_);
            j.done = true;
            j.ok = ok;
          }
          chunk_cv_.notify_all();
        }
      });
    } catch (const std::system_error&) {
      // No thread for these chunks: they are parsed serially.
      std::lock_guard<std::mutex> lock(chunk_mu_);
      for (size_t k = a; k < b; ++k) chunks_[k]->done = true;
    }
  }
}

bool Parser::ParseChunk(size_t start, size_t end, const std::atomic<bool>& cancel, const Lexer* from) {
  chunk_mode_ = true;
  deferring_ = true;  // every operand is queued by name; the taker links them
  if (from) {
    lex_ = *from;
    lex_.Seek(start);
  } else {
    lex_.StartCountingAt(start);  // the taker corrects the line numbers
  }
  Advance();
  if (tok_.offset != start) return false;
  chunk_first_line_ = tok_.line;
  while (!At(Tok::kRbrace) && tok_.offset < end) {
    if (At(Tok::kEof) || cancel.load(std::memory_order_relaxed)) return false;
    Token first = tok_;
    bool is_root = false;
    if (!ParseInstruction(nullptr, &is_root)) return false;
    if (is_root) chunk_roots_.push_back({chunk_instrs_.size() - 1, first});
  }
  return true;
}

bool Parser::TakeChunk(Computation* c, Instruction** root, Token* root_tok, Instruction** last) {
  ChunkJob& job = *chunks_[next_chunk_++];
  next_handoff_ = next_chunk_ < chunks_.size() ? chunks_[next_chunk_]->start : static_cast<size_t>(-1);
  if (tok_.offset != job.start) {  // not met at an instruction: parsed serially
    job.cancel.store(true, std::memory_order_relaxed);
    return true;
  }
  bool ok;
  {
    std::unique_lock<std::mutex> lock(chunk_mu_);
    chunk_cv_.wait(lock, [&] { return job.done; });
    ok = job.ok;
  }
  if (!ok) return true;  // the worker failed or saw something unusual: parsed serially
  Parser* w = job.parser.get();
  // Add the instructions as ParseInstruction would have, one by one, with
  // their true line numbers.
  const int dl = tok_.line - w->chunk_first_line_;
  const std::vector<PendingOperand>& ops = w->pending_ops_;
  size_t op = 0, r = 0;
  for (auto& e : w->chunk_roots_) e.second.line += dl;
  for (size_t k = 0; k < w->chunk_instrs_.size(); ++k) {
    Instruction* raw = c->AddInstruction(std::move(w->chunk_instrs_[k]));
    raw->set_loc({raw->loc().line + dl, raw->loc().col});
    const size_t first = pending_ops_.size();
    for (; op < ops.size() && ops[op].instr == raw; ++op) {
      pending_ops_.push_back(ops[op]);
      pending_ops_.back().line += dl;
    }
    LinkOrQueueOperands(raw, first);
    if (!names_.insert(raw->name(), raw).second) {
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
