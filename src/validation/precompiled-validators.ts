import type { ValidateFunction } from 'ajv';
import * as generated from '../schemas/generated/format-validators.js';
import { ownSchemas } from '../schemas/own-schemas.js';

let bySchema: Map<object, ValidateFunction> | undefined;

function build(): Map<object, ValidateFunction> {
  const validators = generated as unknown as Record<string, ValidateFunction | undefined>;
  const map = new Map<object, ValidateFunction>();
  for (const [name, schema] of ownSchemas()) {
    const validate = validators[name];
    // A schema added since the last `npm run generate` is compiled at run time instead
    // (test/lint/format-validators.test.ts keeps the generated file current).
    if (validate) map.set(schema, validate);
  }
  return map;
}

/**
 * The build-time compiled validator of one of our own schemas (the same object
 * `ownSchemas()` lists), or undefined for any other schema.
 */
export function precompiledValidator(schema: object): ValidateFunction | undefined {
  bySchema ??= build();
  return bySchema.get(schema);
}
