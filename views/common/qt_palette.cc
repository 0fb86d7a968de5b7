#include "views/common/qt_palette.h"

namespace hloscope::views {

QtCategoryStyle QtStyleOf(OpCategory c) {
  layout::CategoryStyle s = layout::StyleOf(c);
  return {ToQColor(s.fill), ToQColor(s.border), ToQColor(s.text)};
}

}  // namespace hloscope::views
