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

t.test('a word that starts only one candidate suggests it; a shared start or a short one does not', async (t) => {
  const commands = ['run-tool', 'registry', 'validate', 'vendor', 'new', 'jq', 'jq-service'];
  t.equal(closestMatch('run', commands), 'run-tool');
  t.equal(closestMatch('reg', commands), 'registry');
  t.equal(closestMatch('ve', commands), undefined, 'two letters are too few');
  t.equal(closestMatch('jq-ser', commands), 'jq-service');
  t.equal(closestMatch('--allow', ['--allow-self', '--allow-all']), undefined, 'two flags start so');
  t.equal(closestMatch('--dry', ['--dry-run', '--json']), '--dry-run');
  t.equal(closestMatch('--ver', ['--version', '--verbose']), undefined);
  t.equal(closestMatch('vlaidate', commands), 'validate', 'a typo still wins');
});
