import type { ScriptHost } from '../providers/script-run.js';
import { selfBinary } from '../runner/self-binary.js';
import type { ProjectRole, SessionRole } from './server-context.js';

/** How this server runs a project's provider, completion and prompt scripts (providers/script-run.ts). */
export function scriptHost(context: ProjectRole & Pick<SessionRole, 'config'>): ScriptHost {
  const { config } = context;
  return {
    layout: context.project.layout,
    home: context.home,
    env: context.env,
    config: config.providers,
    stderrTailBytes: Math.max(config.stderrTailBytes, 1024),
    killGraceMs: config.killGraceMs,
    processes: context.processes,
    selfBinary: selfBinary(context.stateDir),
  };
}
