#!/usr/bin/env python3
"""no-early-exit-pipes.py - no lit RUN line pipes into a reader that stops early.

lit runs RUN lines under `set -o pipefail`. In `producer | head -1` the reader
exits after the first line; if the producer then writes again it is killed by
SIGPIPE, the pipeline's status is 141, and the test fails - only now and then,
depending on buffering and timing (test/Pipeline/split-loops.test did, with
`sed ... | grep -m1 ... | FileCheck`).

The rule: in a pipeline, no stage after the first (a stage that reads a pipe)
may be a reader that can stop before its input ends:
  head                      (any options)
  grep -m N / --max-count   (also egrep, fgrep)
  grep -q / --quiet / --silent
  grep -l / -L / --files-with(out)-match(es)
  sed with a q or Q command (`sed -n '/x/{p;q}'`, `sed 5q`)
  awk with `exit` in its program
  read, dd count=N
`not grep ...` is let through: `not` expects no match, and grep without a
match reads to the end. Reading a file is fine (`grep -m1 x %t/f | FileCheck`:
grep is the first stage). The fix: write the producer's output to a %t file
and run the reader on the file, or use a reader that reads to the end
(`awk '/x/ && !n++'` for `grep -m1 x`, `sed -n 1p` for `head -1`).

Each offence is one line on stdout: `FILE:LINE: ...`; the exit status is then
1. RUN:, DEFINE: and REDEFINE: lines are read the way lit reads them (a
keyword anywhere on the line, `\\` continuing onto the next keyword line);
pipelines inside $(...), `...`, ( ... ), { ...; } and `sh -c '...'` are
checked too. A group after a pipe is judged by its last command (it holds the
pipe open until that one is done): `| (head -1)` is refused.

  no-early-exit-pipes.py [PATH ...]

A directory is walked for lit's test files (the suffixes and excluded names
of the lit.cfg.py at its root, or of test/lit.cfg.py next to this script,
and of each lit.local.cfg below); a file is checked whatever its name.
Without a PATH: the test/ folder this script lives in.
"""
import ast
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TEST_ROOT = os.path.dirname(HERE)

# lit's built-in keywords (TestRunner.parseIntegratedTestScript): the regex
# has them all, so that a line is read as the first keyword on it, as lit does.
KEYWORDS = ["RUN:", "XFAIL:", "REQUIRES:", "UNSUPPORTED:", "ALLOW_RETRIES:",
            "END.", "DEFINE:", "REDEFINE:"]
KEYWORDS_RE = re.compile(
    "(%s)(.*)$" % "|".join(re.escape(k) for k in KEYWORDS))
COMMAND_KEYWORDS = ("RUN:", "DEFINE:", "REDEFINE:")


class Text:
    """A string with the line number of each character (continued lines)."""

    def __init__(self, chars, lines):
        self.chars = chars
        self.lines = lines

    def line_at(self, i):
        if not self.lines:
            return 0
        return self.lines[min(max(i, 0), len(self.lines) - 1)]

    def sub(self, a, b):
        return Text(self.chars[a:b], self.lines[a:b])


def directives(path):
    """(keyword, Text) for each RUN:/DEFINE:/REDEFINE: directive of a file,
    continuation lines joined as lit joins them."""
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", errors="replace")
    out = []
    for number, raw in enumerate(data.split("\n"), start=1):
        m = KEYWORDS_RE.search(raw)
        if not m:
            continue
        keyword, rest = m.group(1), m.group(2).rstrip("\r")
        if keyword == "END." and not rest.strip():
            break
        if keyword not in COMMAND_KEYWORDS:
            continue
        if out and out[-1][0] == keyword and out[-1][1].chars.rstrip().endswith("\\"):
            prev = out[-1][1]
            body = prev.chars.rstrip()
            chars = body[:-1] + " " + rest.strip()
            lines = prev.lines[:len(body) - 1] + [number] * (len(rest.strip()) + 1)
            out[-1] = (keyword, Text(chars, lines))
            continue
        text = rest.strip()
        out.append((keyword, Text(text, [number] * len(text))))
    result = []
    for keyword, text in out:
        if keyword != "RUN:":
            # DEFINE: %{name} = value: the value is a piece of a command.
            eq = text.chars.find("=")
            if eq < 0:
                continue
            text = text.sub(eq + 1, len(text.chars))
        result.append(text)
    return result


