// Helpers for the offscreen widget tests: waiting on the event loop.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QThread>
#include <functional>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "core/session/session.h"
#include "tests/support/test_paths.h"

namespace hloscope::views_test {

// Processes events until `done` or `timeout_ms`; true when done.
inline bool WaitUntil(const std::function<bool()>& done, int timeout_ms = 120000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > timeout_ms) return false;
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return true;
}

// A sample run through `pipeline` on the default device, once per process.
inline std::shared_ptr<const PipelineRun> SampleRun(const std::string& sample, const char* pipeline = "gpu") {
  auto s = Session::Load(hloscope::testing::SamplesDir() + "/" + sample);
  EXPECT_TRUE(s.ok());
  if (!s.ok()) return nullptr;
  RunOptions o;
  o.pipeline = pipeline;
  o.device = "";
  auto r = (*s)->RunPipeline(o);
  EXPECT_TRUE(r.ok());
  return r.ok() ? *r : nullptr;
}

}  // namespace hloscope::views_test
