import type { ErrorObject, ValidateFunction } from 'ajv';
import AjvDraft7 from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { canonicalJson, sha256Hex } from '../json/canonical-json.js';
import { precompiledValidator } from './precompiled-validators.js';

/** One reason a value does not match its schema, pointing at the field. */
export interface SchemaIssue {
  /** JSON Pointer of the offending value; empty for the root. */
  readonly path: string;
  readonly message: string;
  readonly keyword: string;
  /** ajv's parameters of the failure (missingProperty, type, limit, ...). */
  readonly params?: Readonly<Record<string, unknown>>;
}

export type SchemaCheck =
  | { readonly valid: true }
  | { readonly valid: false; readonly issues: SchemaIssue[] }
  /** The schema itself does not compile; the value was not checked. */
  | { readonly valid: 'unchecked'; readonly reason: string };

const ajvOptions = { allErrors: true, strict: false, validateFormats: false, logger: false } as const;

/** ajv's errors as issues; an unknown property is named (ajv's message does not say which). */
function toIssues(errors: ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((error) => {
    const extra = (error.params as { additionalProperty?: unknown }).additionalProperty;
    const message = error.message ?? 'is invalid';
    return {
      path: error.instancePath,
      message:
        error.keyword === 'additionalProperties' && typeof extra === 'string'
          ? `${message} (found "${extra}")`
          : message,
      keyword: error.keyword,
      params: error.params as Record<string, unknown>,
    };
  });
}

/** `/count must be integer; (root) must have required property 'name'` */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => `${issue.path === '' ? '(root)' : issue.path} ${issue.message}`).join('; ');
}

/**
 * JSON Schema validation with compiled validators cached by schema content: each tool
 * version's schema is compiled once, and our own formats' schemas come precompiled
 * (src/schemas/generated/). 2020-12 is the default dialect (MCP's); a schema declaring
 * draft-07 (or older) gets the draft-07 validator.
 */
export class SchemaValidator {
  // Made on the first schema that is not precompiled: a validator that checks only the
  // project's own schemas never builds one.
  private modern: Ajv2020.default | undefined;
  private draft7: AjvDraft7.default | undefined;
  private readonly compiled = new Map<string, ValidateFunction | string>();
  /** The same schema object (a tool's, until its registry is rescanned) skips hashing its content. */
  private readonly bySchemaObject = new WeakMap<object, ValidateFunction | string>();

  check(schema: unknown, value: unknown): SchemaCheck {
    const validator = this.validatorFor(schema);
    if (typeof validator === 'string') return { valid: 'unchecked', reason: validator };
    if (validator(value)) return { valid: true };
    return { valid: false, issues: toIssues(validator.errors) };
  }

  private validatorFor(schema: unknown): ValidateFunction | string {
    const isObject = typeof schema === 'object' && schema !== null;
    const known = isObject ? (precompiledValidator(schema) ?? this.bySchemaObject.get(schema)) : undefined;
    if (known !== undefined) return known;
    const validator = this.validatorByContent(schema);
    if (isObject) this.bySchemaObject.set(schema, validator);
    return validator;
  }

  private validatorByContent(schema: unknown): ValidateFunction | string {
    const key = sha256Hex(canonicalJson(schema));
    const cached = this.compiled.get(key);
    if (cached !== undefined) return cached;
    let result: ValidateFunction | string;
    try {
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
        throw new Error('a schema must be an object');
      const dialect = String((schema as { $schema?: unknown }).$schema ?? '');
      let ajv: Ajv2020.default | AjvDraft7.default;
      if (/draft-0[4-7]/.test(dialect)) {
        this.draft7 ??= new AjvDraft7.default(ajvOptions);
        ajv = this.draft7;
      } else {
        this.modern ??= new Ajv2020.default(ajvOptions);
        ajv = this.modern;
      }
      // Compile without $id (two tools may reuse one, which ajv refuses) and without $schema
      // (the dialect is chosen above; ajv would reject draft-04/06 or 2019-09 URIs outright).
      const { $id: _id, $schema: _schema, ...rest } = schema as Record<string, unknown>;
      result = ajv.compile(rest);
    } catch (error) {
      result = (error as Error).message;
    }
    this.compiled.set(key, result);
    return result;
  }
}
