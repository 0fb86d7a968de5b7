#include "core/ir/opcode.h"

#include "core/ir/flat_name_map.h"

#include <string>
#include <unordered_map>

namespace hloscope {
namespace {

struct OpcodeInfo {
  std::string_view name;
  int arity;
};

constexpr OpcodeInfo kInfo[] = {
#define HLOSCOPE_OPCODE_INFO(e, s, a) {s, a},
    HLOSCOPE_OPCODE_LIST(HLOSCOPE_OPCODE_INFO)
#undef HLOSCOPE_OPCODE_INFO
};

}  // namespace

std::string_view OpcodeName(Opcode op) { return kInfo[static_cast<int>(op)].name; }

std::optional<Opcode> OpcodeFromName(std::string_view name) {
  static const auto* table = [] {
    auto* m = new FlatNameMap<Opcode>(kOpcodeCount + 1);
    for (int i = 0; i < kOpcodeCount; ++i) m->insert(kInfo[i].name, static_cast<Opcode>(i));
    m->insert("clz", Opcode::kClz);
    return m;
  }();
  const Opcode* op = table->find(name);
  if (!op) return std::nullopt;
  return *op;
}

std::optional<int> OpcodeArity(Opcode op) {
  int a = kInfo[static_cast<int>(op)].arity;
  if (a < 0) return std::nullopt;
  return a;
}

bool IsElementwiseUnary(Opcode op) {
  switch (op) {
    case Opcode::kAbs: case Opcode::kAcos: case Opcode::kAcosh: case Opcode::kAsin:
    case Opcode::kAsinh: case Opcode::kAtanh: case Opcode::kCbrt: case Opcode::kCeil:
    case Opcode::kClz: case Opcode::kConvert: case Opcode::kBitcastConvert:
    case Opcode::kCos: case Opcode::kCosh: case Opcode::kErf: case Opcode::kExp:
    case Opcode::kExpm1: case Opcode::kFloor: case Opcode::kImag: case Opcode::kIsFinite:
    case Opcode::kLog: case Opcode::kLog1p: case Opcode::kLogistic: case Opcode::kNegate:
    case Opcode::kNot: case Opcode::kPopulationCount: case Opcode::kReal:
    case Opcode::kReducePrecision: case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven: case Opcode::kRsqrt: case Opcode::kSign:
    case Opcode::kSin: case Opcode::kSinh: case Opcode::kSqrt: case Opcode::kTan:
    case Opcode::kTanh: case Opcode::kCopy:
      return true;
    default:
      return false;
  }
}

bool IsElementwiseBinary(Opcode op) {
  switch (op) {
    case Opcode::kAdd: case Opcode::kAnd: case Opcode::kAtan2: case Opcode::kCompare:
    case Opcode::kComplex: case Opcode::kDivide: case Opcode::kMaximum:
    case Opcode::kMinimum: case Opcode::kMultiply: case Opcode::kOr: case Opcode::kPower:
    case Opcode::kRemainder: case Opcode::kShiftLeft: case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical: case Opcode::kSubtract: case Opcode::kXor:
    case Opcode::kStochasticConvert:
      return true;
    default:
      return false;
  }
}

bool IsElementwise(Opcode op) {
  return IsElementwiseUnary(op) || IsElementwiseBinary(op) || op == Opcode::kSelect ||
         op == Opcode::kClamp;
}

bool IsCommutative(Opcode op) {
  switch (op) {
    case Opcode::kAdd: case Opcode::kAnd: case Opcode::kMultiply: case Opcode::kMaximum:
    case Opcode::kMinimum: case Opcode::kOr: case Opcode::kXor:
      return true;
    default:
      return false;
  }
}

bool IsCollective(Opcode op) {
  switch (op) {
    case Opcode::kAllGather: case Opcode::kAllGatherStart: case Opcode::kAllGatherDone:
    case Opcode::kAllReduce: case Opcode::kAllReduceStart: case Opcode::kAllReduceDone:
    case Opcode::kAllToAll: case Opcode::kRaggedAllToAll: case Opcode::kCollectiveBroadcast:
    case Opcode::kCollectivePermute: case Opcode::kCollectivePermuteStart:
    case Opcode::kCollectivePermuteDone: case Opcode::kReduceScatter:
      return true;
    default:
      return false;
  }
}

bool IsAsyncOpcode(Opcode op) {
  return op == Opcode::kAsyncStart || op == Opcode::kAsyncUpdate || op == Opcode::kAsyncDone;
}

bool HasSideEffect(Opcode op) {
  switch (op) {
    case Opcode::kSend: case Opcode::kSendDone: case Opcode::kRecv: case Opcode::kRecvDone:
    case Opcode::kInfeed: case Opcode::kOutfeed: case Opcode::kRng:
    case Opcode::kRngGetAndUpdateState: case Opcode::kAfterAll:
    case Opcode::kAddDependency:
      return true;
    default:
      return IsCollective(op) || IsAsyncOpcode(op);
  }
}

OpCategory CategoryOf(Opcode op) {
  if (IsCollective(op)) return OpCategory::kCollective;
  if (IsElementwise(op)) return OpCategory::kElementwise;
  switch (op) {
    case Opcode::kParameter: case Opcode::kConstant: case Opcode::kIota:
      return OpCategory::kParameterConstant;
    case Opcode::kReduce: case Opcode::kReduceWindow: case Opcode::kSelectAndScatter:
    case Opcode::kSort: case Opcode::kTopK:
      return OpCategory::kReduction;
    case Opcode::kDot: case Opcode::kConvolution: case Opcode::kRaggedDot:
    case Opcode::kScaledDot: case Opcode::kFft: case Opcode::kCholesky:
    case Opcode::kTriangularSolve:
      return OpCategory::kDotConv;
    case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kBitcast:
    case Opcode::kTranspose: case Opcode::kSlice: case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice: case Opcode::kConcatenate: case Opcode::kPad:
    case Opcode::kReverse: case Opcode::kGather: case Opcode::kScatter:
    case Opcode::kTuple: case Opcode::kGetTupleElement: case Opcode::kDynamicReshape:
    case Opcode::kCopyStart: case Opcode::kCopyDone:
      return OpCategory::kDataMovement;
    case Opcode::kWhile: case Opcode::kConditional: case Opcode::kCall: case Opcode::kMap:
    case Opcode::kAsyncStart: case Opcode::kAsyncUpdate: case Opcode::kAsyncDone:
    case Opcode::kScan:
      return OpCategory::kControlFlow;
    case Opcode::kFusion:
      return OpCategory::kFusion;
    case Opcode::kCustomCall:
      return OpCategory::kCustomCall;
    default:
      return OpCategory::kOther;
  }
}

std::string_view CategoryName(OpCategory c) {
  switch (c) {
    case OpCategory::kElementwise: return "elementwise";
    case OpCategory::kDataMovement: return "data movement";
    case OpCategory::kReduction: return "reduction";
    case OpCategory::kDotConv: return "dot/conv";
    case OpCategory::kParameterConstant: return "parameter/constant";
    case OpCategory::kControlFlow: return "control flow";
    case OpCategory::kCollective: return "collective";
    case OpCategory::kFusion: return "fusion";
    case OpCategory::kCustomCall: return "custom-call";
    case OpCategory::kOther: return "other";
  }
  return "other";
}

}  // namespace hloscope
