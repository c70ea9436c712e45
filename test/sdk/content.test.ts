import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { sandbox, sh } from '../helpers/sdk-harness.js';

// The content helpers are pure Bash (base64 or openssl for files): one JSON tool is enough.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

t.test('content blocks and results', async (t) => {
  const box = sandbox(t);
  const png = join(box.dir, 'Pixel.PNG');
  writeFileSync(png, PNG);
  const wav = join(box.dir, 'tone.wav');
  const audio = Buffer.from([0x52, 0x49, 0x46, 0x46, 0, 0xff, 0x0a, 0x0d, 0x80]);
  writeFileSync(wav, audio);

  t.test('mcp_content_text quotes the text', async (t) => {
    const run = await box.run(`mcp_content_text ${sh('say "hi"\nand é')}`);
    t.equal(run.code, 0);
    t.same(JSON.parse(run.stdout), { type: 'text', text: 'say "hi"\nand é' });
  });

  t.test('mcp_content_image and _audio: the bytes in base64, the MIME type from the extension', async (t) => {
    const image = await box.run(`mcp_content_image ${sh(png)}`);
    t.equal(image.code, 0, image.stderr);
    t.same(JSON.parse(image.stdout), { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
    const sound = await box.run(`mcp_content_audio ${sh(wav)}`);
    t.same(JSON.parse(sound.stdout), { type: 'audio', data: audio.toString('base64'), mimeType: 'audio/wav' });
    const given = await box.run(`mcp_content_image ${sh(png)} image/x-custom`);
    t.equal(JSON.parse(given.stdout).mimeType, 'image/x-custom', 'a MIME type given wins');
  });

  t.test('a large file is one line of base64 (no wrapping)', async (t) => {
    const big = join(box.dir, 'big.png');
    const bytes = Buffer.alloc(100_000, 7);
    writeFileSync(big, bytes);
    const run = await box.run(`mcp_content_image ${sh(big)}`);
    t.equal(JSON.parse(run.stdout).data, bytes.toString('base64'));
  });

  t.test('without base64, openssl encodes; with neither, a clear failure', async (t) => {
    // A PATH of only the tools the helpers may use, base64 left out.
    const bin = join(box.dir, 'only-openssl');
    const script = (path: string) =>
      `PATH=${sh(path)}; if out="$(mcp_content_image ${sh(png)})"; then printf 'ok:%s' "$out"; ` +
      `else printf 'failed:%s' "$?"; fi`;
    const links = ['openssl', 'tr', 'file'].map((name) => `ln -s "$(command -v ${name})" ${sh(join(bin, name))}`);
    const setup = await box.run(`mkdir -p ${sh(bin)}; ${links.join('; ')}`);
    t.equal(setup.code, 0, setup.stderr);
    const viaOpenssl = await box.run(script(bin));
    t.match(viaOpenssl.stdout, /^ok:/);
    t.equal(JSON.parse(viaOpenssl.stdout.slice(3)).data, PNG.toString('base64'));
    const none = join(box.dir, 'no-encoder');
    const noneSetup = await box.run(`mkdir -p ${sh(none)}; ln -s "$(command -v tr)" ${sh(join(none, 'tr'))}`);
    t.equal(noneSetup.code, 0);
    const failed = await box.run(script(none));
    t.equal(failed.stdout, 'failed:1');
    t.match(failed.stderr, /mcp_content_image: neither base64 nor openssl is installed/);
  });

  t.test('a missing file or a directory: status 1 and a warning, nothing printed', async (t) => {
    for (const file of [join(box.dir, 'missing.png'), box.dir]) {
      const run = await box.run(`mcp_content_audio ${sh(file)} || printf 'status %s' "$?"`);
      t.equal(run.stdout, 'status 1');
      t.match(run.stderr, /mcp_content_audio: not a readable file/);
    }
  });

  t.test('mcp_content_resource_link: uri and name, the optional fields in order', async (t) => {
    const run = await box.run(
      `mcp_content_resource_link file:///tmp/report.pdf report --mime application/pdf --title 'The "report"' ` +
        `--description 'Q3 numbers' --size 2048`,
    );
    t.equal(run.code, 0, run.stderr);
    t.same(JSON.parse(run.stdout), {
      type: 'resource_link',
      uri: 'file:///tmp/report.pdf',
      name: 'report',
      mimeType: 'application/pdf',
      title: 'The "report"',
      description: 'Q3 numbers',
      size: 2048,
    });
    const bad = await box.run(`mcp_content_resource_link file:///x || printf 'status %s' "$?"`);
    t.equal(bad.stdout, 'status 1');
    t.match(bad.stderr, /a URI and a name are required/);
    const badSize = await box.run('mcp_content_resource_link mem://a a --size lots');
    t.same(JSON.parse(badSize.stdout), { type: 'resource_link', uri: 'mem://a', name: 'a' });
    t.match(badSize.stderr, /--size needs a number of bytes/);
  });

  t.test('mcp_result_content: several blocks in one result; plain text becomes a text block', async (t) => {
    const run = await box.run(
      `mcp_result_content "$(mcp_content_text Here)" "$(mcp_content_image ${sh(png)})" '{not a block}' ` +
        `"$(mcp_content_resource_link mem://x x)"`,
    );
    t.equal(run.code, 0, run.stderr);
    t.same(JSON.parse(run.stdout), {
      content: [
        { type: 'text', text: 'Here' },
        { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
        { type: 'text', text: '{not a block}' },
        { type: 'resource_link', uri: 'mem://x', name: 'x' },
      ],
      isError: false,
    });
    const empty = await box.run('mcp_result_content');
    t.same(JSON.parse(empty.stdout), { content: [], isError: false });
  });

  t.test('mcp_prompt_message: one message per line; a block as is, anything else as text', async (t) => {
    const run = await box.run(
      `mcp_prompt_message user "$(mcp_content_image ${sh(png)})"; mcp_prompt_message assistant ${sh('Saw "it"')}`,
    );
    t.equal(run.code, 0, run.stderr);
    t.same(
      run.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
      [
        { role: 'user', content: { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' } },
        { role: 'assistant', content: { type: 'text', text: 'Saw "it"' } },
      ],
    );
    const bad = await box.run(`mcp_prompt_message system hi || printf 'status %s' "$?"`);
    t.equal(bad.stdout, 'status 1', 'no message for a role MCP does not have');
    t.match(bad.stderr, /the role must be user or assistant, got 'system'/);
  });
});
