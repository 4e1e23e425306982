#!/usr/bin/env python3
"""check-includes.py - the include layering of the runtime and the passes.

Reads the sources (no build product needed) and fails, naming file:line, on
every #include that crosses a layer the wrong way:

runtime/ (a folder and its public headers, runtime/include/approx/runtime/X,
are one layer X):
  core        includes only core: driver, module, arguments, manifest,
              status, text and file utilities know no technique;
  tune        includes core (evaluators, tuners and metrics are generic);
  a technique (sfu, perforation, precision, and any folder added later)
              includes core, tune and itself, never another technique;
  mgpu        the host glue: may include any runtime layer;
  nothing in the runtime includes a compiler header (approx/Dialect,
  approx/Passes, mlir/, llvm/); approx/Common (header-only, plain C++) is
  shared by both.
passes/:
  a technique folder (sfu, lns, perforation, precision, correct, cuda, core,
  and any folder added later) includes its own and common's headers, never
  another technique folder's;
  common is shared by every technique and includes none of them;
  no pass includes a runtime header (the boundary is a file format).

Known compiler-side violations sit in ALLOWED below; a new one fails.

  check-includes.py [--root REPO]
"""
import argparse
import os
import re
import sys

# (file, include as written) pairs tolerated for now. To be removed by the
# registry work (the compiler's technique registry, Architecture v3), which
# moves what techniques share into passes/common.
ALLOWED = {
}

SOURCE_SUFFIXES = ('.h', '.hpp', '.cpp', '.cc', '.cu', '.cuh', '.def', '.inc')
INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<(approx/[^>]+)>)')
COMPILER_PREFIXES = ('approx/Dialect/', 'approx/Passes/', 'approx/InitApprox',
                     'approx-c/', 'mlir/', 'llvm/')
RUNTIME_GENERIC = {'core', 'tune', 'mgpu'}


class Violation:
    def __init__(self, path, line, include, message):
        self.path, self.line, self.include = path, line, include
        self.message = message

    def key(self):
        return (self.path, self.include)

    def __str__(self):
        return f'{self.path}:{self.line}: {self.message}'


def sources(root, top):
    base = os.path.join(root, top)
    for d, dirs, files in os.walk(base):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(SOURCE_SUFFIXES):
                full = os.path.join(d, f)
                yield os.path.relpath(full, root).replace(os.sep, '/')


def includes(root, rel):
    with open(os.path.join(root, rel), encoding='utf-8',
              errors='replace') as f:
        for n, text in enumerate(f, 1):
            m = INCLUDE.match(text)
            if m:
                yield n, m.group(1) or m.group(2)


def resolve(root, rel, inc, search):
    """The repository path `inc` names from `rel`: the including file's
    folder first, then `search` (the folders the build adds), else None."""
    for d in [os.path.dirname(rel)] + search:
        cand = os.path.normpath(os.path.join(d, inc)).replace(os.sep, '/')
        if not cand.startswith('..') and os.path.isfile(
                os.path.join(root, cand)):
            return cand
    return None


def runtime_layer(path):
    """The runtime layer of a repository path, or None."""
    parts = path.split('/')
    if parts[:4] == ['runtime', 'include', 'approx', 'runtime'] and \
            len(parts) > 5:
        return parts[4]
    if parts[0] == 'runtime' and len(parts) > 2 and parts[1] != 'include':
        return parts[1]
    return None


def passes_folder(path):
    parts = path.split('/')
    return parts[1] if parts[0] == 'passes' and len(parts) > 2 else None


def runtime_allows(layer, target):
    if target == layer or target == 'core':
        return True
    if layer == 'core':
        return False
    if layer == 'mgpu':
        return True
    if layer == 'tune':
        return False
    return target == 'tune'  # a technique: core, tune, itself


def runtime_rule(layer):
    if layer == 'core':
        return 'core includes only core'
    if layer == 'tune':
        return 'tune includes only core'
    return ('a technique includes core, tune and itself, never another '
            'technique')


def check_runtime(root):
    out = []
    search = ['runtime/core', 'runtime/include', 'include']
    for rel in sources(root, 'runtime'):
        layer = runtime_layer(rel)
        if layer is None:
            continue
        for n, inc in includes(root, rel):
            if inc.startswith('approx/Common/'):
                continue
            if inc.startswith(COMPILER_PREFIXES):
                out.append(Violation(rel, n, inc,
                    f"{layer} includes the compiler's '{inc}' (the runtime "
                    f"does not depend on the compiler)"))
                continue
            target = resolve(root, rel, inc, search)
            tlayer = runtime_layer(target) if target else None
            if tlayer is None or runtime_allows(layer, tlayer):
                continue
            out.append(Violation(rel, n, inc,
                f"{layer} includes {tlayer}'s '{inc}' "
                f"({runtime_rule(layer)})"))
    return out


def check_passes(root):
    out = []
    search = ['passes', 'passes/lns/math', 'include']
    for rel in sources(root, 'passes'):
        folder = passes_folder(rel)
        if folder is None:
            continue
        for n, inc in includes(root, rel):
            if inc.startswith('approx/runtime/'):
                out.append(Violation(rel, n, inc,
                    f"passes/{folder} includes the runtime's '{inc}' (the "
                    f"compiler and the runtime share a file format, not code)"))
                continue
            target = resolve(root, rel, inc, search)
            tfolder = passes_folder(target) if target else None
            if tfolder is None or tfolder in (folder, 'common'):
                continue
            rule = ('common is shared and includes no technique'
                    if folder == 'common' else
                    'a technique includes its own and common\'s headers')
            out.append(Violation(rel, n, inc,
                f"passes/{folder} includes passes/{tfolder}'s '{inc}' "
                f"({rule})"))
    return out


def check(root, allowed=None):
    """(new violations, allowed violations, allow-list entries not seen),
    against `allowed` or else ALLOWED."""
    allowed = ALLOWED if allowed is None else allowed
    found = check_runtime(root) + check_passes(root)
    new = [v for v in found if v.key() not in allowed]
    known = [v for v in found if v.key() in allowed]
    stale = sorted(set(allowed) - {v.key() for v in found})
    return new, known, stale


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default=os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))),
        help='the repository to check (default: this one)')
    args = ap.parse_args(argv)
    new, known, stale = check(args.root)
    for v in known:
        print(f'allowed (to be removed by the registry work): {v}')
    for path, inc in stale:
        print(f"note: ALLOWED lists {path} -> '{inc}', which no longer "
              f'occurs: remove the entry')
    for v in new:
        print(v)
    if new:
        print(f'{len(new)} include(s) cross a layer the wrong way '
              f'(test/layering/check-includes.py says which may)')
        return 1
    print('layering: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