# --- a small shell reader: enough of bash's syntax to find pipelines -------

OPERATORS = ("||", "&&", "|&", ";;", "|", "&", ";", "\n")


def split_commands(text, nested):
    """Splits a command line into pipelines, each a list of stages, each a
    (Text of the stage, list of word strings). Bodies of $(...), `...`,
    ( ... ) and { ...; } groups are added to `nested` to be checked on their
    own; a group is one word here."""
    s = text.chars
    n = len(s)
    pipelines = [[]]
    stage_start = 0
    words = []
    word = None  # current word under construction, or None
    i = 0

    def end_word():
        nonlocal word
        if word is not None:
            words.append(word)
            word = None

    def end_stage(at):
        nonlocal stage_start, words
        end_word()
        pipelines[-1].append((text.sub(stage_start, at), words))
        words = []

    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n:
            word = (word or "") + s[i + 1]
            i += 2
            continue
        if c == "'":
            j = s.find("'", i + 1)
            j = n if j < 0 else j
            word = (word or "") + s[i + 1:j]
            i = j + 1
            continue
        if c == '"':
            j = i + 1
            buf = ""
            while j < n and s[j] != '"':
                if s[j] == "\\" and j + 1 < n and s[j + 1] in '"\\$`':
                    buf += s[j + 1]
                    j += 2
                    continue
                if s[j] == "$" and s.startswith("$(", j):
                    k = matching_paren(s, j + 1)
                    nested.append(text.sub(j + 2, k))
                    buf += s[j:k + 1]
                    j = k + 1
                    continue
                buf += s[j]
                j += 1
            word = (word or "") + buf
            i = j + 1
            continue
        if c == "`":
            j = s.find("`", i + 1)
            j = n if j < 0 else j
            nested.append(text.sub(i + 1, j))
            word = (word or "") + s[i:j + 1]
            i = j + 1
            continue
        if c == "$" and s.startswith("$(", i):
            k = matching_paren(s, i + 1)
            nested.append(text.sub(i + 2, k))
            word = (word or "") + s[i:k + 1]
            i = k + 1
            continue
        if c == "(" and word is None:
            # A subshell group (or <(...) / >(...) process substitution):
            # its body is checked on its own; here it is one word.
            k = matching_paren(s, i)
            nested.append(text.sub(i + 1, k))
            words.append("(" + s[i + 1:k] + ")")
            i = k + 1
            continue
        if (c == "{" and word is None and i + 1 < n and s[i + 1] in " \t"):
            # A brace group { ...; }: like a subshell group.
            k = matching_brace(s, i)
            nested.append(text.sub(i + 1, k))
            words.append("{" + s[i + 1:k] + "}")
            i = k + 1
            continue
        if c in " \t":
            end_word()
            i += 1
            continue
        if c == "#" and word is None:
            break  # a comment to the end of the line
        op = next((o for o in OPERATORS if s.startswith(o, i)), None)
        if op in ("|", "|&"):
            end_stage(i)
            i += len(op)
            stage_start = i
            continue
        if op is not None:
            if op == "&" and s.startswith("&>", i):
                i += 1  # &>file: a redirection, read below
                continue
            end_stage(i)
            pipelines.append([])
            i += len(op)
            stage_start = i
            continue
        if c in "<>":
            # A redirection: keep it out of the command's words.
            end_word()
            j = i
            while j < n and s[j] in "<>&|":
                j += 1
            while j < n and s[j] in " \t":
                j += 1
            if j < n and s[j] == "(":  # process substitution <(...)
                i = j
                continue
            # Skip the target word (with the same quoting rules, roughly).
            k = j
            while k < n and s[k] not in " \t|;&<>()":
                if s[k] in "'\"":
                    q = s.find(s[k], k + 1)
                    k = n if q < 0 else q + 1
                else:
                    k += 1
            i = k
            continue
        if word is None and c.isdigit():
            # `2>` and the like: a digit run right before < or >.
            j = i
            while j < n and s[j].isdigit():
                j += 1
            if j < n and s[j] in "<>":
                i = j
                continue
        word = (word or "") + c
        i += 1
    end_stage(n)
    # A stage may be empty (a DEFINE: value `| head -1` is a pipe's tail).
    return [p for p in pipelines if any(words for _, words in p)]


