// The run of name characters the lexer reads as one name: letters, digits,
// '_', '$', '.', and '-' unless it starts "->". Sixteen bytes at a time
// where SSE2 is available (names like %convert_element_type.3497 are most of
// an HLO file's tokens).
#pragma once

#include <cstddef>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace hloscope {

// Name characters other than '-' (which needs a look at the next character).
struct NameCharTable {
  bool plain[256] = {};
  constexpr NameCharTable() {
    for (int c = 0; c < 256; ++c)
      plain[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                 c == '$' || c == '.';
  }
};
inline constexpr NameCharTable kNameCharTable;

#if defined(__SSE2__)
// For 16 bytes: 0xFF where a byte is a letter, a digit or '_'.
inline __m128i WordBytes(__m128i v) {
  const __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
  // Signed compares: bytes >= 0x80 are negative and match no range.
  const __m128i alpha =
      _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)), _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1)));
  const __m128i digit =
      _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
  return _mm_or_si128(_mm_or_si128(alpha, digit), _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
}
#endif

// End of the run of name characters starting at `p` (p itself if none), not
// reading at or past `end`.
inline const char* ScanNameChars(const char* p, const char* end) {
  for (;;) {
#if defined(__SSE2__)
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i punct = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('$')), _mm_cmpeq_epi8(v, _mm_set1_epi8('.')));
      const unsigned ok = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(WordBytes(v), punct)));
      if (ok == 0xFFFF) {
        p += 16;
        continue;
      }
      p += __builtin_ctz(~ok);
      break;
    }
#endif
    while (p != end && kNameCharTable.plain[static_cast<unsigned char>(*p)]) ++p;
    // A '-' continues the name unless it starts "->".
    if (p != end && *p == '-' && !(p + 1 != end && p[1] == '>')) {
      ++p;
      continue;
    }
    return p;
  }
}

// End of the run of letters, digits and '_' starting at `p`.
inline const char* ScanWordChars(const char* p, const char* end) {
#if defined(__SSE2__)
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const unsigned ok = static_cast<unsigned>(_mm_movemask_epi8(WordBytes(v)));
    if (ok != 0xFFFF) return p + __builtin_ctz(~ok);
    p += 16;
  }
#endif
  while (p != end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
    ++p;
  return p;
}

// The first '"', '\\' or newline at or after `p`, or `end`.
inline const char* FindQuoteEscapeOrNewline(const char* p, const char* end) {
#if defined(__SSE2__)
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  while (p != end && *p != '"' && *p != '\\' && *p != '\n') ++p;
  return p;
}

}  // namespace hloscope
