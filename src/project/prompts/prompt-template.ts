import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../project-error.js';
import type { PromptDefinition } from './prompt-definition.js';

/**
 * A prompt's template text, exactly as on disk (never executed, nothing stripped). A prompt
 * without a path has an empty template; one whose file is gone or too large fails.
 */
export function readPromptTemplate(promptsDir: string, prompt: PromptDefinition, maxBytes: number): string {
  if (prompt.path === undefined) return '';
  const path = join(promptsDir, prompt.path);
  try {
    const size = statSync(path).size;
    if (size > maxBytes) throw new Error(`it is ${size} bytes, over ${maxBytes}`);
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw ProjectError.failed(
      `The template of prompt "${prompt.name}" (${prompt.path}) cannot be read: ${(error as Error).message}; ` +
        `check the file and the prompt's "path"`,
      { prompt: prompt.name },
    );
  }
}
