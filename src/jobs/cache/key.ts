// The result-cache key: SHA-256 over a canonical JSON of what determines a result — the netlist
// (or the model file's bytes when `includeFiles`), the parameters (when `includeParameters`, minus
// `excludeFields`), the solver settings and the engine version.
import { createHash } from 'node:crypto';
import type { TaskSpec } from '../types.js';

export interface CacheKeyOptions {
  includeFiles: boolean;
  includeParameters: boolean;
  excludeFields: string[];
  engineVersion: string;
}

/** JSON with object keys sorted at every level, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The canonical JSON of a netlist's model and settings. */
export interface NetlistParts {
  netlist: string;
  settings: string | undefined;
}

/**
 * Canonical parts of netlists by object, for the keys of one submission: the runs of a sweep share
 * one netlist, so a 100 000-run batch writes it once. A memo lives for one synchronous pass only
 * (a netlist object may be changed in place between submissions, by a control session).
 */
export type NetlistMemo = Map<TaskSpec['netlist'], NetlistParts>;

function partsOf(netlist: TaskSpec['netlist'], memo: NetlistMemo | undefined): NetlistParts {
  let parts = memo?.get(netlist);
  if (!parts) {
    const { layout: _layout, name: _name, ...circuit } = netlist;
    parts = {
      netlist: canonicalJson({ netlist: { ...circuit, settings: undefined } }),
      settings: netlist.settings === undefined ? undefined : canonicalJson(netlist.settings),
    };
    memo?.set(netlist, parts);
  }
  return parts;
}

/**
 * SHA-256 of canonicalJson({model, parameters, settings, signals, engine}); the text is assembled
 * from the netlist's parts (memoised in `memo` when given) in canonicalJson's order (keys sorted,
 * undefined left out).
 */
export function cacheKey(spec: TaskSpec, options: CacheKeyOptions, memo?: NetlistMemo): string {
  const excluded = new Set(options.excludeFields);
  const parameters = options.includeParameters
    ? Object.fromEntries(Object.entries(spec.parameters).filter(([k]) => !excluded.has(k)))
    : {};
  const parts = partsOf(spec.netlist, memo);
  const model = options.includeFiles && spec.fileDigest ? canonicalJson({ file: spec.fileDigest }) : parts.netlist;
  const entries = [
    `"engine":${canonicalJson(options.engineVersion)}`,
    `"model":${model}`,
    `"parameters":${canonicalJson(parameters)}`,
    ...(parts.settings === undefined ? [] : [`"settings":${parts.settings}`]),
    `"signals":${canonicalJson(spec.signals ?? null)}`,
    // Absent for transient runs (their keys stay as they were).
    ...(spec.steady === undefined ? [] : [`"steady":${canonicalJson(spec.steady)}`]),
  ];
  return createHash('sha256').update(`{${entries.join(',')}}`).digest('hex');
}
