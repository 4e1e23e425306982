#!/usr/bin/env python3
"""loops.py FILE.nvd [--all] - every backward BRA in an nvdisasm -c listing is a
loop; print per loop: address range, static instruction count by class, and the
count without 'cold' basic blocks (those holding a CALL: the sqrt/rcp/div
slow paths, and their branch-out MOV/BRA glue)."""
import re, sys, collections
CLS = [
 ('MUFU', r'^MUFU'), ('FP32', r'^(FFMA|FMUL|FADD|FMNMX|FSETP|FSEL|FCHK|FSWZADD)'),
 ('FP64', r'^(DFMA|DMUL|DADD|DSETP|DMNMX)'), ('CVT', r'^(F2F|F2I|I2F|I2FP|F2IP|FRND)'),
 ('LDG/STG', r'^(LDG|STG|LD\.|ST\.|ATOM|RED)'), ('LDS/STS', r'^(LDS|STS)'), ('LDC', r'^(LDC|ULDC)'),
 ('BAR', r'^(BAR|WARPSYNC|BSSY|BSYNC)'), ('ctrl', r'^(BRA|CALL|RET|EXIT|BREAK|BRX|JMP)'),
 ('uniform', r'^U'), ('mov/sel', r'^(MOV|IMAD\.MOV|HFMA2\.MMA|SEL|P2R|R2P|PRMT|S2R|S2UR|CS2R)'),
 ('int', r'^(IMAD|IADD3|LEA|SHF|LOP3|ISETP|VIMNMX|IABS|IMNMX|FLO|POPC|SGXT|BMSK|IDP|I2I|IMUL|ISCADD)'),
 ('NOP', r'^NOP'),
]
def cls(op):
    for n, r in CLS:
        if re.match(r, op): return n
    return 'other'
def parse(path):
    insts, labels, cur_fn = [], {}, None
    for line in open(path):
        m = re.match(r'^(\.L_x_\d+|[A-Za-z_$][\w$]*):\s*$', line.strip())
        if m: labels[m.group(1)] = None; pend = m.group(1); labels[pend] = len(insts); continue
        m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?);', line)
        if m:
            insts.append(dict(addr=int(m.group(1), 16), pred=(m.group(2) or '').strip(), op=m.group(3), args=m.group(4), text=line.strip()))
    return insts, labels
def main():
    path = sys.argv[1]
    insts, labels = parse(path)
    # basic block leaders
    lead = set([0]) | {v for v in labels.values() if v is not None}
    for i, x in enumerate(insts):
        if cls(x['op']) == 'ctrl' or x['op'].startswith('BSYNC'): lead.add(i + 1)
    leaders = sorted(l for l in lead if l < len(insts))
    blk = {}
    for bi, s in enumerate(leaders):
        e = leaders[bi + 1] if bi + 1 < len(leaders) else len(insts)
        for i in range(s, e): blk[i] = (s, e)
    cold = set()
    for i, x in enumerate(insts):
        if x['op'].startswith('CALL'):
            s, e = blk[i]; cold.update(range(s, e))
            # the MOV before it in the same block and the glue after
    loops = []
    for i, x in enumerate(insts):
        if x['op'] == 'BRA':
            m = re.search(r'`\((\.L_x_\d+)\)', x['args'])
            if m and labels.get(m.group(1)) is not None and labels[m.group(1)] <= i:
                loops.append((labels[m.group(1)], i, x['pred']))
    for (s, e, pred) in loops:
        inner = not any(s2 >= s and e2 <= e and (s2, e2) != (s, e) for s2, e2, _ in loops)
        if not inner and '--all' not in sys.argv: continue
        c, h = collections.Counter(), collections.Counter()
        for i in range(s, e + 1):
            k = cls(insts[i]['op']); c[k] += 1
            if i not in cold: h[k] += 1
        tot, hot = sum(c.values()), sum(h.values())
        print(f"loop 0x{insts[s]['addr']:04x}-0x{insts[e]['addr']:04x} {'inner' if inner else 'outer'} static={tot} non-cold={hot} | " +
              ' '.join(f"{k}={h[k]}" + (f"({c[k]})" if c[k] != h[k] else '') for k, _ in CLS + [('other', '')] if c[k]))
main()
