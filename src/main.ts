// First, before any module can ask Node for the colour depth (which warns once).
import './process/color-warning-filter.js';
import { embeddedAssets } from './assets/embedded-assets.js';
import { embeddedServerCjs } from './assets/embedded-server-cjs.js';
import { runCli } from './cli/dispatch.js';

// A closed pipe on stdout (`mcp-bash --help | head -1`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

const io = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  // A plain copy: process.env answers every read through the C++ layer, and each tool call
  // builds its environment from it (~20 us a call for ~40 variables). Nothing here sets it.
  env: { ...process.env },
  cwd: process.cwd(),
};

// Never process.exit(): it would drop queued stdout writes. The loop drains, then exits.
runCli(process.argv.slice(2), { io, assets: embeddedAssets, embeddedServerCjs }).then((code) => {
  process.exitCode = code;
});
