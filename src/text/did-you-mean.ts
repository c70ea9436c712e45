/**
 * Edit distance with adjacent transpositions (optimal string alignment): `verison` is one
 * step from `version`, as a typo is.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((d[i - 1]?.[j] ?? 0) + 1, (d[i]?.[j - 1] ?? 0) + 1, (d[i - 1]?.[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (d[i - 2]?.[j - 2] ?? 0) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return d[a.length]?.[b.length] ?? 0;
}

/** How far a typo may be from what was meant: none for one or two letters (only case), more for long words. */
function tolerance(word: string): number {
  if (word.length <= 2) return 0;
  return word.length >= 6 ? 2 : 1;
}

const bare = (text: string) => text.replace(/^-+/, '').toLowerCase();

/** The one candidate that starts with `word` (three letters or more): `run` for `run-tool`. */
function onlyExtension(word: string, candidates: readonly string[]): string | undefined {
  if (word.length < 3) return undefined;
  const longer = candidates.filter((candidate) => bare(candidate).startsWith(word));
  return longer.length === 1 ? longer[0] : undefined;
}

/**
 * The candidate `typed` most likely meant, compared without leading dashes and case, when
 * it is close enough to be a typo or the start of only one candidate; undefined otherwise.
 */
export function closestMatch(typed: string, candidates: readonly string[]): string | undefined {
  const word = bare(typed);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word, bare(candidate));
    if (distance <= tolerance(word) && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate ?? onlyExtension(word, candidates);
}

/** ` (did you mean X?)` when a candidate is close, else the empty string. */
export function didYouMean(typed: string, candidates: readonly string[]): string {
  const match = closestMatch(typed, candidates);
  return match === undefined ? '' : ` (did you mean ${match}?)`;
}
