#!/usr/bin/env python3
"""coremath-check.py WC CORE_MATH_WC LO HI Q EPS: every CORE-MATH case in
the searched domain must be in the search's .wc.

For each argument x of the CORE-MATH list (hex floats; '#' lines skipped)
with LO <= x < HI, exp(x) is evaluated with mpmath at 400 bits and its
distance to the nearest precision-Q number (ulps of that precision, in
exp(x)'s binade) compared with EPS: every listed x within EPS must be a case
the search wrote. Prints one summary line; exit 1 if any is missing.
"""
import sys

import mpmath


def args_of(path):
    out = []
    for line in open(path):
        line = line.split("#")[0].strip()
        if line:
            out.append(float.fromhex(line.split()[0]))
    return out


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    wc, cm, lo, hi, q, eps = sys.argv[1:]
    lo, hi, q, eps = float.fromhex(lo), float.fromhex(hi), int(q), float.fromhex(eps)
    found = set()
    for line in open(wc):
        if not line.startswith("#") and line.strip():
            found.add(float.fromhex(line.split()[0]))
    mpmath.mp.prec = 400
    listed = [x for x in args_of(cm) if lo <= x < hi]
    within = missing = 0
    for x in listed:
        y = mpmath.exp(mpmath.mpf(x))
        e = int(mpmath.floor(mpmath.log(abs(y), 2)))
        F = abs(y) * mpmath.mpf(2) ** (q - 1 - e)
        d = abs(F - mpmath.nint(F))
        if d < eps:
            within += 1
            if x not in found:
                missing += 1
                print(f"missing: {x.hex()} (2^{float(mpmath.log(d, 2)):.2f} ulp)")
    print(f"coremath-check: {len(listed)} CORE-MATH cases in [{lo.hex()}, "
          f"{hi.hex()}), {within} within {eps.hex()} ulp_{q}, "
          f"{within - missing} found, {missing} missing; the search found "
          f"{len(found)} cases")
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
