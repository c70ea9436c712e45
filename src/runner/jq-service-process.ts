import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Env } from '../config/env-values.js';
import { selfInvocation } from '../process/json-tool.js';

/** How long the service may take to load and listen before tools fall back to `mcp-bash jq`. */
const START_TIMEOUT_MS = 10_000;

/**
 * Starts `mcp-bash jq-service` (this very program) for the tools of one server, and resolves
 * with the `127.0.0.1:PORT:TOKEN` tools get as MCPBASH_JQ_SERVICE, or undefined when it could
 * not start (tools then start `mcp-bash jq` per call, as before). The child's handles are
 * unref'd: it never keeps the server alive, and it exits when its stdin closes, that is when
 * the server exits, however it ends.
 */
export function startJqService(env: Env, warn: (message: string) => void): Promise<string | undefined> {
  const token = randomBytes(24).toString('hex');
  const [command = process.execPath, ...args] = selfInvocation();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: string | undefined, problem?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (problem) warn(`the warm built-in jq did not start (${problem}); tools start \`mcp-bash jq\` per call`);
      resolve(value);
    };
    const child = spawn(command, [...args, 'jq-service'], {
      env: { ...env, MCPBASH_JQ_SERVICE_TOKEN: token },
      stdio: ['pipe', 'pipe', 'ignore'],
      windowsHide: true,
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(undefined, 'no answer within 10 s');
    }, START_TIMEOUT_MS);
    timer.unref();
    child.on('error', (error) => settle(undefined, error.message));
    child.on('exit', (code) => settle(undefined, `exit ${code}`));
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const match = /^listening (\d+)\n/.exec(output);
      if (match) {
        child.stdout.destroy();
        settle(`127.0.0.1:${match[1]}:${token}`);
      } else if (output.includes('\n') || output.length > 100) {
        settle(undefined, `unexpected output ${JSON.stringify(output.slice(0, 100))}`);
      }
    });
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    (child.stdout as unknown as { unref?: () => void }).unref?.();
  });
}
