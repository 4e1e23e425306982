//===- Config.h - A point of a manifest's knob space -------------*- C++ -*-===//
//
// A configuration gives every knob of a module a value (docs/manifest.md,
// docs/configurations.md): an ordinal knob its value, a categorical or
// storage knob a value index (named by its id). checkConfig refuses, in one
// line, a configuration outside the space: an unknown knob, a value not in
// the knob's domain, a broken constraint. Build knobs name a build: their
// canonical text and the recipe of the manifest give the build's key in the
// configuration cache, which ConfigCache looks up.
//
//===----------------------------------------------------------------------===//
#ifndef APPROX_RUNTIME_CORE_CONFIG_H
#define APPROX_RUNTIME_CORE_CONFIG_H

#include "approx/runtime/core/Manifest.h"
#include "approx/runtime/core/Status.h"

#include <cstdint>
#include <map>
#include <string>

namespace approx::rt {

/// One value per knob: the value index of each knob named (an ordinal
/// knob's value itself). Knobs not named take their defaults.
struct Config {
  std::map<std::string, int64_t> values;
  /// The value of `knob`: the one set, else its default in `m`.
  int64_t valueOf(const Manifest &m, const std::string &knob) const;
};

/// Parses "KNOB=VALUE[,KNOB=VALUE...]" against `m`'s knobs: VALUE is a
/// value id of a categorical or storage knob, an integer for an ordinal
/// one. Unknown knobs and values are one-line errors naming them (and the
/// knob's values).
Expected<Config> parseConfig(const Manifest &m, const std::string &text);

/// OK when `c` lies in `m`'s space: every knob it names exists, every value
/// is in its knob's range, and every constraint holds (with the defaults of
/// knobs it does not name); else one line naming what does not.
Status checkConfig(const Manifest &m, const Config &c);

/// The most accurate configuration `m` can run as built: every ordinal knob
/// at 0 (its least approximation; its min when 0 is out of range), every
/// categorical knob at its first exact value (a perforation scheme
/// `accurate`, an LNS impl `precise`) or, having none (a block shape), its
/// default, and every build knob at the value the build holds. Tuners
/// measure errors against it unless told otherwise.
Config preciseConfig(const Manifest &m);

/// `c` as KNOB=ID text, every knob of `m` listed (defaults included),
/// sorted by name; ordinal values as integers.
std::string configText(const Manifest &m, const Config &c);

/// The canonical text of `c`'s build knobs (docs/configurations.md): every
/// build knob's NAME=ID, sorted by name, joined by ';' ("" when `m` has no
/// build knob).
std::string buildConfigText(const Manifest &m, const Config &c);

/// True when the build `m` describes holds `c`'s build-knob values (its
/// `configuration`), so that `c` runs on it.
bool isBuiltFor(const Manifest &m, const Config &c);

/// A knobs file (docs/tuning.md, "Whole programs"): the configuration a
/// tuner gives a program it runs, through the environment variable
/// APPROX_CONFIG, which Module::load applies. JSON:
///   {"format": "approx-knobs", "version": 1,
///    "modules": {"MODULE": {"KNOB": "ID", ...}, ...}}
/// with each value a value id of its knob (a decimal for an ordinal one).
/// The configuration file `path` gives `m`'s module (empty when it names
/// none); a one-line error names the file and what is wrong in it (not
/// JSON, another format, an unknown knob or value).
Expected<Config> readKnobsFile(const std::string &path, const Manifest &m);
/// The knobs file text that gives `m`'s module configuration `c` (every
/// knob `c` names but host knobs, which are a tuner's, not the module's).
std::string knobsFileText(const Manifest &m, const Config &c);

/// The builds of one source in a configuration cache (approx-build's
/// directory: <dir>/<key>/NAME.manifest.json).
class ConfigCache {
public:
  explicit ConfigCache(std::string dir) : dir_(std::move(dir)) {}
  /// The key of the build holding `c`'s build-knob values:
  /// sha256(recipe + "\n" + buildConfigText). FailedPrecondition when `m`
  /// names no recipe (it was not made by approx-build).
  Expected<std::string> key(const Manifest &m, const Config &c) const;
  /// The manifest file of that build; NotFound, naming the key and the
  /// configuration to build (approx-build --config ...), when the cache
  /// does not hold it.
  Expected<std::string> find(const Manifest &m, const Config &c) const;
  const std::string &directory() const { return dir_; }

private:
  std::string dir_;
};

} // namespace approx::rt

#endif // APPROX_RUNTIME_CORE_CONFIG_H
