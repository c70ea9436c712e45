import type { ResourceTemplateDefinition } from './resource-definition.js';

const MAX_URI_LENGTH = 2048;
const EXPRESSION = /\{([+#]?)([A-Za-z0-9_]+)\}/g;

interface CompiledTemplate {
  readonly pattern: RegExp;
  readonly literalLength: number;
  readonly expressions: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The RFC 6570 subset a concrete URI can be matched against: `{v}` (no `/`, `?`, `#`),
 * `{+v}` (anything) and `{#v}` (`#` then anything). Other operators, lists, modifiers and
 * adjacent expressions make a template unmatchable (undefined).
 */
export function compileTemplate(uriTemplate: string): CompiledTemplate | undefined {
  let pattern = '^';
  let literalLength = 0;
  let expressions = 0;
  let last = 0;
  let previousEnd = -1;
  for (const match of uriTemplate.matchAll(EXPRESSION)) {
    const literal = uriTemplate.slice(last, match.index);
    if (/[{}]/.test(literal)) return undefined;
    if (literal === '' && previousEnd === match.index) return undefined;
    pattern += escapeRegExp(literal);
    literalLength += literal.length;
    const operator = match[1];
    if (operator === '#') {
      pattern += '#(.+)';
      literalLength += 1;
    } else {
      pattern += operator === '+' ? '(.+)' : '([^/?#]+)';
    }
    expressions += 1;
    last = match.index + match[0].length;
    previousEnd = last;
  }
  const tail = uriTemplate.slice(last);
  if (/[{}]/.test(tail) || expressions === 0) return undefined;
  pattern += `${escapeRegExp(tail)}$`;
  literalLength += tail.length;
  return { pattern: new RegExp(pattern, 's'), literalLength, expressions };
}

/**
 * The template a concrete URI was expanded from, if any: of several matches the one with
 * the most literal characters, then the fewest expressions, then the first name.
 */
export function matchTemplate(
  uri: string,
  templates: readonly ResourceTemplateDefinition[],
): ResourceTemplateDefinition | undefined {
  if (uri.length > MAX_URI_LENGTH || /\s/.test(uri)) return undefined;
  let best: { template: ResourceTemplateDefinition; compiled: CompiledTemplate } | undefined;
  for (const template of templates) {
    const compiled = compileTemplate(template.uriTemplate);
    if (!compiled?.pattern.test(uri)) continue;
    const better =
      !best ||
      compiled.literalLength > best.compiled.literalLength ||
      (compiled.literalLength === best.compiled.literalLength && compiled.expressions < best.compiled.expressions) ||
      (compiled.literalLength === best.compiled.literalLength &&
        compiled.expressions === best.compiled.expressions &&
        template.name < best.template.name);
    if (better) best = { template, compiled };
  }
  return best?.template;
}
