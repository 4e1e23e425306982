#!/usr/bin/env python3
"""Prints an approx manifest (docs/manifest.md, version 3) as one line per
knob, kernel and site, for FileCheck; checks the format's rules on the way:
the schema (docs/manifest.schema.json, with python's jsonschema) and the
cross references a schema cannot state.

Usage: manifest-summary.py NAME.manifest.json [MORE.manifest.json ...]

Lines (one manifest after another, in file order):
  manifest version=V module=M gpu_module=G chip=C kernels=K sites=S
  configuration KNOB=VALUE;...   (when the build took build knobs)
  recipe id=SHA256 key=SHA256     (when approx-build made it)
  knob NAME kind=K type=T range=MIN..MAX default=D warp_slot=W domain=DOM
      technique=T governs=[KERNEL, ...]
      DOM: ordinal | categorical(ID, ...) | storage(KERNEL:ARG; ID, ...)
  kernel NAME args=(ARG, ...) knobs=[K, ...] sites=N
      ARG: memref<?x4xf32> ACCESS | scalar TYPE | pointer<AS>
  params NAME sizes=[S,S | S | ...]
      byte sizes of the PTX parameters, grouped by argument (` | ` between
      arguments, ` || ` before knob parameters); after all kernel lines
  site OP TYPE form=F knob=K function=F kernels=[K, ...] loc=L reason=R
      sites sorted by loc; paths in loc cut to their base name; `-` for
      an absent key.

Every rule of the format it finds broken is printed to stderr as
`manifest-summary: FILE: ...`, and the exit status is then 1 (after printing
everything, so FileCheck still sees the summary).
"""
import json
import os
import re
import sys

try:
    import jsonschema
except ImportError:  # CI installs python3-jsonschema (scripts/common.sh)
    jsonschema = None

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                      'docs', 'manifest.schema.json')
problems = []


def problem(path, msg):
    problems.append('manifest-summary: %s: %s' % (os.path.basename(path), msg))


def base_loc(loc):
    # "a/b/c.mlir:3:4 (inlined at /x/c.mlir:9:2)" -> "c.mlir:3:4 (inlined at c.mlir:9:2)"
    return re.sub(r'[^\s()]*/([^/\s()]+:\d+)', r'\1', loc)


def arg_text(a):
    kind = a.get('kind')
    if kind == 'memref':
        shape = a.get('shape', [])
        dims = ''.join(('?' if d == -1 else str(d)) + 'x' for d in shape)
        return 'memref<%s%s> %s' % (dims, a.get('element', '?'),
                                    a.get('access', '-'))
    if kind == 'scalar':
        return 'scalar %s' % a.get('type', '?')
    if kind == 'pointer':
        return 'pointer<%s>' % a.get('address_space', '?')
    return 'unknown-kind-%s' % kind


def check_kernel(path, k, nsites):
    name = k.get('name', '?')
    params = k.get('params')
    args = k.get('args')
    if not isinstance(params, list) or not isinstance(args, list):
        problem(path, 'kernel %s: no args/params arrays' % name)
        return
    nxt = 0
    for i, a in enumerate(args):
        if a.get('first_param') != nxt:
            problem(path, 'kernel %s: arg %d starts at param %s, expected %d'
                    % (name, i, a.get('first_param'), nxt))
        n = a.get('num_params', 0)
        if a.get('kind') == 'memref':
            if a.get('access') not in ('read', 'write', 'readwrite', 'none'):
                problem(path, 'kernel %s: arg %d: bad access %r'
                        % (name, i, a.get('access')))
            if a.get('abi') not in ('descriptor', 'bare'):
                problem(path, 'kernel %s: arg %d: bad abi %r'
                        % (name, i, a.get('abi')))
            want = 1 if a.get('abi') == 'bare' else 3 + 2 * a.get('rank', 0)
            if n != want:
                problem(path, 'kernel %s: arg %d: %d params, expected %d'
                        % (name, i, n, want))
            if len(a.get('shape', [])) != a.get('rank'):
                problem(path, 'kernel %s: arg %d: shape does not match rank'
                        % (name, i))
        elif n != 1:
            problem(path, 'kernel %s: arg %d: %d params, expected 1'
                    % (name, i, n))
        for p in params[nxt:nxt + n]:
            if p.get('arg') != i:
                problem(path, 'kernel %s: param of arg %d names arg %s'
                        % (name, i, p.get('arg')))
        nxt += n
    for p in params[nxt:]:
        if p.get('field') != 'knob':
            problem(path, 'kernel %s: param %s after the args is not a knob'
                    % (name, p))
    for s in k.get('sites', []):
        if not isinstance(s, int) or not 0 <= s < nsites:
            problem(path, 'kernel %s: site index %r out of range' % (name, s))


