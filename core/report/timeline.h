// The buffer timeline as a picture, the same look as the GUI's memory panel:
// x = schedule position, y = address (the temp heap at the bottom, then the
// parameter, constant and output allocations stacked above it), one
// rectangle per buffer coloured by kind (layout::BufferKindColor), the
// curve of live temp bytes, the lower-bound line and the peak marker.
#pragma once

#include <string>

#include "core/memory/buffer_assignment.h"

namespace hloscope::report {

struct TimelineOptions {
  std::string title;   // "" → "buffer timeline — <module>"
  int width = 960;
  int height = 480;
  bool standalone = true;  // XML declaration (false: inline in HTML)
};

std::string RenderTimelineSvg(const BufferAssignment& ba, const TimelineOptions& opts = {});
// PNG bytes (own rasterizer, built-in pixel font).
std::string RenderTimelinePng(const BufferAssignment& ba, const TimelineOptions& opts = {});

}  // namespace hloscope::report
