import t from 'tap';
import { closestMatch, didYouMean, editDistance } from '../../../src/text/did-you-mean.js';

t.test('edit distance counts a swap of neighbours as one typo', async (t) => {
  t.equal(editDistance('version', 'version'), 0);
  t.equal(editDistance('verison', 'version'), 1);
  t.equal(editDistance('helth', 'health'), 1);
  t.equal(editDistance('', 'abc'), 3);
  t.equal(editDistance('kitten', 'sitting'), 3);
});

t.test('a suggestion only when the typo is close; one-letter flags differ by case only', async (t) => {
  const globals = ['--help', '-h', '--version', '-v', '--health', '--ready'];
  t.equal(closestMatch('--verison', globals), '--version');
  t.equal(closestMatch('-V', globals), '-v');
  t.equal(closestMatch('-x', globals), undefined, 'another letter is not a typo of -h or -v');
  t.equal(closestMatch('--stdio', globals), undefined);
  t.equal(closestMatch('--redy', globals), '--ready');
  t.equal(closestMatch('valdiate', ['validate', 'config', 'init']), 'validate');
  t.equal(didYouMean('--verison', globals), ' (did you mean --version?)');
  t.equal(didYouMean('--frobnicate', globals), '');
});
