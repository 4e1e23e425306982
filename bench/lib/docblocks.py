"""docblocks.py - generated blocks of a docs page, between markers.

A page holds each generated block between '<!-- TAG:NAME -->' and
'<!-- /TAG:NAME -->' (scripts/manifest-doc.py: TAG schema; bench/hrcs/
report.py: TAG report). main() gives a generator script its command line:

  SCRIPT [--write | --check] [--docs PAGE]

--write replaces the blocks in the page; --check (CI) fails, naming each
block that differs or is missing; with neither, the blocks are printed.
"""
import argparse
import difflib
import os
import re
import sys


def update(text, tag, blocks, names, source):
    """(new text, problems): each block of `names` replaced in `text` by
    blocks[name]. A problem names a block the page lacks, one the generator
    lacks, or one whose text differs from what `source` gives."""
    new, bad = text, []
    for name in names:
        if name not in blocks:
            bad.append(f"{name}: {source} has no block '{name}'")
            continue
        # A block inside a list item is indented as its opening marker.
        pat = re.compile(r"^([ \t]*)<!-- %s:%s -->\n(.*?)^\1<!-- /%s:%s -->" %
                         (tag, re.escape(name), tag, re.escape(name)), re.S | re.M)
        m = pat.search(new)
        if not m:
            bad.append(f"{name}: no '<!-- {tag}:{name} -->' ... "
                       f"'<!-- /{tag}:{name} -->' block")
            continue
        want = "".join(m.group(1) + line if line.strip() else line
                       for line in blocks[name].splitlines(True))
        if m.group(2) != want:
            diff = difflib.unified_diff(m.group(2).splitlines(True), want.splitlines(True),
                                        "page", source, n=0)
            bad.append(f"{name}: the table differs from {source}:\n"
                       + "".join(diff).rstrip("\n"))
        new = new[:m.start(2)] + want + new[m.end(2):]
    return new, bad


def main(tool, tag, docs, make_blocks, source, names_from_page=False):
    """The command line of a generator: `make_blocks()` gives NAME -> text.
    The blocks updated are those the page marks that the generator makes
    (`names_from_page`: a page may hold several generators' blocks;
    bench/docs-tables.py checks that some generator makes each one), or all
    the generator makes. --list prints the names it makes."""
    ap = argparse.ArgumentParser(prog=tool)
    ap.add_argument("--docs", default=docs)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    g.add_argument("--list", action="store_true")
    a = ap.parse_args()
    blocks = make_blocks()
    if a.list:
        print("\n".join(blocks))
        return
    text = open(a.docs, encoding="utf-8").read()
    names = (sorted(set(re.findall(r"<!-- %s:([A-Za-z0-9-]+) -->" % tag, text)) & set(blocks))
             if names_from_page else list(blocks))
    new, bad = update(text, tag, blocks, names, source)
    if a.write:
        open(a.docs, "w", encoding="utf-8").write(new)
        bad = [b for b in bad if "differs" not in b]  # written now
    elif not a.check:
        for name, t in blocks.items():
            print(f"<!-- {tag}:{name} -->\n{t}")
        return
    for b in bad:
        print(f"{tool}: {b}", file=sys.stderr)
    sys.exit(1 if bad else 0)


def take_path_options(prog, options, kind):
    """Takes a generator's own options off sys.argv before main() reads the
    rest: `options` maps each option ('--scale-run') to the name of what it
    sets; each takes a path to an existing directory (`kind` 'dir') or file
    ('file'). Returns {name: path} for the options given; a path that is not
    there is one line naming it and exit 2."""
    exists, what = {"dir": (os.path.isdir, "no such directory"),
                    "file": (os.path.isfile, "no such file")}[kind]
    ap = argparse.ArgumentParser(prog=prog, add_help=False, allow_abbrev=False)
    for opt, name in options.items():
        ap.add_argument(opt, dest=name)
    a, sys.argv[1:] = ap.parse_known_args()
    given = {}
    for opt, name in options.items():
        path = getattr(a, name)
        if path is None:
            continue
        if not exists(path):
            print(f"{prog}: {opt} {path}: {what}", file=sys.stderr)
            sys.exit(2)
        given[name] = path
    return given
