// Validation of responses against the OpenAPI description the service serves (/openapi.json): the
// schema of the documented status code of the operation, compiled with ajv (OpenAPI 3.0 `nullable`).
import { Ajv, type ValidateFunction } from 'ajv';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

export class ResponseValidator {
  private readonly ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  readonly checked: string[] = [];

  constructor(private readonly doc: OpenApiDocument) {
    this.ajv.addSchema({ components: doc.components }, 'openapi.json');
  }

  private templateOf(path: string): string {
    const bare = path.split('?')[0];
    for (const template of Object.keys(this.doc.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (pattern.test(bare)) return template;
    }
    throw new Error(`${bare} is not in the OpenAPI description`);
  }

  /** Throws when the body does not match the documented schema (or the status is undocumented). */
  validate(method: string, path: string, status: number, body: unknown): void {
    const template = this.templateOf(path);
    const operation = this.doc.paths[template][method.toLowerCase()];
    if (!operation) throw new Error(`${method} ${template} is not documented`);
    const response = operation.responses[String(status)];
    if (!response) throw new Error(`${method} ${template}: status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method} ${template} ${status}: no JSON schema`);
    const key = `${method} ${template} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')) as object;
      validate = this.ajv.compile(rewritten);
      this.compiled.set(key, validate);
    }
    if (!validate(body)) throw new Error(`${key}: ${this.ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`);
    this.checked.push(key);
  }
}
