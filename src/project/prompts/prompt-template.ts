import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../project-error.js';
import type { PromptDefinition } from './prompt-definition.js';

/**
 * A file of a prompt (its template, or a file a message names), relative to the prompts
 * directory, exactly as on disk (never executed, nothing stripped); one that is gone or
 * too large fails, naming the prompt.
 */
export function readPromptFile(
  promptsDir: string,
  prompt: PromptDefinition,
  rel: string,
  maxBytes: number,
  what: 'template' | 'file' = 'file',
): Buffer {
  try {
    const path = join(promptsDir, rel);
    const size = statSync(path).size;
    if (size > maxBytes) throw new Error(`it is ${size} bytes, over ${maxBytes}`);
    return readFileSync(path);
  } catch (error) {
    throw ProjectError.failed(
      `The ${what} of prompt "${prompt.name}" (${rel}) cannot be read: ${(error as Error).message}; ` +
        `check the file and the prompt's "path"`,
      { prompt: prompt.name },
    );
  }
}

/**
 * A prompt's text as written: its template (none: empty), or the text blocks of its
 * messages, one paragraph each (a script's prompt has none until it runs).
 */
export function readPromptTemplate(promptsDir: string, prompt: PromptDefinition, maxBytes: number): string {
  const read = (rel: string, what?: 'template') =>
    readPromptFile(promptsDir, prompt, rel, maxBytes, what).toString('utf8');
  if (prompt.messages === undefined) return prompt.path === undefined ? '' : read(prompt.path, 'template');
  return prompt.messages
    .flatMap(({ content }) => {
      if (content.type !== 'text') return [];
      return [typeof content.path === 'string' ? read(content.path) : String(content.text)];
    })
    .join('\n\n');
}
