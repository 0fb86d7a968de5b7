// A small well-formedness checker for the SVG/HTML the report writes:
// every start tag is closed in order, attributes are quoted, entities are
// known. "" when well formed, else the first problem. (HTML void elements
// meta/br are accepted unclosed.)
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace hloscope::report {

inline std::string CheckXml(const std::string& s) {
  std::vector<std::string> stack;
  size_t i = 0;
  auto at = [&](size_t p) { return " at offset " + std::to_string(p); };
  while (i < s.size()) {
    if (s[i] == '&') {
      size_t semi = s.find(';', i);
      if (semi == std::string::npos || semi - i > 8) return "bare '&'" + at(i);
      std::string ent = s.substr(i + 1, semi - i - 1);
      if (ent != "amp" && ent != "lt" && ent != "gt" && ent != "quot" && ent != "#39" && ent[0] != '#')
        return "unknown entity &" + ent + ";" + at(i);
      i = semi + 1;
      continue;
    }
    if (s[i] != '<') {
      ++i;
      continue;
    }
    if (s.compare(i, 4, "<!--") == 0) {
      size_t e = s.find("-->", i);
      if (e == std::string::npos) return "unclosed comment" + at(i);
      i = e + 3;
      continue;
    }
    if (s.compare(i, 2, "<?") == 0 || s.compare(i, 2, "<!") == 0) {
      i = s.find('>', i);
      if (i == std::string::npos) return "unclosed declaration";
      ++i;
      continue;
    }
    bool closing = s[i + 1] == '/';
    size_t p = i + (closing ? 2 : 1);
    size_t name_end = p;
    while (name_end < s.size() && (std::isalnum(static_cast<unsigned char>(s[name_end])) || s[name_end] == '-' || s[name_end] == ':'))
      ++name_end;
    std::string name = s.substr(p, name_end - p);
    if (name.empty()) return "bad tag" + at(i);
    // Skip attributes, honouring quotes.
    size_t q = name_end;
    char quote = 0;
    for (; q < s.size(); ++q) {
      if (quote) {
        if (s[q] == quote) quote = 0;
        else if (s[q] == '<') return "'<' inside an attribute" + at(q);
      } else if (s[q] == '"' || s[q] == '\'') {
        quote = s[q];
      } else if (s[q] == '>') {
        break;
      }
    }
    if (q >= s.size()) return "unclosed tag <" + name + at(i);
    bool self = s[q - 1] == '/';
    if (closing) {
      if (stack.empty() || stack.back() != name)
        return "</" + name + "> does not close <" + (stack.empty() ? std::string("nothing") : stack.back()) + ">" + at(i);
      stack.pop_back();
    } else if (!self && name != "meta" && name != "br") {
      stack.push_back(name);
      if (name == "style" || name == "script") {  // raw text
        size_t e = s.find("</" + name + ">", q);
        if (e == std::string::npos) return "unclosed <" + name + ">";
        q = e - 1;
      }
    }
    i = q + 1;
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  return "";
}

}  // namespace hloscope::report
