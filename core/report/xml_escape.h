// Escaping for the HTML/SVG/DOT text the report and the exports write.
#pragma once

#include <string>
#include <string_view>

namespace hloscope::report {

// &, <, >, " and ' as entities; control characters dropped.
std::string XmlEscape(std::string_view s);
// For a double-quoted DOT string: \" and \\ escaped, newlines as \n.
std::string DotEscape(std::string_view s);

}  // namespace hloscope::report
