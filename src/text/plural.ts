/** `1 tool`, `2 tools`: a count with its noun in the number it needs (`many`: an irregular plural). */
export const plural = (count: unknown, one: string, many = `${one}s`): string =>
  `${String(count)} ${count === 1 ? one : many}`;