def _matching(s, i, opens, closes):
    """Index of the token closing the one opened at i: `opens(s, j)` and
    `closes(s, j)` say whether position j opens or closes a level (quoted
    text and escaped characters are skipped); len(s) if none does."""
    depth = 0
    j = i
    n = len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c in "'\"":
            q = s.find(c, j + 1)
            j = n if q < 0 else q + 1
            continue
        if opens(s, j):
            depth += 1
        elif closes(s, j):
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return n


def _word_start(s, j):
    return j == 0 or s[j - 1] in " \t;|&("


def matching_brace(s, i):
    """Index of the '}' word closing the '{' word at i (quotes respected)."""
    n = len(s)
    return _matching(
        s, i,
        lambda s, j: _word_start(s, j) and s[j] == "{" and (j + 1 >= n or s[j + 1] in " \t"),
        lambda s, j: _word_start(s, j) and s[j] == "}" and (j + 1 >= n or s[j + 1] in " \t;|&)<>"))


def matching_paren(s, i):
    """Index of the ')' closing the '(' at i (quotes respected)."""
    return _matching(s, i, lambda s, j: s[j] == "(", lambda s, j: s[j] == ")")


# --- which commands stop reading early ---------------------------------------

def strip_wrappers(words):
    """The command under `not`, `env`, `timeout`, VAR=value and the like.
    Returns (words, negated)."""
    negated = False
    i = 0
    while i < len(words):
        w = words[i]
        base = os.path.basename(w)
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w):
            i += 1
        elif base in ("not", "%not"):
            negated = not negated
            i += 1
            while i < len(words) and words[i].startswith("--"):
                i += 1  # not --crash
        elif base == "env":
            i += 1
            while i < len(words) and (words[i].startswith("-") or "=" in words[i]):
                i += 2 if words[i] in ("-u", "--unset", "-C", "--chdir") else 1
        elif base == "timeout":
            i += 1
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in ("-s", "-k", "--signal", "--kill-after") else 1
            i += 1  # the duration
        elif base in ("nice", "stdbuf", "command", "exec", "time"):
            i += 1
            while i < len(words) and words[i].startswith("-"):
                i += 2 if words[i] in ("-n",) else 1
        else:
            break
    return words[i:], negated


GREP_ARG_OPTS = set("efmABCdD")
GREP_LONG_ARG = ("--regexp", "--file", "--max-count", "--after-context",
                 "--before-context", "--context", "--directories", "--devices",
                 "--label", "--include", "--exclude", "--exclude-dir",
                 "--exclude-from", "--color", "--colour", "--binary-files")


def grep_early(args):
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            break
        if a.startswith("--"):
            name = a.split("=", 1)[0]
            if name in ("--quiet", "--silent"):
                return "grep " + a
            if name in ("--files-with-matches", "--files-without-match"):
                return "grep " + a
            if name == "--max-count":
                return "grep " + a
            if name in GREP_LONG_ARG and "=" not in a:
                i += 1
        elif a.startswith("-") and len(a) > 1:
            for k, ch in enumerate(a[1:]):
                if ch in "qlLm":
                    return "grep " + a
                if ch in GREP_ARG_OPTS:
                    if k == len(a) - 2:
                        i += 1  # the argument is the next word
                    break
        i += 1
    return None


def sed_scripts(args):
    scripts = []
    plain = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-e", "--expression"):
            if i + 1 < len(args):
                scripts.append(args[i + 1])
            i += 2
            continue
        if a.startswith("--expression="):
            scripts.append(a.split("=", 1)[1])
        elif a in ("-f", "--file", "-l", "--line-length"):
            i += 1
        elif a.startswith("-e") and len(a) > 2 and not a.startswith("--"):
            scripts.append(a[2:])
        elif a.startswith("-") and len(a) > 1:
            pass
        else:
            plain.append(a)
        i += 1
    if not scripts and plain:
        scripts.append(plain[0])
    return scripts


