// tsoa validates a body that is a large array of objects (the 100 000 items of a job-queue batch)
// item by item through its generic ValidateParam: a field name string, a Set of keys, an entry list
// and several Object.keys of the error map per item, ≈ 0.15–0.3 s and its garbage for 100 000
// items on the event loop. Here an array of at least FAST_ARRAY_MIN elements whose element schema
// is a model is first checked by a predicate compiled once from tsoa's own model metadata; when
// every element passes, the array is returned as it is. The predicate accepts only values that tsoa
// accepts without an error and gives back unchanged (the same object, arrays equal element by
// element); anything else (a missing or mistyped field, a default to fill in, a union of objects,
// validators, __proto__ keys, other tsoa settings) is left to tsoa, which validates the whole array
// as before and reports its errors with their field paths (`requests.$12345.parameters`). The
// OpenAPI description comes from the same metadata, untouched.
import { ValidationService, type TsoaRoute } from '@tsoa/runtime';
// The predicate takes a body number as valid as it is, as this shortcut makes tsoa do.
import './fast-float.js';

/** Arrays shorter than this take tsoa's path only (the shortcut's setup is not worth it). */
export const FAST_ARRAY_MIN = 256;

/** True when tsoa accepts the value without an error and returns it unchanged. */
export type Accept = (value: unknown) => boolean;

const never: Accept = () => false;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const hasValidators = (schema: { validators?: object }): boolean => schema.validators !== undefined && Object.keys(schema.validators).length > 0;

/**
 * Compiles tsoa's checks of model metadata into predicates, each schema once (a model that refers
 * to itself refers to its predicate under construction).
 */
class Compiler {
  private readonly byRef = new Map<string, Accept>();

  constructor(private readonly models: TsoaRoute.Models) {}

  schema(schema: TsoaRoute.PropertySchema): Accept {
    switch (schema.dataType) {
      case 'string':
        // validateString returns String(value), the string itself.
        return hasValidators(schema) ? never : (v) => typeof v === 'string';
      case 'boolean':
        return (v) => v === true || v === false;
      case 'double':
      case 'float':
        // fast-float.ts: a finite number without validators is returned as it is (tsoa's own
        // String → toFloat would turn -0 into 0).
        return schema.validators !== undefined ? never : (v) => typeof v === 'number' && Number.isFinite(v);
      case 'any':
        return () => true;
      case 'array': {
        if (!schema.array || hasValidators(schema)) return never;
        const element = this.schema(schema.array);
        // tsoa returns a new array of the elements it validated: equal to this one, element by element.
        return (v) => Array.isArray(v) && v.every(element);
      }
      case 'union':
        return this.union(schema);
      case 'nestedObjectLiteral':
        return schema.nestedProperties ? this.object(schema.nestedProperties, typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined) : never;
      default:
        // As ValidateParam: any other type with a reference is the model's (validateModel).
        return schema.ref !== undefined ? this.ref(schema.ref) : never;
    }
  }

  /** A model by name: an object model or an alias (enums are left to tsoa). */
  ref(name: string): Accept {
    const known = this.byRef.get(name);
    if (known) return known;
    let compiled: Accept = never;
    this.byRef.set(name, (v) => compiled(v));
    const model = this.models[name];
    if (model?.dataType === 'refObject') {
      // additionalProperties true, false or absent: other keys are not validated (with tsoa's
      // `noImplicitAdditionalProperties: 'ignore'`, the only setting this shortcut serves).
      compiled = this.object(model.properties ?? {}, typeof model.additionalProperties === 'object' ? model.additionalProperties : undefined);
    } else if (model?.dataType === 'refAlias') {
      compiled = this.schema(model.type);
    }
    return compiled;
  }

  /**
   * An object: each property absent (when tsoa leaves it absent: optional, no default) or valid,
   * and each other key valid against `additional` when given. tsoa assigns every value it
   * validated back with `value[key] =`, which for a key `__proto__` would set the prototype:
   * such objects are left to it.
   */
  private object(properties: Record<string, TsoaRoute.PropertySchema>, additional: TsoaRoute.PropertySchema | undefined): Accept {
    const checks = Object.entries(properties).map(([key, schema]) => ({ key, accept: this.schema(schema), absentOk: this.absentOk(schema) }));
    const names = new Set(Object.keys(properties));
    const other = additional ? this.schema(additional) : undefined;
    return (v) => {
      if (!isObject(v)) return false;
      for (const { key, accept, absentOk } of checks) {
        const value = v[key];
        if (value === undefined ? !absentOk : !accept(value)) return false;
      }
      for (const key in v) {
        if (key === '__proto__') return false;
        if (other && !names.has(key) && (v[key] === undefined || !other(v[key]))) return false;
      }
      return true;
    };
  }

  /** ValidateParam leaves an undefined value undefined, without an error, only in this case. */
  private absentOk(schema: TsoaRoute.PropertySchema): boolean {
    if (schema.required || schema.default !== undefined || schema.dataType === 'undefined') return false;
    return !(schema.dataType === 'union' && schema.subSchemas?.some((s) => s.dataType === 'undefined'));
  }

  /**
   * A union: tsoa validates a JSON copy of the value against each member in turn and returns the
   * first clean result. Only strings and booleans are served here (their copy is themselves and a
   * member that accepts them returns them); objects and numbers (−0 copies as 0) go to tsoa.
   */
  private union(schema: TsoaRoute.PropertySchema): Accept {
    if (!schema.subSchemas || hasValidators(schema)) return never;
    const members = schema.subSchemas.filter((s) => (s.dataType === 'string' || s.dataType === 'boolean') && !hasValidators(s)).map((s) => this.schema(s));
    return (v) => (typeof v === 'string' || typeof v === 'boolean') && members.some((accept) => accept(v));
  }
}

/** The compiled predicates of one set of models (one per generated routes file). */
const compiled = new WeakMap<TsoaRoute.Models, Compiler>();

/** The predicate of a schema under these models (compiled once per models object and reference). */
export function acceptorFor(models: TsoaRoute.Models, schema: TsoaRoute.PropertySchema): Accept {
  let compiler = compiled.get(models);
  if (!compiler) compiled.set(models, (compiler = new Compiler(models)));
  return compiler.schema(schema);
}

type ValidateArray = ValidationService['validateArray'];
/** What tsoa's ValidationService holds (private in its types). */
interface ServiceState {
  models: TsoaRoute.Models;
  config: { noImplicitAdditionalProperties?: string; bodyCoercion?: boolean };
}

const installed = Symbol.for('pesim.tsoa.fastModelArrays');
const prototype = ValidationService.prototype as ValidationService & { [installed]?: true };

if (!prototype[installed]) {
  const tsoaValidateArray: ValidateArray = prototype.validateArray;
  prototype.validateArray = function fastValidateArray(this: ValidationService, ...args: Parameters<ValidateArray>): ReturnType<ValidateArray> {
    const [, value, , isBodyParam, schema, validators] = args;
    const { models, config } = this as unknown as ServiceState;
    if (
      isBodyParam && !validators && Array.isArray(value) && value.length >= FAST_ARRAY_MIN && schema?.ref !== undefined
      && config.noImplicitAdditionalProperties === 'ignore' && config.bodyCoercion === false && value.every(acceptorFor(models, schema))
    ) {
      return value;
    }
    return tsoaValidateArray.apply(this, args);
  };
  prototype[installed] = true;
}
