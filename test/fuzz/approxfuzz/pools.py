"""Value pools the generators draw from: hostile names, boundary numbers,
approx-to-ptx option values (benign, and ones to refuse or survive), and the
sandbox files an odd option value needs to exist."""

from .sandbox import DECOY_FILE


HOSTILE_NAMES = [
    "a-b", "a/b", "a%b", "a@b", "a b", 'a"b', "a'b", "a.b", "1abc", "",
    "\u03bb", "a\u202eb", "a\x1b[31mb", "a\nb", "a\tb", "a\rb", "$a", "_a",
    "%a", "a$b", "llvm.x", "ret", "reg", ".entry", "a{b", "a}b", "a,b", "a=b",
    "a;b", "a\\b", "a\x01b", "a\x7fb", "\u00e9\U0001F600", "-", "--help",
    "a" * 1024, "a" * 1025, "n" * 300, "z" * 100000, "con", "lambda",
    "box_muller_gpu", "..", "../x", "a:b", "a*b",
]
BOUNDARY_INTS = [
    "0", "-1", "1", "2", "3", "4", "63", "64", "65", "127", "128", "255",
    "1024", "65535", "65536", "2147483647", "2147483648", "-2147483648",
    "-2147483649", "4294967295", "4294967296", "4294967297",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "340282366920938463463374607431768211456",
]
BOUNDARY_NUMS = BOUNDARY_INTS + ["1.0e309", "-0.0", "1.5", "0x7FC00000",
                                 "0xFFFFFFFFFFFFFFFF", "nan", "1e-400"]


# approx-to-ptx options: benign values, and values that must be refused or
# survived. Values with placeholders get their sandbox files from ODD_FILES.
OPT_BENIGN = {
    "slot": ["hw", "virtual", "software"],
    "f64-demote": ["true", "false"],
    "range-reduction": ["true", "false"],
    "newton-steps": ["0", "1", "2", "3"],
    "fmad": ["true", "false"],
    "functions": ["sin,exp", "log", "div,rcp", "sqrt,rsqrt", "pow,cos"],
    "correct": ["exp,log", "exp2", "log2,exp", "exp,exp2,log,log2"],
    "knob": ["lambda", "tune", "k_1", "$k"],
    "knob-max": ["64", "32", "1"],
    "O": ["0", "1", "2", "3"],
    "chip": ["sm_90", "sm_80"],
    "unroll-versioned": ["0", "2", "4", "64"],
    "unroll-ptxas": ["true", "false"],
    "hoist-loads": ["true", "false"],
}
OPT_BAD = {
    "knob": HOSTILE_NAMES,
    "name": HOSTILE_NAMES + ["../../x", "../../../../x", "@ROOT@/abs", ".",
                             "x.ptx", ".hidden", "sub/x", "@DECOY@/victim"],
    "kernels": ["nope", ",,", "box_muller_gpu,box_muller_gpu", "a-b", "",
                ",".join(["k"] * 5000), "\x1b[2J", "*"],
    "functions": ["tan", "SIN", "", ",", "sin,sin", "sin,,exp", "all", "x" * 5000],
    "correct": ["sin", "EXP", "", ",", "exp,,log", "pow", "x" * 5000],
    "knob-max": ["-1", "0", "abc", "1e3", "0x10", "", "1.5"] + BOUNDARY_INTS,
    "newton-steps": ["-1", "4", "4294967296", "abc", "", "3.0"],
    "slot": ["HW", "", "lane", "hw,virtual", "\x1b[1m"],
    "chip": ["sm_20", "sm_1", "sm_999", "gfx90a", "", "sm_90 ", "sm_90a",
             "sm_100", "sm_52", "native", "-O3", "sm_" + "9" * 40],
    "O": ["-1", "4", "99999999999", "x", ""],
    "libdevice": ["@ROOT@/missing.bc", "@IN@", "/dev/null", "/dev/zero",
                  "@IN@/empty.bc", "@IN@/text.bc", "@IN@/trunc.bc",
                  "@IN@/fifo.bc", "@IN@/sparse.bc", "@IN@/loop.bc"],
    "output-dir": ["@ROOT@/missing", "@IN@/file.txt", "@OUT@/../outlink",
                   "@OUT@/../dangling", "@OUT@/../filelink", "", "/dev/null",
                   "@OUT@/" + "d" * 300, "@IN@/fifo.bc"],
    "cubin": ["true", "yes", "2"],
    "export": ["false", "maybe", ""],
    "f64-demote": ["maybe", "", "2"],
    "bare-ptr": ["true", "maybe"],
    "unroll-versioned": ["1", "65", "-1", "4294967296", "x", ""],
    "unroll-ptxas": ["maybe", "2"],
    "hoist-loads": ["maybe", ""],
    "fmad": ["no", "-1"],
    "ptxas": ["@ROOT@/missing-ptxas", "@IN@", "@TOOLS@/ptxas-false",
              "@TOOLS@/ptxas-true", "@TOOLS@/ptxas-junk", "@TOOLS@/ptxas-loud",
              "@TOOLS@/ptxas-segv", "@DECOY@/victim.txt", "/bin/false"],
}
PTXAS_FAKES = {
    "ptxas-false": "#!/bin/sh\necho 'ptxas fatal   : fake failure' >&2\nexit 1\n",
    "ptxas-true": "#!/bin/sh\nexit 0\n",
    "ptxas-junk": ('#!/bin/sh\nwhile [ $# -gt 0 ]; do\n  if [ "$1" = -o ]; then'
                   ' shift; printf junk > "$1"; fi\n  shift\ndone\nexit 0\n'),
    "ptxas-loud": ("#!/bin/sh\ni=0\nwhile [ $i -lt 2000 ]; do echo 'ptxas "
                   "warning: noise noise noise noise noise' >&2; i=$((i+1)); "
                   "done\nexit 1\n"),
    "ptxas-segv": "#!/bin/sh\nkill -SEGV $$\n",
}
SPARSE_SIZE = 1 << 40  # 1 TiB, allocated lazily: costs nothing unless read


def odd_file_setup(value):
    """Sandbox setup actions that make an odd-file option value exist."""
    acts = []
    if "@IN@/empty.bc" in value:
        acts.append(("write", "@IN@/empty.bc", ""))
    if "@IN@/text.bc" in value:
        acts.append(("write", "@IN@/text.bc", "this is not bitcode\n"))
    if "@IN@/trunc.bc" in value:
        acts.append(("trunc-libdevice", "@IN@/trunc.bc"))
    if "@IN@/fifo.bc" in value:
        acts.append(("fifo", "@IN@/fifo.bc"))
    if "@IN@/sparse.bc" in value:
        acts.append(("sparse", "@IN@/sparse.bc", SPARSE_SIZE))
    if "@IN@/loop.bc" in value:
        acts.append(("symlink", "@IN@/loop.bc", "@IN@/loop.bc"))
    if "@IN@/file.txt" in value:
        acts.append(("write", "@IN@/file.txt", "a file, not a directory\n"))
    if "outlink" in value:
        acts.append(("symlink", "@OUT@", "@OUT@/../outlink"))
    if "dangling" in value:
        acts.append(("symlink", "@ROOT@/nowhere", "@OUT@/../dangling"))
    if "filelink" in value:
        acts.append(("symlink", "@ROOT@/" + DECOY_FILE, "@OUT@/../filelink"))
    for fake, text in PTXAS_FAKES.items():
        if f"@TOOLS@/{fake}" in value:
            acts.append(("script", f"@TOOLS@/{fake}", text))
    return acts
