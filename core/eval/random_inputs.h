// Deterministic random arguments for a computation: the same seed gives the
// same values on every machine (own splitmix64 stream per parameter, no
// std:: distributions). Ranges: floats uniform in [-1, 1) rounded to the
// type; signed integers in [-10, 10]; unsigned in [0, 20]; pred 0/1;
// complex parts in [-1, 1). Integer parameters that feed gather/scatter
// indices or dynamic-slice/dynamic-update-slice starts (directly or through
// convert, reshape, broadcast, slice, concatenate, fusion/call parameters)
// are drawn from [0, largest start that keeps every such use in bounds].
#pragma once

#include <cstdint>
#include <vector>

#include <string>

#include "core/ir/computation.h"
#include "core/ir/module.h"
#include "core/ir/literal.h"

namespace hloscope {

std::vector<Literal> MakeRandomInputs(const Computation& entry, uint64_t seed);

// Inputs for each of `devices` devices (EvaluateOnDevices): device 0's are
// MakeRandomInputs(entry, seed), every other device's come from a seed of
// its own derived from `seed`, so that collectives combine different values.
std::vector<std::vector<Literal>> MakeRandomDeviceInputs(const Computation& entry, uint64_t seed, int64_t devices);

// Fills every constant whose values were elided in the text (`{...}`) with
// deterministic values (the ranges above), drawn from `seed` and the
// constant's computation and name, so the same module text gets the same
// values wherever it is filled (codegen, and the interpreter `run` compares
// with). Returns the names of the constants filled, "computation/name".
std::vector<std::string> FillElidedConstants(Module& m, uint64_t seed);

}  // namespace hloscope
