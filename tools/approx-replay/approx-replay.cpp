//===- approx-replay.cpp - Tuners over recorded T(λ)/E(λ) curves ----------===//
//
// Replays the curves a sweep recorded (bench/apps/run-apps --json) through
// SMP, HEU and OMG, so a search can be changed and judged without a GPU:
// every λ a search asks for is read from the curve, measured the same way
// as it would be live. Prints, per app and slot set: λ*, runs, T(λ*)
// against OMG's fastest feasible λ, and HEU again under the paper's own
// rule (paperHeuOptions); HEU's average runs both ways, over every row and
// over the rows whose pure-SFU speedup T(0)/T(λmax) is at least 1.05 (an
// app with nothing to gain is not a search). No CUDA needed.
//
//   approx-replay FILE.json... [--qos-ratio R] [--set NAME] [--json OUT]
//
// A bad command line is one line and exit status 2; a file that cannot be
// replayed is one line (`approx-replay: error: ...`) and exit status 1.
//
//===----------------------------------------------------------------------===//
#include "approx/Support/Cli.h"
#include "approx/runtime/core/FileIO.h"
#include "approx/runtime/core/Text.h"
#include "approx/runtime/sfu/SlotGrid.h"
#include "approx/runtime/tune/Tuner.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace approx::rt;
using json = nlohmann::json;

static int fail(const std::string &msg) {
  std::fprintf(stderr, "approx-replay: error: %s\n", msg.c_str());
  return 1;
}

