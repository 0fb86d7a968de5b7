// Drops a reference on a worker thread. Destroying the last reference to a
// large module, pipeline run or buffer assignment (tens of thousands of
// instructions or buffers) takes tens of milliseconds; the views replace
// theirs through this so that it never happens on the UI thread.
#pragma once

#include <QThreadPool>
#include <memory>
#include <utility>

namespace hloscope::views {

template <class T>
void ReleaseOffThread(std::shared_ptr<T> p) {
  if (!p) return;
  QThreadPool::globalInstance()->start([p = std::move(p)]() mutable { p.reset(); });
}

// Replaces `slot` with `value`, releasing the old value off the UI thread.
template <class T>
void ReplaceOffThread(std::shared_ptr<T>& slot, std::shared_ptr<T> value) {
  std::shared_ptr<T> old = std::exchange(slot, std::move(value));
  ReleaseOffThread(std::move(old));
}

}  // namespace hloscope::views
