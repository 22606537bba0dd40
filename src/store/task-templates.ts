// Task templates: what the tasks of one submission share, stored once (table task_templates).
// The tasks of a sweep differ only in their parameters; their netlist, signals and the rest of
// their request are the same. A template holds the spec and the request with `parameters` set to
// null (so that the key keeps its place); each task row holds `{"parameters": …}` of its spec and
// of its request, and reads back as the template with its own keys assigned over it. Tasks of a
// submission share a template when their netlist is the same object and the rest of their spec and
// request encode to the same text; a task that shares with no other keeps its whole spec and
// request in its row (no template).
import { invalid } from './errors.js';
import { toJson } from './codec.js';
import type { TaskRecord, TaskSpec } from './records.js';
import type { Db, Statement } from './statements.js';

/** The texts of a template row. `request` null: the tasks' requests are not objects (kept whole in the rows). */
export interface TemplateTexts {
  spec: string;
  request: string | null;
}

/** A task's spec and request split into what it shares and what is its own. */
export interface SplitTask {
  /** Groups tasks that can share a template (same netlist object, same rest). */
  key: string;
  /** The task split (templateOf gives the texts of its template). */
  task: TaskRecord;
  ownSpec: string;
  /** The row's request column: its own keys, or the whole request when it is not an object. */
  ownRequest: string | null;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value with `parameters` emptied (kept in its place), and its own part. */
function withoutParameters(value: Record<string, unknown>): { shared: Record<string, unknown>; own: Record<string, unknown> } {
  if (value.parameters === undefined) return { shared: value, own: {} };
  return { shared: { ...value, parameters: null }, own: { parameters: value.parameters } };
}

/** What one insert has met: objects numbered by identity, and the text key of each identity key. */
export class SplitMemo {
  private readonly objects = new Map<object, number>();
  private readonly texts = new Map<string, string>();
  /** The last task split and its key, for the tasks of a sweep that follow it (sameShared). */
  lastSpec: Record<string, unknown> | undefined;
  lastRequest: unknown;
  lastKey = '';

  /**
   * A key of the value's parts: objects by identity, other values by value; of the parts named in
   * `own` only whether they are there.
   */
  identityKey(value: Record<string, unknown>, own: string[]): string {
    let key = '';
    for (const name in value) {
      const part = value[name];
      if (own.includes(name)) {
        key += `${JSON.stringify(name)}?${part === undefined ? 0 : 1},`;
        continue;
      }
      if (typeof part === 'object' && part !== null) {
        let n = this.objects.get(part);
        if (n === undefined) this.objects.set(part, (n = this.objects.size));
        key += `${JSON.stringify(name)}#${n},`;
      } else {
        key += `${JSON.stringify(name)}=${typeof part === 'string' ? JSON.stringify(part) : String(part)},`;
      }
    }
    return key;
  }

