import { once } from 'node:events';
import t from 'tap';
import { dropIgnoredNoColorWarning } from '../../../src/process/color-warning.js';

t.test("only Node's NO_COLOR-is-ignored warning is dropped", async (t) => {
  const original = process.emitWarning;
  t.teardown(() => {
    process.emitWarning = original;
  });
  dropIgnoredNoColorWarning();
  const seen: string[] = [];
  const listener = (warning: Error) => seen.push(warning.message);
  process.on('warning', listener);
  t.teardown(() => process.off('warning', listener));
  process.emitWarning("The 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set.", 'Warning');
  process.emitWarning(
    "The 'NODE_DISABLE_COLORS' and 'NO_COLOR' env is ignored due to the 'FORCE_COLOR' env being set.",
    'Warning',
  );
  process.emitWarning("The 'NODE_DISABLE_COLORS' env is ignored due to the 'FORCE_COLOR' env being set.", 'Warning');
  process.emitWarning(new Error('another warning'));
  // Warnings are delivered in order: once the last has arrived, a dropped one would have too.
  while (!seen.includes('another warning')) await once(process, 'warning');
  t.same(seen, ["The 'NODE_DISABLE_COLORS' env is ignored due to the 'FORCE_COLOR' env being set.", 'another warning']);
});
