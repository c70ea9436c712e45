import { relative, sep } from 'node:path';
import { NOT_AN_OBJECT, readMetadata } from '../../project/discovery-files.js';
import type { MetaFormat } from '../../schemas/meta-files.js';
import type { SchemaValidator } from '../../validation/json-schema.js';
import { metadataProblems, valueAt } from '../../validation/metadata-check.js';

/** The part of a project a message is about (`--json` messages[].section). */
export type Section = 'server' | 'tools' | 'prompts' | 'resources' | 'ui' | 'registrations';
/** error: the server will not serve it as meant; warning: it works, but could be better; info: a pass or a note. */
export type Level = 'error' | 'warning' | 'info';

/** One finding; `file` (project-relative) and `field` (a JSON Pointer) say where. */
export interface ValidationMessage {
  readonly level: Level;
  readonly section: Section;
  readonly message: string;
  readonly file?: string;
  readonly field?: string;
}

/** Where a finding is, and whether `validate --fix` would repair it. */
export interface FindingPlace {
  readonly file?: string;
  readonly field?: string;
  /** `--fix` repairs it (a permission); counted for the summary's advice, not in --json. */
  readonly fixable?: boolean;
}

/** The findings of one `validate` run, the fixes it applied and the repairs --fix would make. */
export class ValidationReport {
  readonly messages: ValidationMessage[] = [];
  fixesApplied = 0;
  fixable = 0;

  constructor(readonly root: string) {}

  /** A project-relative display path. */
  rel(path: string): string {
    const rel = relative(this.root, path);
    return rel === '' ? '.' : rel.startsWith('..') ? path : rel.split(sep).join('/');
  }

  add(level: Level, section: Section, message: string, where: FindingPlace = {}): void {
    if (where.fixable) this.fixable += 1;
    const file = where.file === undefined ? undefined : this.rel(where.file);
    const prefix = file === undefined ? '' : `${file}${where.field ? ` ${where.field}` : ''}: `;
    this.messages.push({
      level,
      section,
      message: `${prefix}${message}`,
      ...(file === undefined ? {} : { file }),
      ...(where.field ? { field: where.field } : {}),
    });
  }

  error(section: Section, message: string, where?: FindingPlace): void {
    this.add('error', section, message, where);
  }

  warning(section: Section, message: string, where?: FindingPlace): void {
    this.add('warning', section, message, where);
  }

  info(section: Section, message: string, where?: FindingPlace): void {
    this.add('info', section, message, where);
  }

  count(level: Level): number {
    return this.messages.filter((message) => message.level === level).length;
  }

  /** Whether an error names the file at `path` (absolute). */
  hasError(path: string): boolean {
    const file = this.rel(path);
    return this.messages.some((message) => message.level === 'error' && message.file === file);
  }
}

/** What the checks share. */
export interface CheckContext {
  readonly report: ValidationReport;
  readonly validator: SchemaValidator;
  readonly fix: boolean;
}

/** Reads a metadata file as discovery does; reports (error) and returns undefined when it is no JSON object. */
export function readJsonObject(ctx: CheckContext, section: Section, path: string): Record<string, unknown> | undefined {
  const value = readMetadata(path);
  if (typeof value !== 'string') return value;
  ctx.report.error(section, value === NOT_AN_OBJECT ? 'must be a JSON object' : `invalid JSON (${value})`, {
    file: path,
  });
  return undefined;
}

/** The sub-schema that describes the value at a JSON Pointer (through properties and items). */
function schemaAt(schema: unknown, pointer: string): Record<string, unknown> | undefined {
  let current = schema as Record<string, unknown> | undefined;
  for (const token of pointer.split('/').slice(1)) {
    if (!current) return undefined;
    const properties = current.properties as Record<string, unknown> | undefined;
    current = (/^\d+$/.test(token) && current.items ? current.items : properties?.[token]) as
      | Record<string, unknown>
      | undefined;
  }
  return current;
}

/**
 * ajv says "must be equal to constant" or "must NOT be valid"; say which value, or what the
 * rule is in the server's own words (the format's sentence for the field).
 */
function issueMessage(
  format: MetaFormat,
  issue: { path: string; message: string; keyword: string },
  value: unknown,
): string {
  const sentence = format.sentences?.[issue.path];
  if (issue.keyword === 'not' && sentence) return sentence(valueAt(value, issue.path));
  const target = schemaAt(format.schema, issue.path);
  if (issue.keyword === 'const' && target && 'const' in target) return `must be ${JSON.stringify(target.const)}`;
  if (issue.keyword === 'enum' && Array.isArray(target?.enum))
    return `must be one of ${target.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  return issue.message;
}

/**
 * Checks `value` against its format (schemas/meta-files.ts), as the server's discovery
 * does: a problem that makes the server skip the entry is an error, one whose value the
 * server ignores is a warning; each names the file and field. Returns whether the server
 * would use the entry.
 */
export function checkSchema(
  ctx: CheckContext,
  section: Section,
  format: MetaFormat,
  value: unknown,
  file: string,
  fieldPrefix = '',
): boolean {
  const problems = metadataProblems(format, value);
  for (const problem of problems) {
    const field = `${fieldPrefix}${problem.path}` || '(root)';
    const message = issueMessage(format, problem, value);
    if (problem.severity === 'reject') ctx.report.error(section, message, { file, field });
    else ctx.report.warning(section, `${message}: the server ignores this value`, { file, field });
  }
  return problems.every((problem) => problem.severity !== 'reject');
}
