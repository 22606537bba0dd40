// Records control-block outputs that no scope records, so that GeckoSCRIPT's getOutput(block) can
// read them after a run: wraps the session's SimulationRunner and adds one hidden scope, on a copy
// of the netlist, with the outputs of the blocks asked for. The circuit itself (and what
// saveCircuit writes) is not changed.
import type { RemoteRun, RunOptions, SimulationRunner } from '../remote/types.js';
import type { SimulationResult } from '../engine/simulate.js';
import { scopeChannels as channelsOf, type ControlBlock, type Netlist } from '../formats/netlist.js';

/** Name of the hidden scope; its channels are `SCOPE.script-probe.ch<n>`. */
export const PROBE_SCOPE = 'SCOPE.script-probe';

/** Signal name → channel key, for every signal a scope of `netlist` records. */
export function scopeChannels(netlist: Netlist): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of netlist.blocks ?? []) {
    if (block.type !== 'SCOPE') continue;
    for (const { key, input, mean } of channelsOf(block)) {
      if (!mean && !out.has(block.inputs![input])) out.set(block.inputs![input], key);
    }
  }
  return out;
}

export class ProbingRunner implements SimulationRunner {
  /** Blocks (lower-case names) whose outputs to record; `'all'`: every block output. */
  private wanted: Set<string> | 'all' = new Set();
  /** Signal → channel key of the probe scope, per result. */
  private readonly probed = new WeakMap<SimulationResult, Map<string, string>>();

  constructor(private readonly inner: SimulationRunner) {}

  probe(blocks: Iterable<string> | 'all'): void {
    if (blocks === 'all' || this.wanted === 'all') this.wanted = 'all';
    else for (const name of blocks) this.wanted.add(name.toLowerCase());
  }

  /** Channel key of `signal` in `result` if the probe scope recorded it. */
  probedChannel(result: SimulationResult, signal: string): string | undefined {
    return this.probed.get(result)?.get(signal);
  }

  /** `netlist` with the probe scope the wanted blocks need (itself when none), and the probe's signal → channel key. */
  withProbes(netlist: Netlist): { netlist: Netlist; probes?: Map<string, string> } {
    const recorded = scopeChannels(netlist);
    const wanted = this.wanted;
    const blocks = (netlist.blocks ?? []).filter((b) => wanted === 'all' || wanted.has(b.name.toLowerCase()));
    const missing = [...new Set(blocks.flatMap((b) => b.outputs ?? []))].filter((s) => !recorded.has(s));
    if (missing.length === 0) return { netlist };
    const probe: ControlBlock = { name: PROBE_SCOPE, type: 'SCOPE', inputs: missing };
    return { netlist: { ...netlist, blocks: [...(netlist.blocks ?? []), probe] }, probes: new Map(missing.map((s, i) => [s, `${PROBE_SCOPE}.ch${i + 1}`])) };
  }

  /** Remembers where the probe scope recorded each signal in `result` (for probedChannel). */
  remember(result: SimulationResult, probes: Map<string, string> | undefined): void {
    if (probes) this.probed.set(result, probes);
  }

  async run(netlist: Netlist, options: RunOptions): Promise<RemoteRun> {
    const probed = this.withProbes(netlist);
    const run = await this.inner.run(probed.netlist, options);
    this.remember(run.result, probed.probes);
    return run;
  }
}
