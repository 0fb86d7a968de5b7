// A scoped timer for work done on the UI thread: when the environment sets
// HLOSCOPE_TIMING (hloscope --timing does), a scope that takes 30 ms or more
// prints "timing: ui <what> <ms> ms" to stderr, so that a blocked event loop
// can be traced to the handler that blocked it.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace hloscope::views {

inline bool UiTimingEnabled() {
  static const bool on = std::getenv("HLOSCOPE_TIMING") != nullptr;
  return on;
}

class UiTimer {
 public:
  explicit UiTimer(const char* what) : what_(what), start_(std::chrono::steady_clock::now()) {}
  ~UiTimer() {
    if (!UiTimingEnabled()) return;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    if (ms >= 30) std::fprintf(stderr, "timing: ui %s took %.0f ms\n", what_, ms);
  }
  UiTimer(const UiTimer&) = delete;
  UiTimer& operator=(const UiTimer&) = delete;

 private:
  const char* what_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hloscope::views