def sed_quits(script):
    """Whether a sed script has a q or Q command (a small sed parser:
    addresses, s and y arguments, labels and text arguments are skipped)."""
    s = script
    n = len(s)
    i = 0

    def skip_regex(i, delim):
        # s[i] is just after the opening delimiter.
        while i < n and s[i] != delim:
            if s[i] == "\\":
                i += 1
            elif s[i] == "\n":
                break
            i += 1
        return i + 1

    def skip_address(i):
        if i < n and s[i] == "/":
            i = skip_regex(i + 1, "/")
        elif i + 1 < n and s[i] == "\\":
            i = skip_regex(i + 2, s[i + 1])
        elif i < n and (s[i].isdigit() or s[i] == "$"):
            while i < n and (s[i].isdigit() or s[i] in "$~+"):
                i += 1
            return i
        else:
            return i
        while i < n and s[i] in "IM":  # regex flags
            i += 1
        return i

    while i < n:
        while i < n and s[i] in " \t\n;{}":
            i += 1
        if i >= n:
            break
        i = skip_address(i)
        while i < n and s[i] in " \t":
            i += 1
        if i < n and s[i] == ",":
            i += 1
            while i < n and s[i] in " \t":
                i += 1
            i = skip_address(i)
        while i < n and s[i] in " \t!":
            i += 1
        if i >= n:
            break
        cmd = s[i]
        i += 1
        if cmd in "qQ":
            return True
        if cmd in "sy" and i < n:
            delim = s[i]
            i = skip_regex(i + 1, delim)
            i = skip_regex(i, delim)
            while i < n and s[i] not in ";}\n":  # flags, w FILE
                if s[i] == "w":
                    while i < n and s[i] != "\n":
                        i += 1
                    break
                i += 1
        elif cmd in "aic":
            # Text to the end of the line (GNU one-liner form).
            while i < n and s[i] != "\n":
                if s[i] == "\\":
                    i += 1
                i += 1
        elif cmd in "rRwWbtTe:v":
            while i < n and s[i] not in (";\n" if cmd in "btT" else "\n"):
                i += 1
        elif cmd == "#":
            while i < n and s[i] != "\n":
                i += 1
        elif cmd in "{}":
            pass
        else:
            # p, d, n, N, g, G, h, H, x, l, =, z, F, P, D ...
            while i < n and s[i] in " \t0123456789":
                i += 1
    return False


def awk_program(args):
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-F", "-v", "-f"):
            if a == "-f":
                return None
            i += 2
            continue
        if a == "--":
            return args[i + 1] if i + 1 < len(args) else None
        if a.startswith("-") and len(a) > 1:
            i += 1
            continue
        return a
    return None


def early_reader(words):
    """A short description of why this command can stop before its input
    ends, or None."""
    words, negated = strip_wrappers(words)
    if not words:
        return None
    cmd = os.path.basename(words[0])
    args = words[1:]
    if cmd in ("sh", "bash", "dash", "zsh") and "-c" in args:
        return None  # its script is checked as a nested command line
    if (words[0][:1], words[0][-1:]) in (("(", ")"), ("{", "}")) and len(words[0]) > 2:
        # A group reads its pipe until its last command is done: that one
        # decides (`(head -1)` stops early, `{ read x; cat; }` does not).
        body = words[0][1:-1]
        pipelines = [p for p in split_commands(Text(body, [0] * len(body)), []) if p]
        if pipelines:
            return early_reader(pipelines[-1][0][1])
        return None
    if cmd == "head":
        return "head"
    if cmd in ("grep", "egrep", "fgrep"):
        why = grep_early(args)
        if why and negated:
            return None  # `not grep`: no match expected, so it reads to the end
        return why
    if cmd in ("sed", "gsed"):
        for script in sed_scripts(args):
            if sed_quits(script):
                return "sed q"
        return None
    if cmd in ("awk", "gawk", "mawk", "nawk"):
        prog = awk_program(args)
        if prog and re.search(r"\bexit\b", prog):
            return "awk exit"
        return None
    if cmd in ("read", "line"):
        return cmd
    if cmd == "dd" and any(a.startswith("count=") for a in args):
        return "dd " + next(a for a in args if a.startswith("count="))
    return None


