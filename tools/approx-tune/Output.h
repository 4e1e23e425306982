//===- Output.h - approx-tune's output files -------------------*- C++ -*-===//
//
// What both of approx-tune's modes (λ tuning, joint tuning) write their
// records with: the UTC time stamp of a record, and a file written whole or
// a one-line error (CliError, exit status 2).
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_TUNE_OUTPUT_H
#define APPROX_TUNE_OUTPUT_H

#include <string>

namespace approx::tune {

/// "2026-11-29T00:55:00Z".
std::string nowUtc();
/// Writes `text` to `path` and prints "wrote PATH"; throws CliError if it
/// cannot.
void writeOutputFile(const std::string &path, const std::string &text);

} // namespace approx::tune

#endif // APPROX_TUNE_OUTPUT_H
