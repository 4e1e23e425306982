"""approxfuzz - the mutation fuzzer behind test/fuzz/approx-fuzz.py.

Feeds approx-opt, approx-tune and approx-cc bad input of every kind the
project promises to survive and checks the promise (docs/robustness.md).
One module per job, from the bottom up:

  sandbox         the per-case sandbox: layout, placeholders, setup, snapshots
  pools           value pools: hostile names, boundary numbers, option values
  spec            the manifest spec oracle's rules; strict JSON
  model           Inv, Case, Seed: what a case is made of
  random_draws    weighted and geometric draws from a case's own rng
  processes       running a tool under limits; helper commands
  corpus          the seed corpus, including seeds derived from today's build
  mutate_mlir     MLIR mutations
  mutate_manifest manifest (JSON) mutations
  cases_opt       approx-opt generators: opt-ir, opt-options, opt-files
  cases_tune      approx-tune generators: tune-manifest, tune-args
  cases_cc        the approx-cc generator: cc-source
  cases_pinned    the fixed regression cases (negative indices)
  cases           TARGETS and make_case(cfg, corpus, index)
  oracles         judging runs and sandbox changes into findings
  runner          run_case: sandbox, processes, snapshots, oracles
  findings        the findings store and reproducers
  minimizer       --minimize: shrink a finding's case
  selftest        --self-test: every oracle fires on a fake bad tool
  report          the campaign summary and summary.json
  cli             the command line and the campaign driver

Standard library only.
"""
