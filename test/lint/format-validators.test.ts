import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import t from 'tap';
import { generatedPath, generateFormatValidators } from '../../release/format-validators.mjs';
import { ownSchemas } from '../../src/schemas/own-schemas.js';
import { precompiledValidator } from '../../src/validation/precompiled-validators.js';

t.test('the committed precompiled validators are what the schemas generate (npm run generate)', async (t) => {
  t.equal(readFileSync(generatedPath, 'utf8'), await generateFormatValidators(), 'run npm run generate');
});

/** Values that pass and fail each format in different ways. */
const samples: unknown[] = [
  {},
  null,
  [],
  'text',
  { name: 'a', path: 'x.sh', version: 1 },
  { name: 'a', description: 'd', inputSchema: { type: 'object' }, timeoutSecs: 5 },
  { name: 5, description: 2, inputSchema: 'x', timeoutSecs: -1, extra: true, version: 2 },
  { name: '', uri: 'file:///x', mimeType: 3, arguments: [{ name: 1 }], tools: 'no' },
  { version: 1, tools: [], resources: null, unknown: 1 },
  { entrypoint: '../x', template: 'nope', csp: { connectDomains: [1] }, fields: [{ type: 'x' }] },
];

t.test('every precompiled validator answers exactly as a run-time compile of its schema', async (t) => {
  const ajv = new Ajv2020.default({ allErrors: true, strict: false, validateFormats: false, logger: false });
  const schemas = ownSchemas();
  t.ok(schemas.size >= 8, `${schemas.size} schemas`);
  for (const [name, schema] of schemas) {
    const precompiled = precompiledValidator(schema);
    t.ok(precompiled, `${name} is precompiled`);
    if (!precompiled) continue;
    const { $id: _id, $schema: _schema, ...rest } = schema as Record<string, unknown>;
    const compiled = ajv.compile(rest);
    for (const value of samples) {
      const expected = [compiled(value), compiled.errors ?? null];
      t.same([precompiled(value), precompiled.errors ?? null], expected, `${name}: ${JSON.stringify(value)}`);
    }
  }
});