  /** The text key for an identity key, made once (`text` encodes what the identity key stands for). */
  textKey(identityKey: string, text: () => string): string {
    let key = this.texts.get(identityKey);
    if (key === undefined) this.texts.set(identityKey, (key = text()));
    return key;
  }
}

const ownParameters = (value: Record<string, unknown>, field: string): string =>
  value.parameters === undefined ? '{}' : `{"parameters":${toJson(value.parameters, `${field}.parameters`)}}`;

/**
 * Splits a task of a submission. Tasks whose netlist is the same object and whose other parts are
 * the same objects or values share a key at the cost of a string concatenation; parts that are
 * equal but not the same objects (a request's fresh `{}`) are compared by their JSON once per such
 * combination.
 */
export function splitTask(task: TaskRecord, memo: SplitMemo): SplitTask | undefined {
  const spec = task.spec as unknown;
  if (!isPlainObject(spec) || !isPlainObject(spec.netlist)) return undefined; // the whole-row path reports it
  const request = task.request;
  const requestIsObject = isPlainObject(request);
  const lastSpec = memo.lastSpec;
  const lastRequest = memo.lastRequest;
  let key: string;
  if (lastSpec && sameShared(spec, lastSpec) && (requestIsObject ? isPlainObject(lastRequest) && sameShared(request, lastRequest) : request === lastRequest)) {
    key = memo.lastKey; // the next task of a sweep: the same parts as the one before, compared by identity
  } else {
    const specKey = memo.identityKey(spec, ['parameters']);
    const requestKey = requestIsObject ? memo.identityKey(request, ['parameters']) : '-';
    key = memo.textKey(`${specKey}\n${requestKey}`, () => {
      const { netlist, ...rest } = spec;
      // The netlist's object and its place among the keys (the rest's text holds the others' order).
      const netlistKey = `${memo.identityKey({ netlist }, [])}@${Object.keys(spec).indexOf('netlist')}`;
      const restText = toJson(withoutParameters(rest).shared, 'task.spec');
      const requestText = requestIsObject ? toJson(withoutParameters(request).shared, 'task.request') : '-';
      return `${netlistKey}\n${restText}\n${requestText}`;
    });
  }
  memo.lastSpec = spec;
  memo.lastRequest = request;
  memo.lastKey = key;
  const ownSpec = ownParameters(spec, 'task.spec');
  // A sweep's request usually holds the very parameters object of its spec: one text for both.
  const sameParameters = requestIsObject && request.parameters !== undefined && request.parameters === spec.parameters;
  return {
    key,
    task,
    ownSpec,
    ownRequest: sameParameters ? ownSpec : requestIsObject ? ownParameters(request, 'task.request') : request === undefined ? null : toJson(request, 'task.request'),
  };
}

/** The texts of the template of a split task (written once per group: not made for every task). */
export function templateOf(split: SplitTask): TemplateTexts {
  const spec = split.task.spec as unknown as Record<string, unknown>;
  const request = split.task.request;
  return {
    spec: toJson(withoutParameters(spec).shared, 'task.spec'),
    request: isPlainObject(request) ? toJson(withoutParameters(request).shared, 'task.request') : null,
  };
}

/**
 * Whether two values hold the same keys in the same order and, but for `parameters` (which both
 * have or both lack), the same parts (sameValue). Such values share a template; the check costs no
 * string building.
 */
function sameShared(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  const budget = { left: SAME_VALUE_BUDGET };
  for (let i = 0; i < keys.length; i++) {
    const name = keys[i];
    if (name !== other[i]) return false;
    if (name === 'parameters' ? (a[name] === undefined) !== (b[name] === undefined) : !sameValue(a[name], b[name], budget)) return false;
  }
  return true;
}

/** An array or an object of no class (a Date, a Map or an object with toJSON encodes otherwise). */
function isPlainValue(v: unknown): v is object {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return true;
  const prototype: unknown = Object.getPrototypeOf(v);
  return (prototype === Object.prototype || prototype === null) && !('toJSON' in v);
}

/** Values sameValue compares before it gives up (a large part that is not the same object). */
const SAME_VALUE_BUDGET = 64;

/**
 * The same object or primitive, or small plain objects and arrays with the same keys in the same
 * order and the same values (each task's own `metadata: {}` or list of output names): values that
 * encode to the same JSON text. False when `budget` runs out: the caller then compares the texts.
 */
function sameValue(a: unknown, b: unknown, budget: { left: number }): boolean {
  if (Object.is(a, b)) return true;
  if (!isPlainValue(a) || !isPlainValue(b) || --budget.left < 0) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== other[i] || !sameValue((a as Record<string, unknown>)[keys[i]], (b as Record<string, unknown>)[keys[i]], budget)) return false;
  }
  return true;
}

/** Template rows: written once per group of a submission, read back through a small cache. */
export class TaskTemplates {
  private readonly insertRow: Statement;
  private readonly selectRow: Statement;
  /** Recently read templates (rows are never changed, so a kept text stays right). */
  private readonly kept = new Map<number, TemplateTexts>();

  constructor(db: Db, private readonly maxKept = 32) {
    this.insertRow = db.prepare('INSERT INTO task_templates (spec, request) VALUES (?, ?)');
    this.selectRow = db.prepare('SELECT spec, request FROM task_templates WHERE id = ?');
  }

  insert(texts: TemplateTexts): number {
    return Number(this.insertRow.run(texts.spec, texts.request).lastInsertRowid);
  }

  texts(id: number): TemplateTexts {
    let texts = this.kept.get(id);
    if (texts) return texts;
    texts = this.selectRow.get(id) as TemplateTexts | undefined;
    if (!texts) throw invalid('task.template_id', 'a stored template', id);
    if (this.kept.size >= this.maxKept) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(id, texts);
    return texts;
  }
}

/** Parsed templates of one read: the records it returns share their template's nested values. */
export type ParsedTemplates = Map<number, { spec: Record<string, unknown>; request: Record<string, unknown> | null }>;

/** A task's spec and request from its template and its own parts. */
export function joinTemplate(
  templates: TaskTemplates,
  parsed: ParsedTemplates,
  templateId: number,
  ownSpec: string,
  ownRequest: string | null,
): { spec: TaskSpec; request: unknown } {
  let template = parsed.get(templateId);
  if (!template) {
    const texts = templates.texts(templateId);
    template = { spec: JSON.parse(texts.spec) as Record<string, unknown>, request: texts.request === null ? null : (JSON.parse(texts.request) as Record<string, unknown>) };
    parsed.set(templateId, template);
  }
  const spec = Object.assign({}, template.spec, JSON.parse(ownSpec) as object) as unknown as TaskSpec;
  let request: unknown;
  if (template.request === null) request = ownRequest === null ? undefined : JSON.parse(ownRequest);
  else request = Object.assign({}, template.request, ownRequest === null ? {} : (JSON.parse(ownRequest) as object));
  return { spec, request };
}
