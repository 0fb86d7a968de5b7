// Qt colours from the shared palette (core/layout/palette.h).
#pragma once

#include <QColor>
#include <string_view>

#include "core/layout/palette.h"

namespace hloscope::views {

inline QColor ToQColor(std::string_view hex) {
  return QColor(QString::fromLatin1(hex.data(), static_cast<qsizetype>(hex.size())));
}

struct QtCategoryStyle {
  QColor fill, border, text;
};

QtCategoryStyle QtStyleOf(OpCategory c);

}  // namespace hloscope::views
