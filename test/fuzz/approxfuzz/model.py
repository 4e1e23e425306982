"""What a case is made of: the processes it runs (Inv), the case itself with
its files, setup actions and expectations (Case), and a corpus seed (Seed)."""

import dataclasses


@dataclasses.dataclass
class Inv:
    """One process to run: tool is 'opt', 'tune' or an absolute path."""
    tool: str
    args: list
    env: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Case:
    index: int
    target: str
    family: str
    notes: list = dataclasses.field(default_factory=list)
    files: dict = dataclasses.field(default_factory=dict)   # ph-path -> bytes
    setup: list = dataclasses.field(default_factory=list)   # actions
    invs: list = dataclasses.field(default_factory=list)
    concurrent: bool = False
    outdir: object = None      # ph-path of the dir the tool may write; None: no writes
    allowed_files: list = dataclasses.field(default_factory=list)  # tune outputs
    expect_export: bool = False
    checks: set = dataclasses.field(default_factory=set)
    given_ptx: bool = False    # PTX came from the input (approx-export alone)
    spec_mode: bool = False    # tune: judge acceptance against the spec

    def describe(self):
        return {"index": self.index, "target": self.target, "family": self.family,
                "notes": self.notes, "setup": [list(map(str, a)) for a in self.setup],
                "invocations": [{"tool": i.tool, "args": i.args, "env": i.env}
                                for i in self.invs],
                "concurrent": self.concurrent, "outdir": self.outdir,
                "checks": sorted(self.checks)}


@dataclasses.dataclass
class Seed:
    name: str
    text: str
