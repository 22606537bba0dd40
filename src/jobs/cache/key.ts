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

export function cacheKey(spec: TaskSpec, options: CacheKeyOptions): string {
  const excluded = new Set(options.excludeFields);
  const parameters = options.includeParameters
    ? Object.fromEntries(Object.entries(spec.parameters).filter(([k]) => !excluded.has(k)))
    : {};
  const { layout: _layout, name: _name, ...circuit } = spec.netlist;
  const model = options.includeFiles && spec.fileDigest ? { file: spec.fileDigest } : { netlist: { ...circuit, settings: undefined } };
  const material = {
    model,
    parameters,
    settings: spec.netlist.settings,
    signals: spec.signals ?? null,
    // Absent for transient runs (their keys stay as they were).
    steady: spec.steady,
    engine: options.engineVersion,
  };
  return createHash('sha256').update(canonicalJson(material)).digest('hex');
}
