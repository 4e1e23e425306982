//===- NumberList.cpp - Lists of inputs in text files ---------------------===//
//
// Line-by-line reader for NumberList.h; numbers go through strtod (C99 hex
// floats are exact), so nothing is rounded on the way in.
//
//===----------------------------------------------------------------------===//
#include "approx/accuracy/NumberList.h"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace approx::accuracy {

namespace {
bool isSeparator(char c) {
  return c == ' ' || c == '\t' || c == ',' || c == '\r';
}

bool isNote(const std::string &t) {
  if (t.empty() || !(std::isupper((unsigned char)t[0]) || t[0] == '_'))
    return false;
  for (char c : t)
    if (!(std::isupper((unsigned char)c) || std::isdigit((unsigned char)c) ||
          c == '_'))
      return false;
  return true;
}

/// Parses one number; handles the NaN spellings strtod lacks.
bool parseNumber(const std::string &t, double &v) {
  std::string body = t;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.erase(0, 1);
  }
  if (body == "snan" || body == "qnan") {
    uint64_t bits =
        body == "snan" ? 0x7ff4000000000000ULL : 0x7ff8000000000000ULL;
    if (negative)
      bits |= 0x8000000000000000ULL;
    std::memcpy(&v, &bits, sizeof v);
    return true;
  }
  char *end = nullptr;
  errno = 0;
  v = std::strtod(t.c_str(), &end);
  // ERANGE on underflow still gives the right (subnormal) value: inputs
  // near the bottom of the range are what these lists are about.
  if (end == t.c_str() || *end || (errno == ERANGE && (v > 1 || v < -1)))
    return false;
  return true;
}

/// Parses the numbers on `line` into `out` and a trailing note into `note`;
/// false on anything else.
bool parseRow(const std::string &line, std::vector<double> &out,
              std::string &note) {
  size_t i = 0;
  while (true) {
    while (i < line.size() && isSeparator(line[i]))
      ++i;
    if (i == line.size())
      return true;
    size_t j = i;
    while (j < line.size() && !isSeparator(line[j]))
      ++j;
    std::string token = line.substr(i, j - i);
    i = j;
    double v;
    if (note.empty() && parseNumber(token, v)) {
      out.push_back(v);
    } else if (note.empty() && isNote(token)) {
      note = token;
    } else {
      return false;
    }
  }
}
} // namespace

bool readNumberSections(const std::string &path,
                        std::vector<NumberSection> &sections,
                        std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot open";
    return false;
  }
  sections.clear();
  std::string line;
  size_t lineNo = 0;
  int width = 0;
  bool inComments = false;
  std::vector<double> row;
  while (std::getline(in, line)) {
    ++lineNo;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos)
      continue;
    if (line[first] == '#') {
      if (!inComments || sections.empty())
        sections.emplace_back();
      inComments = true;
      std::string text = line.substr(first + 1);
      if (!text.empty() && text[0] == ' ')
        text.erase(0, 1);
      while (!text.empty() && (text.back() == '\r' || text.back() == ' '))
        text.pop_back();
      sections.back().comments.push_back(text);
      continue;
    }
    inComments = false;
    if (sections.empty())
      sections.emplace_back();
    row.clear();
    std::string note;
    if (!parseRow(line, row, note) || row.empty()) {
      error = path + ":" + std::to_string(lineNo) +
              ": not a list of numbers: " + line;
      return false;
    }
    if (width == 0)
      width = int(row.size());
    if (int(row.size()) != width) {
      error = path + ":" + std::to_string(lineNo) + ": " +
              std::to_string(row.size()) + " numbers, earlier rows have " +
              std::to_string(width);
      return false;
    }
    NumberSection &s = sections.back();
    if (s.values.empty())
      s.firstLine = lineNo;
    if (!note.empty())
      s.notes.emplace_back(s.values.size() / size_t(width), note);
    s.values.insert(s.values.end(), row.begin(), row.end());
  }
  for (NumberSection &s : sections)
    s.width = width;
  return true;
}

std::string hexFloat(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

} // namespace approx::accuracy