def summarize(path):
    try:
        m = json.load(open(path, encoding='utf-8'))
    except (OSError, ValueError) as e:
        problem(path, 'cannot read: %s' % e)
        return
    if m.get('format') != 'approx-manifest':
        problem(path, 'format is %r' % m.get('format'))
    if m.get('version') != 3:
        problem(path, 'version is %r, expected 3' % m.get('version'))
    if jsonschema is None:
        problem(path, 'python has no jsonschema module to check the schema')
    else:
        schema = json.load(open(SCHEMA, encoding='utf-8'))
        v = jsonschema.Draft202012Validator(schema)
        for e in sorted(v.iter_errors(m), key=lambda e: list(e.path)):
            where = '/'.join(str(x) for x in e.path) or '(top)'
            problem(path, 'schema: %s: %s' % (where, e.message[:200]))
    image = m.get('ptx') or m.get('cubin')
    if not image:
        problem(path, 'neither ptx nor cubin')
    elif not os.path.exists(os.path.join(os.path.dirname(path), image)):
        problem(path, 'image %s does not exist' % image)
    kernels = m.get('kernels', [])
    sites = m.get('sites', [])
    knobs = m.get('knobs', [])
    print('manifest version=%s module=%s gpu_module=%s chip=%s kernels=%d '
          'sites=%d' % (m.get('version'), m.get('module'),
                        m.get('gpu_module', '-'), m.get('chip', '-'),
                        len(kernels), len(sites)))
    build = {kn.get('name'): kn for kn in knobs if kn.get('kind') == 'build'}
    config = m.get('configuration')
    if config is not None:
        print('configuration ' + ';'.join('%s=%s' % (k, config[k])
                                          for k in sorted(config)))
    if sorted(config or {}) != sorted(build):
        problem(path, 'configuration names %s, but the build knobs are %s'
                % (sorted(config or {}), sorted(build)))
    for k, v in (config or {}).items():
        ids = [x.get('id') for x in
               build.get(k, {}).get('domain', {}).get('values', [])]
        if k in build and v not in ids:
            problem(path, 'configuration: %s is not a value of build knob %s'
                    % (v, k))
    recipe = m.get('recipe')
    if recipe is not None:
        print('recipe id=%s key=%s' % (recipe.get('id'), recipe.get('key')))
    knob_names = set()
    for kn in knobs:
        knob_names.add(kn.get('name'))
        lo, hi, d = kn.get('min'), kn.get('max'), kn.get('default')
        if not (isinstance(lo, int) and isinstance(hi, int)
                and isinstance(d, int) and lo <= d <= hi):
            problem(path, 'knob %s: bad range or default' % kn.get('name'))
        dom = kn.get('domain', {})
        values = dom.get('values', [])
        if dom.get('kind') in ('categorical', 'storage') and \
                isinstance(lo, int) and isinstance(hi, int) and \
                len(values) != hi - lo + 1:
            problem(path, 'knob %s: %d values for range %s..%s'
                    % (kn.get('name'), len(values), lo, hi))
        ids = ', '.join(str(v.get('id')) for v in values)
        if dom.get('kind') == 'storage':
            o = dom.get('object', {})
            text = 'storage(%s:%s; %s)' % (o.get('kernel'), o.get('arg'), ids)
        elif dom.get('kind') == 'categorical':
            text = 'categorical(%s)' % ids
        else:
            text = dom.get('kind', '-')
        governs = kn.get('governs', {})
        print('knob %s kind=%s type=%s range=%s..%s default=%s warp_slot=%s '
              'domain=%s technique=%s governs=[%s]'
              % (kn.get('name'), kn.get('kind', '-'), kn.get('type', '-'),
                 lo, hi, d, kn.get('warp_slot', '-'), text,
                 kn.get('technique', '-'),
                 ', '.join(governs.get('kernels', []))))
    for k in kernels:
        check_kernel(path, k, len(sites))
        for kn in k.get('knobs', []):
            if kn not in knob_names:
                problem(path, 'kernel %s reads undeclared knob %s'
                        % (k.get('name'), kn))
        print('kernel %s args=(%s) knobs=[%s] sites=%d'
              % (k.get('name'), ', '.join(arg_text(a) for a in k.get('args', [])),
                 ', '.join(k.get('knobs', [])), len(k.get('sites', []))))
    for k in kernels:
        groups = {}
        knob_sizes = []
        for p in k.get('params', []):
            if p.get('field') == 'knob':
                knob_sizes.append(str(p.get('size')))
            else:
                groups.setdefault(p.get('arg'), []).append(str(p.get('size')))
        text = ' | '.join(','.join(groups[a]) for a in sorted(groups))
        if knob_sizes:
            text += ' || ' + ','.join(knob_sizes)
        print('params %s sizes=[%s]' % (k.get('name'), text))
    kernel_names = {k.get('name') for k in kernels}
    for kn in knobs:
        governs = kn.get('governs', {})
        readers = sorted(k.get('name') for k in kernels
                         if kn.get('name') in k.get('knobs', []))
        if sorted(governs.get('kernels', [])) != readers:
            problem(path, 'knob %s governs kernels %s, but %s read it'
                    % (kn.get('name'), governs.get('kernels'), readers))
        named = sorted(i for i, s in enumerate(sites)
                       if s.get('knob') == kn.get('name'))
        if sorted(governs.get('sites', [])) != named:
            problem(path, 'knob %s governs sites %s, but sites %s name it'
                    % (kn.get('name'), governs.get('sites'), named))
    lines = []
    for i, s in enumerate(sites):
        form = s.get('form')
        if s.get('technique') is None:
            problem(path, 'site %d has no technique' % i)
        if form not in ('tunable', 'sfu', 'precise', 'fast', 'approximate',
                        'correct'):
            problem(path, 'site %d: form is %r' % (i, form))
        if form in ('sfu', 'precise', 'fast', 'approximate') and not s.get('reason'):
            problem(path, 'site %d (%s %s, form %s) has no reason'
                    % (i, s.get('op'), s.get('type'), form))
        if form == 'tunable' and s.get('knob') not in knob_names:
            problem(path, 'site %d is tunable but its knob %r is not declared'
                    % (i, s.get('knob')))
        for kn in s.get('kernels', []):
            if kn not in kernel_names:
                problem(path, 'site %d names unknown kernel %s' % (i, kn))
            else:
                k = next(k for k in kernels if k.get('name') == kn)
                if i not in k.get('sites', []):
                    problem(path, 'site %d names kernel %s, which does not '
                            'list it' % (i, kn))
        loc = base_loc(s.get('loc', '-'))
        lines.append((loc, 'site %s %s form=%s knob=%s function=%s '
                      'kernels=[%s] loc=%s reason=%s'
                      % (s.get('op'), s.get('type'), form or '-',
                         s.get('knob', '-'), s.get('function', '-'),
                         ', '.join(s.get('kernels', [])), loc,
                         s.get('reason', '-'))))

    def line_key(item):
        m = re.match(r'[^:]*:(\d+):(\d+)', item[0])
        return (int(m.group(1)), int(m.group(2)), item[0]) if m else (0, 0, item[0])
    for _, line in sorted(lines, key=line_key):
        print(line)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        summarize(path)
    for p in problems:
        print(p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
