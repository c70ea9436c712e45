import t from 'tap';
import { normalizePrompt } from '../../../src/project/prompts/prompt-definition.js';
import { normalizeResource } from '../../../src/project/resources/resource-definition.js';
import { normalizeTool } from '../../../src/project/tools/tool-definition.js';
import { normalizeUiMetadata } from '../../../src/project/ui/ui-metadata.js';
import { type MetaFormat, promptMeta, resourceMeta, toolMeta } from '../../../src/schemas/meta-files.js';
import { uiMeta } from '../../../src/schemas/ui-files.js';
import { metadataProblems, screenMetadata } from '../../../src/validation/metadata-check.js';

const toolContext = { defaultName: 'fallback', path: 'x/tool.sh', iconBase: '/tmp', owner: 'x/tool.sh' };
const resourceContext = { iconBase: '/tmp', owner: 'r.meta.json', defaultName: 'r', defaultUri: 'file:///tmp/r.txt' };
const promptContext = { defaultName: 'p', iconBase: '/tmp', owner: 'p.meta.json' };

type Judge = (value: Record<string, unknown>) => string | undefined;
const tool: Judge = (value) => normalizeTool(value, toolContext).error;
const resource: Judge = (value) => normalizeResource(value, resourceContext).error;
const prompt: Judge = (value) => normalizePrompt(value, promptContext).error;

/** What, its format, the value, who serves it, and whether the entry is rejected (else only the value is ignored). */
const CASES: ReadonlyArray<[string, MetaFormat, Record<string, unknown>, Judge, boolean]> = [
  ['tool name MCP refuses', toolMeta, { name: 'bad name' }, tool, true],
  ['tool schema not an object', toolMeta, { inputSchema: { type: 'array' } }, tool, true],
  ['tool timeout of 0', toolMeta, { timeoutSecs: 0 }, tool, false],
  ['tool name not a string', toolMeta, { name: 5 }, tool, false],
  ['provider that is a path', resourceMeta, { provider: '../x' }, resource, true],
  ['provider with a dot', resourceMeta, { provider: 'my.api' }, resource, false],
  ['priority above 1', resourceMeta, { annotations: { priority: 2 } }, resource, false],
  ['prompt arguments of text', promptMeta, { arguments: 'x' }, prompt, true],
  ['prompt role of a number', promptMeta, { role: 5 }, prompt, false],
];

t.test('validate and the server judge metadata by one definition', async (t) => {
  for (const [what, format, value, serve, rejected] of CASES) {
    const validateRejects = metadataProblems(format, value).some((problem) => problem.severity === 'reject');
    t.equal(validateRejects, rejected, `${what}: ${rejected ? 'an error' : 'no error'} in validate`);
    t.equal(serve(value) !== undefined, rejected, `${what}: ${rejected ? 'skipped' : 'served'} by the server`);
  }
});

t.test('the server drops exactly the invalid value, with the format sentence', async (t) => {
  const timeout = normalizeTool({ timeoutSecs: 0, description: 'kept' }, toolContext);
  t.same(timeout.warnings, ['x/tool.sh: timeoutSecs must be a positive integer; ignored']);
  t.match(timeout.tool, { name: 'fallback', description: 'kept', timeoutSecs: null });
  t.equal(normalizeTool({ name: 5 }, toolContext).tool?.name, 'fallback', 'a name that is no string: the default');
  const annotated = normalizeResource({ annotations: { priority: 2, audience: ['user'] } }, resourceContext);
  t.same(annotated.item?.annotations, { audience: ['user'] }, 'only the priority is dropped');
  t.same(annotated.warnings, ['r.meta.json: annotations.priority must be a number from 0 to 1; ignored']);
  const icons = screenMetadata(toolMeta, {
    icons: [{ src: 'https://a/x.png' }, { url: 'x' }, { src: 'https://b/y.png' }],
  });
  t.same(icons.value, { icons: [{ src: 'https://a/x.png' }, { src: 'https://b/y.png' }] }, 'only the bad icon goes');
  const output = screenMetadata(toolMeta, { outputSchema: { type: 'array', properties: {} } });
  t.same(output.value, {}, 'a schema that is wrong anywhere is dropped whole');
  t.equal(normalizeResource({ provider: 'my.api', uri: 'x://y' }, resourceContext).item?.provider, 'my.api');
  t.match(normalizeResource({ provider: '../x' }, resourceContext).error, /"\.\.\/x" is not a provider name/);
});

t.test('ui.meta.json: validate warns about exactly what the server drops', async (t) => {
  const meta = {
    template: 'chart',
    entrypoint: '../x.html',
    meta: {
      csp: { connectDomains: ['https://a.example', ''], resourceDomains: ['https://b.example'], styleDomains: [] },
      permissions: { camera: {}, usb: {} },
      prefersBorder: 'yes',
    },
  };
  const problems = metadataProblems(uiMeta, meta);
  t.ok(problems.length >= 6, `${problems.length} problems`);
  t.ok(
    problems.every((problem) => problem.severity === 'ignore'),
    'no problem costs the view',
  );
  const served = normalizeUiMetadata(meta, 'view', 'ui/view/ui.meta.json');
  t.match(served.fields, { entrypoint: 'index.html', ui: { prefersBorder: true } }, 'defaults for the dropped values');
  t.notOk(served.fields.template, 'an unknown template is dropped');
  t.same(served.fields.ui.csp.connectDomains, [], 'a list with a bad origin is dropped whole');
  t.same(served.fields.ui.csp.resourceDomains, ['https://b.example'], 'a good list is kept');
  t.same(served.fields.ui.permissions, { camera: {} }, 'only the unknown permission goes');
  for (const sentence of [
    /entrypoint must be a relative path inside the UI directory/,
    /template "chart" is unknown/,
    /meta\.csp\.connectDomains must be an array of origins/,
    /meta\.csp\.styleDomains is not a known field/,
    /meta\.permissions\.usb is not a known field/,
    /meta\.prefersBorder must be true or false/,
  ])
    t.ok(
      served.warnings.some((warning) => sentence.test(warning)),
      `the server warns: ${sentence.source}`,
    );
  t.equal(served.warnings.length, 6, served.warnings.join('\n'));
});
