//===- NumberList.h - Lists of inputs in text files -------------*- C++ -*-===//
//
// Reads the plain-text input lists that hard-to-round work exchanges: one
// input per line, written as a hex float (0x1.62e42fefa39efp+9) or any other
// form strtod accepts, several numbers on a line separated by commas or
// blanks for functions of several arguments, `#` starting a comment line.
// `snan` and `qnan` (optionally signed) name signaling and quiet NaNs; a
// trailing word in capitals (CORE-MATH's `0x0p+0, ERANGE`: the errno a
// call should set) is kept as the row's note.
// Comment blocks split the file into sections, since published lists (e.g.
// CORE-MATH's *.wc) state per section what the inputs below are.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_ACCURACY_NUMBERLIST_H
#define APPROX_ACCURACY_NUMBERLIST_H

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace approx::accuracy {

/// The numbers between two comment blocks of a list, and the comments that
/// precede them.
struct NumberSection {
  /// The comment lines before the numbers, without the `#` and one blank.
  std::vector<std::string> comments;
  /// 1-based line number of the first number (0 if the section has none).
  size_t firstLine = 0;
  /// The numbers, row after row (`width` per row).
  std::vector<double> values;
  /// Numbers per row; the same for every row of a file.
  int width = 0;
  /// Notes of the rows that have one: (row index in this section, text).
  std::vector<std::pair<size_t, std::string>> notes;
  /// Rows in this section.
  size_t rows() const { return width ? values.size() / size_t(width) : 0; }
};

/// Reads `path` into sections. Returns false, with `error` naming the file
/// and line, when the file cannot be read, a line does not parse as numbers,
/// or rows differ in width.
bool readNumberSections(const std::string &path,
                        std::vector<NumberSection> &sections,
                        std::string &error);

/// `x` as a C99 hex float ("0x1.8p+1", "-0x0p+0", "inf", "nan").
std::string hexFloat(double x);

} // namespace approx::accuracy

#endif // APPROX_ACCURACY_NUMBERLIST_H