int main(int argc, char **argv) {
  std::vector<std::string> files;
  double ratio = 0.8;
  std::string outPath, onlySet;
  approx::cli::CommandLine cl{approx::cli::Tool{"approx-replay"},
                              "Replays run-apps curves through SMP, HEU and "
                              "OMG (no GPU needed)."};
  cl.required(cl.positionals("FILE.json", files,
                             "run-apps results (bench/apps/run-apps --json)"));
  cl.number("--qos-ratio", ratio, 0, 1e6, "QoS_ratio R (default 0.8)");
  cl.text("--json", outPath, "write each row as JSON to OUT");
  cl.text("--set", onlySet, "replay only the slot set NAME (hw, software, "
                            "virtual, ...; default: every set)");
  if (int status = cl.parse(argc, argv); status >= 0)
    return status;

  json out = json::array();
  // The table is printed only once every file replayed: an error leaves
  // one line on stderr and nothing on stdout.
  std::string table = "| app | set | step | pure-SFU speedup | HEU λ/runs "
                      "| HEU (paper's rule) λ/runs | SMP λ/runs | OMG "
                      "λ/runs | HEU/OMG T | HEU E/bound |\n"
                      "|---|---|---|---|---|---|---|---|---|---|\n";
  int heuRuns = 0, rows = 0, within = 0;
  // Over the rows that gain >= 5% at λmax: ours, the paper's rule.
  int gainRows = 0, gainRuns = 0, gainPaperRuns = 0, paperRuns = 0;
  for (const std::string &f : files) {
    Expected<std::string> text = readRegularFile(f, 64u << 20, "curve file");
    if (!text)
      return fail(text.status().message());
    json doc;
    try {
      doc = json::parse(*text);
      for (const json &app : doc.at("apps"))
        for (auto &[label, set] : app.at("sets").items()) {
          if (!onlySet.empty() && label != onlySet)
            continue;
          auto numbers = [](const json &a) {
            std::vector<double> v;
            for (const json &x : a) // "inf": a NaN/inf output mismatch
              v.push_back(x.is_string() ? HUGE_VAL : x.get<double>());
            return v;
          };
          std::vector<double> t = numbers(set.at("time_ms")),
                              e = numbers(set.at("error"));
          int64_t lmax = set.at("lambda_max");
          // The λ grid: re-read from the recorded probe curve with today's
          // rule (sfu/SlotGrid.h), else the step the run used.
          int step = set.value("step", 1);
          std::string slot = set.value("slot", "");
          if (doc.contains("grids") && doc["grids"].contains(slot))
            step = gridFromCurve(numbers(doc["grids"][slot].at("time_ms")))
                       .step;
          if (t.size() != e.size() || int64_t(t.size()) != lmax + 1)
            return fail(f + ": " + app.at("abbr").get<std::string>() + "/" +
                        label + ": curves do not cover [0, lambda_max]");
          json row = {{"abbr", app.at("abbr")}, {"set", label}};
          TuneResult res[3];
          for (TuneMethod m : {TuneMethod::Smp, TuneMethod::Heu,
                               TuneMethod::Omg}) {
            CurveEvaluator curve(t, e, lmax);
            TuneOptions o;
            o.qos = QoS::ratio(ratio);
            o.lambdaStep = step;
            Expected<TuneResult> r = tune(curve, m, o);
            if (!r)
              return fail(f + ": " + r.status().message());
            res[int(m)] = *r;
            row[tuneMethodName(m)] = {{"lambda", r->lambda},
                                      {"runs", r->runs},
                                      {"time_ms", r->timeMs},
                                      {"error", r->error},
                                      {"bound", r->qosBound}};
          }
          const TuneResult &smp = res[0], &heu = res[1], &omg = res[2];
          TuneResult paper;
          {
            CurveEvaluator curve(t, e, lmax);
            TuneOptions o;
            o.qos = QoS::ratio(ratio);
            o.lambdaStep = step;
            Expected<TuneResult> r =
                tune(curve, TuneMethod::Heu, paperHeuOptions(o));
            if (!r)
              return fail(f + ": " + r.status().message());
            paper = *r;
            row["HEU-paper"] = {{"lambda", r->lambda},
                                {"runs", r->runs},
                                {"time_ms", r->timeMs},
                                {"error", r->error}};
          }
          const double sfuSpeedup = t.front() / t.back();
          row["sfu_speedup"] = sfuSpeedup;
          double ratioT = heu.timeMs / omg.timeMs;
          char line[512];
          std::snprintf(line, sizeof line,
                      "| %s | %s | %d | %.3f | %lld/%d | %lld/%d | %lld/%d | "
                      "%lld/%d | %.3f | %.3g/%.3g |\n",
                      app.at("abbr").get<std::string>().c_str(), label.c_str(),
                      step, sfuSpeedup, (long long)heu.lambda, heu.runs,
                      (long long)paper.lambda, paper.runs,
                      (long long)smp.lambda, smp.runs, (long long)omg.lambda,
                      omg.runs, ratioT, heu.error, heu.qosBound);
          table += line;
          heuRuns += heu.runs;
          paperRuns += paper.runs;
          ++rows;
          within += ratioT <= 1.01;
          if (sfuSpeedup >= 1.05) {
            ++gainRows;
            gainRuns += heu.runs;
            gainPaperRuns += paper.runs;
          }
          out.push_back(row);
        }
    } catch (const json::exception &ex) {
      return fail(f + ": not a run-apps result: " + ex.what());
    }
  }
  if (rows == 0)
    return fail("no slot set " + approx::rt::quote(onlySet) +
                " in the files");
  std::fputs(table.c_str(), stdout);
  std::printf("\nHEU: %.2f runs on average over %d rows; T(HEU) within 1%% "
              "of OMG's on %d of %d\n",
              rows ? double(heuRuns) / rows : 0.0, rows, within, rows);
  auto avg = [](int runs, int n) { return n ? double(runs) / n : 0.0; };
  std::printf("HEU runs on average: ours %.2f, the paper's rule %.2f over "
              "all %d rows; ours %.2f, the paper's rule %.2f over the %d "
              "rows whose pure-SFU speedup is >= 1.05\n",
              avg(heuRuns, rows), avg(paperRuns, rows), rows,
              avg(gainRuns, gainRows), avg(gainPaperRuns, gainRows),
              gainRows);
  if (!outPath.empty()) {
    // Written next to the target, then renamed: nothing half-written.
    std::string tmp = outPath + ".tmp";
    std::ofstream o(tmp, std::ios::binary);
    o << out.dump(1) << "\n";
    o.close();
    if (!o || std::rename(tmp.c_str(), outPath.c_str()) != 0) {
      std::remove(tmp.c_str());
      return fail("cannot write '" + outPath + "'");
    }
  }
  return 0;
}
