#include "core/report/png.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace hloscope::report {
namespace {

// Classic 5×8 column-major glyphs for ASCII 32..126 (bit 0 = top row).
constexpr uint8_t kFont[95][5] = {
    {0x00, 0x00, 0x00, 0x00, 0x00}, {0x00, 0x00, 0x5F, 0x00, 0x00}, {0x00, 0x07, 0x00, 0x07, 0x00},
    {0x14, 0x7F, 0x14, 0x7F, 0x14}, {0x24, 0x2A, 0x7F, 0x2A, 0x12}, {0x23, 0x13, 0x08, 0x64, 0x62},
    {0x36, 0x49, 0x56, 0x20, 0x50}, {0x00, 0x08, 0x07, 0x03, 0x00}, {0x00, 0x1C, 0x22, 0x41, 0x00},
    {0x00, 0x41, 0x22, 0x1C, 0x00}, {0x2A, 0x1C, 0x7F, 0x1C, 0x2A}, {0x08, 0x08, 0x3E, 0x08, 0x08},
    {0x00, 0x80, 0x70, 0x30, 0x00}, {0x08, 0x08, 0x08, 0x08, 0x08}, {0x00, 0x00, 0x60, 0x60, 0x00},
    {0x20, 0x10, 0x08, 0x04, 0x02}, {0x3E, 0x51, 0x49, 0x45, 0x3E}, {0x00, 0x42, 0x7F, 0x40, 0x00},
    {0x72, 0x49, 0x49, 0x49, 0x46}, {0x21, 0x41, 0x49, 0x4D, 0x33}, {0x18, 0x14, 0x12, 0x7F, 0x10},
    {0x27, 0x45, 0x45, 0x45, 0x39}, {0x3C, 0x4A, 0x49, 0x49, 0x31}, {0x41, 0x21, 0x11, 0x09, 0x07},
    {0x36, 0x49, 0x49, 0x49, 0x36}, {0x46, 0x49, 0x49, 0x29, 0x1E}, {0x00, 0x00, 0x14, 0x00, 0x00},
    {0x00, 0x40, 0x34, 0x00, 0x00}, {0x00, 0x08, 0x14, 0x22, 0x41}, {0x14, 0x14, 0x14, 0x14, 0x14},
    {0x00, 0x41, 0x22, 0x14, 0x08}, {0x02, 0x01, 0x59, 0x09, 0x06}, {0x3E, 0x41, 0x5D, 0x59, 0x4E},
    {0x7C, 0x12, 0x11, 0x12, 0x7C}, {0x7F, 0x49, 0x49, 0x49, 0x36}, {0x3E, 0x41, 0x41, 0x41, 0x22},
    {0x7F, 0x41, 0x41, 0x41, 0x3E}, {0x7F, 0x49, 0x49, 0x49, 0x41}, {0x7F, 0x09, 0x09, 0x09, 0x01},
    {0x3E, 0x41, 0x41, 0x51, 0x73}, {0x7F, 0x08, 0x08, 0x08, 0x7F}, {0x00, 0x41, 0x7F, 0x41, 0x00},
    {0x20, 0x40, 0x41, 0x3F, 0x01}, {0x7F, 0x08, 0x14, 0x22, 0x41}, {0x7F, 0x40, 0x40, 0x40, 0x40},
    {0x7F, 0x02, 0x1C, 0x02, 0x7F}, {0x7F, 0x04, 0x08, 0x10, 0x7F}, {0x3E, 0x41, 0x41, 0x41, 0x3E},
    {0x7F, 0x09, 0x09, 0x09, 0x06}, {0x3E, 0x41, 0x51, 0x21, 0x5E}, {0x7F, 0x09, 0x19, 0x29, 0x46},
    {0x26, 0x49, 0x49, 0x49, 0x32}, {0x03, 0x01, 0x7F, 0x01, 0x03}, {0x3F, 0x40, 0x40, 0x40, 0x3F},
    {0x1F, 0x20, 0x40, 0x20, 0x1F}, {0x3F, 0x40, 0x38, 0x40, 0x3F}, {0x63, 0x14, 0x08, 0x14, 0x63},
    {0x03, 0x04, 0x78, 0x04, 0x03}, {0x61, 0x59, 0x49, 0x4D, 0x43}, {0x00, 0x7F, 0x41, 0x41, 0x41},
    {0x02, 0x04, 0x08, 0x10, 0x20}, {0x00, 0x41, 0x41, 0x41, 0x7F}, {0x04, 0x02, 0x01, 0x02, 0x04},
    {0x40, 0x40, 0x40, 0x40, 0x40}, {0x00, 0x03, 0x07, 0x08, 0x00}, {0x20, 0x54, 0x54, 0x78, 0x40},
    {0x7F, 0x28, 0x44, 0x44, 0x38}, {0x38, 0x44, 0x44, 0x44, 0x28}, {0x38, 0x44, 0x44, 0x28, 0x7F},
    {0x38, 0x54, 0x54, 0x54, 0x18}, {0x00, 0x08, 0x7E, 0x09, 0x02}, {0x18, 0xA4, 0xA4, 0x9C, 0x78},
    {0x7F, 0x08, 0x04, 0x04, 0x78}, {0x00, 0x44, 0x7D, 0x40, 0x00}, {0x20, 0x40, 0x40, 0x3D, 0x00},
    {0x7F, 0x10, 0x28, 0x44, 0x00}, {0x00, 0x41, 0x7F, 0x40, 0x00}, {0x7C, 0x04, 0x78, 0x04, 0x78},
    {0x7C, 0x08, 0x04, 0x04, 0x78}, {0x38, 0x44, 0x44, 0x44, 0x38}, {0xFC, 0x18, 0x24, 0x24, 0x18},
    {0x18, 0x24, 0x24, 0x18, 0xFC}, {0x7C, 0x08, 0x04, 0x04, 0x08}, {0x48, 0x54, 0x54, 0x54, 0x24},
    {0x04, 0x04, 0x3F, 0x44, 0x24}, {0x3C, 0x40, 0x40, 0x20, 0x7C}, {0x1C, 0x20, 0x40, 0x20, 0x1C},
    {0x3C, 0x40, 0x30, 0x40, 0x3C}, {0x44, 0x28, 0x10, 0x28, 0x44}, {0x4C, 0x90, 0x90, 0x90, 0x7C},
    {0x44, 0x64, 0x54, 0x4C, 0x44}, {0x00, 0x08, 0x36, 0x41, 0x00}, {0x00, 0x00, 0x77, 0x00, 0x00},
    {0x00, 0x41, 0x36, 0x08, 0x00}, {0x02, 0x01, 0x02, 0x04, 0x02},
};

// LSB-first bit writer for deflate.
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out) {}
  void Bits(uint32_t value, int count) {  // value's low bits, LSB first
    for (int i = 0; i < count; ++i) Bit((value >> i) & 1);
  }
  void Code(uint32_t code, int len) {  // Huffman code, MSB first
    for (int i = len - 1; i >= 0; --i) Bit((code >> i) & 1);
  }
  void Flush() {
    if (nbits_) out_.push_back(static_cast<char>(acc_));
    acc_ = 0;
    nbits_ = 0;
  }

 private:
  void Bit(uint32_t b) {
    acc_ |= b << nbits_;
    if (++nbits_ == 8) Flush();
  }
  std::string& out_;
  uint32_t acc_ = 0;
  int nbits_ = 0;
};

