import type { CliIo } from './command.js';

/** Work that may take a while gets a progress line only after this long. */
const SHOW_AFTER_MS = 1000;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Runs `work` and, when it takes more than a second and stderr is a terminal (and output
 * is not quieted), shows a spinner with `label` and the elapsed seconds on stderr,
 * erased when the work ends. Nothing is written otherwise, so pipes and logs stay clean.
 */
export async function withProgress<T>(io: CliIo, label: string, quiet: boolean, work: () => Promise<T>): Promise<T> {
  if (quiet || io.stderr.isTTY !== true) return work();
  const started = Date.now();
  let frame = 0;
  let shown = false;
  const timer = setInterval(() => {
    const elapsed = Date.now() - started;
    if (elapsed < SHOW_AFTER_MS) return;
    shown = true;
    frame = (frame + 1) % FRAMES.length;
    io.stderr.write(`\r${FRAMES[frame]} ${label} (${Math.floor(elapsed / 1000)}s)\u001b[K`);
  }, 100);
  timer.unref();
  try {
    return await work();
  } finally {
    clearInterval(timer);
    if (shown) io.stderr.write('\r\u001b[K');
  }
}
