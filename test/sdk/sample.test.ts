import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import t from 'tap';
import { sandbox, sh } from '../helpers/sdk-harness.js';

// The sampling helpers' side of the handshake; the server's side and a real client are in
// test/integration/client-features/sampling-sdk-client.test.ts.
t.test('sampling helpers', async (t) => {
  const box = sandbox(t);
  const enabled = {
    MCP_SAMPLE_SUPPORTED: '1',
    MCP_SAMPLE_REQUEST_FILE: box.files.sampleRequest,
    MCP_SAMPLE_RESPONSE_FILE: box.files.sampleResponse,
  };

  t.test('a client without sampling: decline at once, status 1, a warning', async (t) => {
    const run = await box.run('mcp_sample_messages \'[{"role":"user"}]\' || printf \' status %s\' "$?"');
    t.equal(run.stdout, '{"action":"decline","content":null} status 1');
    t.match(run.stderr, /mcp_sample_messages: Client does not support sampling/);
    const plain = await box.run('mcp_sample hi || printf \'status %s\' "$?"');
    t.equal(plain.stdout, 'status 1', 'mcp_sample prints nothing but the text');
  });

  t.test('options the request cannot carry are refused before anything is sent', async (t) => {
    for (const [option, message] of [
      ['--max-tokens 0', /--max-tokens needs a positive number, got '0'/],
      ['--max-tokens many', /--max-tokens needs a positive number/],
      ['--temperature warm', /--temperature needs a number such as 0.7, got 'warm'/],
      ['--temperature 1.2.3', /--temperature needs a number/],
      ['--colour blue', /unknown option: --colour/],
    ] as const) {
      const run = await box.run(`mcp_sample hi ${option} || printf 'status %s' "$?"`, { env: enabled });
      t.equal(run.stdout, 'status 1', option);
      t.match(run.stderr, message);
      t.notOk(existsSync(box.files.sampleRequest), `${option}: no request written`);
    }
  });

  t.test('the request, and the answer read back (the text file for mcp_sample)', async (t) => {
    // A stand-in for the server: waits for the request, answers, as tool-execution.ts does.
    const answer = JSON.stringify({ action: 'accept', content: { role: 'assistant', content: { type: 'text' } } });
    const textFile = box.files.sampleResponse.replace(/\.json$/, '.txt');
    const server = `( while [ ! -f ${sh(box.files.sampleRequest)} ]; do sleep 0.05; done
      cp ${sh(box.files.sampleRequest)} ${sh(`${box.dir}/seen.json`)}; rm -f ${sh(box.files.sampleRequest)}
      printf '%s' 'It is "fine".' >${sh(textFile)}; printf '%s' ${sh(answer)} >${sh(box.files.sampleResponse)} ) &`;
    const run = await box.run(
      `${server}\nmcp_sample 'How is it?' --system Terse --max-tokens 5 --model-hint a --model-hint b --temperature .5`,
      { env: enabled },
    );
    t.equal(run.code, 0, run.stderr);
    t.equal(run.stdout, 'It is "fine".');
    t.same(JSON.parse(readFileSync(`${box.dir}/seen.json`, 'utf8')), {
      messages: [{ role: 'user', content: { type: 'text', text: 'How is it?' } }],
      systemPrompt: 'Terse',
      temperature: 0.5,
      modelPreferences: { hints: [{ name: 'a' }, { name: 'b' }] },
      maxTokens: 5,
    });
    t.notOk(existsSync(textFile), 'the text file is removed once read');
    writeFileSync(box.files.sampleResponse, '{"action":"cancel","content":null}');
    const cancelled = await box.run(`touch ${sh(box.files.cancel)}; mcp_sample hi || printf 'status %s' "$?"`, {
      env: enabled,
    });
    t.equal(cancelled.stdout, 'status 1', 'a cancelled call ends the wait');
  });
});
