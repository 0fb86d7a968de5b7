// A tiny RGB raster and PNG encoder (no zlib: deflate with fixed Huffman
// codes and run-length matches after PNG's Sub filter, which suits pictures
// made of flat rectangles and lines). Used for the timeline PNG export.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hloscope::report {

struct Rgb {
  uint8_t r = 255, g = 255, b = 255;
};
// "#rrggbb" → colour (white on a malformed string).
Rgb ParseColor(std::string_view hex);

class Raster {
 public:
  Raster(int width, int height, Rgb background = {});
  int width() const { return w_; }
  int height() const { return h_; }
  void Set(int x, int y, Rgb c);
  Rgb Get(int x, int y) const;
  // Clipped to the raster; coordinates in pixels (rounded).
  void FillRect(double x, double y, double w, double h, Rgb c);
  void StrokeRect(double x, double y, double w, double h, Rgb c);
  void Line(double x1, double y1, double x2, double y2, Rgb c, int thickness = 1);
  // Text in a built-in 5×7 pixel font (ASCII 32..126; `scale` enlarges it).
  void Text(int x, int y, std::string_view s, Rgb c, int scale = 1);
  static int TextWidth(std::string_view s, int scale = 1) {
    int n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // UTF-8 characters
    return n * 6 * scale;
  }

  // The PNG file bytes (8-bit RGB).
  std::string EncodePng() const;

 private:
  int w_, h_;
  std::vector<uint8_t> px_;
};

// Exposed for tests.
uint32_t Crc32(std::string_view data);
uint32_t Adler32(std::string_view data);
// A zlib stream (RFC 1950) of `data` using fixed-Huffman deflate blocks.
std::string ZlibCompress(std::string_view data);

}  // namespace hloscope::report