def check_text(path, text, problems, depth=0):
    nested = []
    for pipeline in split_commands(text, nested):
        for k, (stage, words) in enumerate(pipeline):
            # sh -c '...': the script is a command line of its own.
            inner, _ = strip_wrappers(words)
            if inner and os.path.basename(inner[0]) in ("sh", "bash", "dash", "zsh"):
                if "-c" in inner and inner.index("-c") + 1 < len(inner):
                    script = inner[inner.index("-c") + 1]
                    line = stage.line_at(0)
                    nested.append(Text(script, [line] * len(script)))
            if k == 0:
                continue
            why = early_reader(words)
            if why:
                lead = len(stage.chars) - len(stage.chars.lstrip())
                shown = " ".join(stage.chars.split())
                if len(shown) > 60:
                    shown = shown[:57] + "..."
                problems.append(
                    "%s:%d: `| %s` can stop reading its pipe early (%s): the "
                    "writer may die of SIGPIPE, exit 141 under lit's pipefail; "
                    "write the output to a %%t file and read that"
                    % (path, stage.line_at(lead), shown, why))
    if depth < 8:
        for t in nested:
            check_text(path, t, problems, depth + 1)


def check_file(path, shown, problems):
    for text in directives(path):
        check_text(shown, text, problems)


def lit_settings(cfg, suffixes, excludes):
    """config.suffixes and config.excludes after the lit config file cfg
    (literal values only: `=`, `+=`, .append, .add, .extend), starting from
    what the parent folder's config left."""
    with open(cfg) as f:
        tree = ast.parse(f.read(), cfg)
    found = {"suffixes": set(suffixes), "excludes": set(excludes)}

    def attr(t):
        if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                and t.value.id == "config" and t.attr in found):
            return t.attr
        return None

    for node in ast.walk(tree):
        try:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and attr(node.targets[0]):
                found[attr(node.targets[0])] = set(ast.literal_eval(node.value))
            elif isinstance(node, ast.AugAssign) and attr(node.target):
                found[attr(node.target)] |= set(ast.literal_eval(node.value))
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and attr(node.func.value) and node.args):
                value = ast.literal_eval(node.args[0])
                if node.func.attr in ("append", "add"):
                    found[attr(node.func.value)].add(value)
                elif node.func.attr in ("extend", "update"):
                    found[attr(node.func.value)] |= set(value)
        except ValueError:
            sys.exit("no-early-exit-pipes: %s:%d: config.suffixes or "
                     "config.excludes is not a literal" % (cfg, node.lineno))
    return found["suffixes"], found["excludes"]


def walk(root):
    """The files lit would run under root: its lit.cfg.py (or test/lit.cfg.py
    next to this script) and each folder's lit.local.cfg say which."""
    cfg = os.path.join(root, "lit.cfg.py")
    if not os.path.exists(cfg):
        cfg = os.path.join(TEST_ROOT, "lit.cfg.py")
    top = lit_settings(cfg, set(), set())
    if not top[0]:
        sys.exit("no-early-exit-pipes: %s: no config.suffixes" % cfg)
    settings = {os.path.abspath(root): top}
    for dirpath, dirnames, filenames in os.walk(root):
        parent = os.path.dirname(os.path.abspath(dirpath))
        suffixes, excludes = settings.get(os.path.abspath(dirpath)) or settings[parent]
        local = os.path.join(dirpath, "lit.local.cfg")
        if os.path.exists(local):
            suffixes, excludes = lit_settings(local, suffixes, excludes)
        settings[os.path.abspath(dirpath)] = (suffixes, excludes)
        dirnames[:] = sorted(d for d in dirnames if d not in excludes
                             and not d.startswith("."))
        for name in sorted(filenames):
            if name in excludes:
                continue
            if os.path.splitext(name)[1] in suffixes:
                yield os.path.join(dirpath, name)


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print("usage: no-early-exit-pipes.py [TEST_FILE_OR_DIR...] (default: test/)")
        return 0
    paths = argv or [TEST_ROOT]
    for p in paths:
        if not os.path.exists(p):
            sys.exit("no-early-exit-pipes: %s: no such file or directory" % p)
    problems = []
    count = 0
    for p in paths:
        if os.path.isdir(p):
            for f in walk(p):
                check_file(f, os.path.relpath(f, os.path.dirname(os.path.abspath(p))), problems)
                count += 1
        else:
            check_file(p, p, problems)
            count += 1
    if count == 0:
        sys.exit("no-early-exit-pipes: no test files under %s" % " ".join(paths))
    for line in problems:
        print(line)
    if problems:
        return 1
    print("no-early-exit-pipes: %d files, no early-exit reader after a pipe" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
