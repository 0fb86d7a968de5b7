// Internal interface of the interpreter: the per-run Interp (computation
// plans, recursion into called computations), located errors, and the
// entry points of each op family (one .cc file each).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/eval/evaluator.h"
#include "core/eval/rng_state.h"
#include "core/ir/collectives.h"
#include "core/ir/custom_calls.h"
#include "core/ir/instruction.h"

namespace hloscope::eval {

using Operands = std::span<const Literal* const>;

// `FILE:LINE:COL: error: cannot evaluate %name (opcode): MESSAGE`.
Status InstrError(const Instruction& instr, const std::string& message);
// Error for an op the interpreter does not evaluate, with the reason.
Status Unsupported(const Instruction& instr, const std::string& why);
// OK for an instruction that is no collective, or a collective whose groups
// hold this one device (the interpreter's only one); else why not.
// `grid`: the module's (ModuleDeviceGrid), computed once by a caller that
// asks for every instruction.
Status CollectiveEvaluable(const Instruction& instr);
Status CollectiveEvaluable(const Instruction& instr, const DeviceGrid& grid);

struct DeviceContext;  // eval_devices.h

class Interp {
 public:
  explicit Interp(const EvalOptions& opts);
  ~Interp();
  const EvalOptions& opts() const { return opts_; }

  // Evaluates a computation on argument values (not copied).
  StatusOr<Literal> Run(const Computation& c, Operands args);
  // Evaluates one instruction on its operand values.
  StatusOr<Literal> Eval(const Instruction& instr, Operands ops);
  // The run's random-number state (rng_state.h): starts from the seed with
  // every Interp, i.e. with every EvaluateModule / EvaluateComputation.
  RngState& rng_state() { return rng_state_; }
  // The device this Interp evaluates for when the module runs on several
  // (EvaluateModuleOnDevices); null on one device.
  DeviceContext* device() const { return device_; }
  void set_device(DeviceContext* d) { device_ = d; }

 private:
  struct Plan;
  const Plan& PlanFor(const Computation& c);
  const EvalOptions& opts_;
  std::unordered_map<const Computation*, std::unique_ptr<Plan>> plans_;
  int depth_ = 0;
  RngState rng_state_;
  DeviceContext* device_ = nullptr;
};

// Op families. Each returns the instruction's value or a located error.
StatusOr<Literal> EvalElementwise(const Instruction& instr, Operands ops);  // unary/binary/select/clamp/compare
StatusOr<Literal> EvalAtan(const Instruction& instr, const Literal& a);     // xla_builder.math.Atan (no opcode)
StatusOr<Literal> EvalConvert(const Instruction& instr, Operands ops);      // convert, bitcast-convert, reduce-precision
StatusOr<Literal> EvalIota(const Instruction& instr);
StatusOr<Literal> EvalDataMovement(const Instruction& instr, Operands ops);
StatusOr<Literal> EvalGather(const Instruction& instr, Operands ops);
StatusOr<Literal> EvalScatter(Interp& in, const Instruction& instr, Operands ops);
StatusOr<Literal> EvalReduce(Interp& in, const Instruction& instr, Operands ops);
StatusOr<Literal> EvalReduceWindow(Interp& in, const Instruction& instr, Operands ops);
StatusOr<Literal> EvalSelectAndScatter(Interp& in, const Instruction& instr, Operands ops);
StatusOr<Literal> EvalSort(Interp& in, const Instruction& instr, Operands ops);
StatusOr<Literal> EvalDot(const Instruction& instr, Operands ops);
StatusOr<Literal> EvalRaggedDot(const Instruction& instr, Operands ops);  // eval_dot_conv.cc
StatusOr<Literal> EvalScaledDot(const Instruction& instr, Operands ops);  // eval_dot_conv.cc
StatusOr<Literal> EvalBatchNorm(const Instruction& instr, Operands ops);  // training, inference, grad
StatusOr<Literal> EvalConvolution(const Instruction& instr, Operands ops);
StatusOr<Literal> EvalControl(Interp& in, const Instruction& instr, Operands ops);
StatusOr<Literal> EvalRngBitGenerator(const Instruction& instr, Operands ops);
StatusOr<Literal> EvalRngGetAndUpdateState(Interp& in, const Instruction& instr);  // eval_rng_state.cc
StatusOr<Literal> EvalRng(Interp& in, const Instruction& instr, Operands ops);      // as rng_expander expands it
StatusOr<Literal> EvalTriangularSolve(const Instruction& instr, Operands ops);
StatusOr<Literal> EvalCholesky(const Instruction& instr, Operands ops);
// JAX's potrf / trsm library calls (core/ir/custom_calls.h LinalgCall).
StatusOr<Literal> EvalLinalgCall(const Instruction& instr, const LinalgCall& call, Operands ops);
// Their sytrd / hetrd, gehrd and gtsv calls (eval_condensed_forms.cc).
StatusOr<Literal> EvalCondensedFormCall(const Instruction& instr, const LinalgCall& call, Operands ops);
// Their geev calls (eval_nonsymmetric_eigen.cc).
StatusOr<Literal> EvalGeev(const Instruction& instr, const LinalgCall& call, Operands ops);
StatusOr<Literal> EvalGees(const Instruction& instr, const LinalgCall& call, Operands ops);
StatusOr<Literal> EvalComplexGeev(const Instruction& instr, const LinalgCall& call, Operands ops);  // eval_nonsymmetric_eigen_complex.cc
// Their syevd / heevd and gesdd / gesvdj calls (eval_eigen_svd.cc).
StatusOr<Literal> EvalSyevd(const Instruction& instr, const LinalgCall& call, Operands ops);
StatusOr<Literal> EvalGesvd(const Instruction& instr, Operands ops);
StatusOr<Literal> EvalLuPivotsToPermutation(const Instruction& instr, Operands ops);
StatusOr<Literal> EvalFft(const Instruction& instr, Operands ops);
StatusOr<Literal> EvalTopK(const Instruction& instr, Operands ops);

// Converts an array literal to another element type with XLA's rules
// (float->int saturates, NaN->0; narrow floats round to nearest even).
StatusOr<Literal> ConvertLiteral(const Literal& in, PrimitiveType to);

// Row-major strides (in elements) of `dims`.
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims);

// Copies elements of `elem_bytes` bytes: for every index i over `dims`
// (row-major), dst[dst_off + sum(i*dst_strides)] = src[src_off + sum(i*src_strides)].
void StridedCopy(int elem_bytes, const std::vector<int64_t>& dims, const uint8_t* src, int64_t src_off,
                 const std::vector<int64_t>& src_strides, uint8_t* dst, int64_t dst_off,
                 const std::vector<int64_t>& dst_strides);

// A literal of `shape` whose array storage is a copy of `src`'s bytes
// (same element count and type).
Literal WithShape(const Literal& src, const Shape& shape);

// Sub-byte integer types are stored one per byte; after computing in 8 bits
// this wraps every element back into the type's range.
void WrapSubByte(Literal& l);

// Builds a tuple literal from its elements.
Literal MakeTuple(std::vector<Literal> elems);

// Shape without layout, for literals built by the interpreter.
Shape NoLayout(const Shape& s);

}  // namespace hloscope::eval