void Literal(BitWriter& w, int v) {
  if (v < 144) w.Code(0x30 + v, 8);
  else if (v < 256) w.Code(0x190 + (v - 144), 9);
  else if (v < 280) w.Code(v - 256, 7);
  else w.Code(0xC0 + (v - 280), 8);
}

constexpr int kLenBase[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
                              31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr int kLenExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

// A match of `len` (3..258) bytes at distance 1.
void RunMatch(BitWriter& w, int len) {
  int code = 28;
  while (kLenBase[code] > len) --code;
  Literal(w, 257 + code);
  w.Bits(static_cast<uint32_t>(len - kLenBase[code]), kLenExtra[code]);
  w.Code(0, 5);  // distance code 0 = distance 1
}

void PutU32(std::string& s, uint32_t v) {
  for (int i = 3; i >= 0; --i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void Chunk(std::string& png, const char* type, const std::string& data) {
  PutU32(png, static_cast<uint32_t>(data.size()));
  std::string body = std::string(type, 4) + data;
  png += body;
  PutU32(png, Crc32(body));
}

}  // namespace

uint32_t Crc32(std::string_view data) {
  static uint32_t table[256];
  static bool init = [] {
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[n] = c;
    }
    return true;
  }();
  (void)init;
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : data) c = table[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

uint32_t Adler32(std::string_view data) {
  uint32_t a = 1, b = 0;
  for (unsigned char c : data) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

std::string ZlibCompress(std::string_view data) {
  std::string out = "\x78\x01";
  BitWriter w(out);
  w.Bits(1, 1);  // BFINAL
  w.Bits(1, 2);  // fixed Huffman
  size_t i = 0;
  while (i < data.size()) {
    unsigned char c = static_cast<unsigned char>(data[i]);
    Literal(w, c);
    size_t run = 0;
    while (i + 1 + run < data.size() && static_cast<unsigned char>(data[i + 1 + run]) == c) ++run;
    size_t left = run;
    while (left >= 3) {
      int len = static_cast<int>(std::min<size_t>(left, 258));
      if (left - len > 0 && left - len < 3) len -= static_cast<int>(3 - (left - len));  // keep the tail ≥ 3 or 0
      if (len < 3) break;
      RunMatch(w, len);
      left -= len;
    }
    for (size_t k = 0; k < left; ++k) Literal(w, c);
    i += 1 + run;
  }
  Literal(w, 256);
  w.Flush();
  PutU32(out, Adler32(data));
  return out;
}

Rgb ParseColor(std::string_view hex) {
  if (hex.size() != 7 || hex[0] != '#') return {};
  auto nib = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  int v[6];
  for (int i = 0; i < 6; ++i)
    if ((v[i] = nib(hex[1 + i])) < 0) return {};
  return {static_cast<uint8_t>(v[0] * 16 + v[1]), static_cast<uint8_t>(v[2] * 16 + v[3]),
          static_cast<uint8_t>(v[4] * 16 + v[5])};
}

Raster::Raster(int width, int height, Rgb bg) : w_(std::max(width, 1)), h_(std::max(height, 1)) {
  px_.resize(static_cast<size_t>(w_) * h_ * 3);
  for (size_t i = 0; i < px_.size(); i += 3) {
    px_[i] = bg.r;
    px_[i + 1] = bg.g;
    px_[i + 2] = bg.b;
  }
}

void Raster::Set(int x, int y, Rgb c) {
  if (x < 0 || y < 0 || x >= w_ || y >= h_) return;
  size_t i = (static_cast<size_t>(y) * w_ + x) * 3;
  px_[i] = c.r;
  px_[i + 1] = c.g;
  px_[i + 2] = c.b;
}

Rgb Raster::Get(int x, int y) const {
  if (x < 0 || y < 0 || x >= w_ || y >= h_) return {};
  size_t i = (static_cast<size_t>(y) * w_ + x) * 3;
  return {px_[i], px_[i + 1], px_[i + 2]};
}

void Raster::FillRect(double x, double y, double w, double h, Rgb c) {
  int x0 = std::max(0, static_cast<int>(std::lround(x)));
  int y0 = std::max(0, static_cast<int>(std::lround(y)));
  int x1 = std::min(w_, static_cast<int>(std::lround(x + w)));
  int y1 = std::min(h_, static_cast<int>(std::lround(y + h)));
  if (x1 <= x0 && w > 0 && x0 < w_) x1 = x0 + 1;  // thin rectangles stay visible
  if (y1 <= y0 && h > 0 && y0 < h_) y1 = y0 + 1;
  for (int yy = y0; yy < y1; ++yy)
    for (int xx = x0; xx < x1; ++xx) Set(xx, yy, c);
}

void Raster::StrokeRect(double x, double y, double w, double h, Rgb c) {
  Line(x, y, x + w, y, c);
  Line(x, y + h, x + w, y + h, c);
  Line(x, y, x, y + h, c);
  Line(x + w, y, x + w, y + h, c);
}

void Raster::Line(double x1, double y1, double x2, double y2, Rgb c, int thickness) {
  int ax = static_cast<int>(std::lround(x1)), ay = static_cast<int>(std::lround(y1));
  int bx = static_cast<int>(std::lround(x2)), by = static_cast<int>(std::lround(y2));
  int dx = std::abs(bx - ax), sx = ax < bx ? 1 : -1;
  int dy = -std::abs(by - ay), sy = ay < by ? 1 : -1;
  int err = dx + dy;
  int lo = -(thickness - 1) / 2, hi = thickness / 2;
  for (int guard = 0; guard < 1 << 20; ++guard) {
    for (int t = lo; t <= hi; ++t) {
      if (dx >= -dy) Set(ax, ay + t, c);
      else Set(ax + t, ay, c);
    }
    if (ax == bx && ay == by) break;
    int e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      ax += sx;
    }
    if (e2 <= dx) {
      err += dx;
      ay += sy;
    }
  }
}

void Raster::Text(int x, int y, std::string_view s, Rgb c, int scale) {
  scale = std::max(scale, 1);
  for (char ch : s) {
    unsigned char u = static_cast<unsigned char>(ch);
    if (u >= 0x80 && u < 0xC0) continue;  // UTF-8 continuation byte: the lead byte drew '-'
    if (u >= 0xC0) ch = '-';
    int g = static_cast<unsigned char>(ch) - 32;
    if (g < 0 || g >= 95) g = '?' - 32;
    for (int col = 0; col < 5; ++col)
      for (int row = 0; row < 8; ++row)
        if (kFont[g][col] >> row & 1) FillRect(x + col * scale, y + row * scale, scale, scale, c);
    x += 6 * scale;
  }
}

std::string Raster::EncodePng() const {
  // Scanlines with the Sub filter: flat runs become zeros.
  std::string raw;
  raw.reserve(static_cast<size_t>(h_) * (w_ * 3 + 1));
  for (int y = 0; y < h_; ++y) {
    raw.push_back(1);
    const uint8_t* row = &px_[static_cast<size_t>(y) * w_ * 3];
    for (int i = 0; i < w_ * 3; ++i)
      raw.push_back(static_cast<char>(static_cast<uint8_t>(row[i] - (i >= 3 ? row[i - 3] : 0))));
  }
  std::string png = "\x89PNG\r\n\x1a\n";
  std::string ihdr;
  PutU32(ihdr, static_cast<uint32_t>(w_));
  PutU32(ihdr, static_cast<uint32_t>(h_));
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB, deflate, adaptive filter, no interlace
  Chunk(png, "IHDR", ihdr);
  Chunk(png, "IDAT", ZlibCompress(raw));
  Chunk(png, "IEND", "");
  return png;
}

}  // namespace hloscope::report
