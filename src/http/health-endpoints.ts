import type { IncomingMessage, ServerResponse } from 'node:http';
import { refusal, sendJson, sendRefusal } from './http-replies.js';

/** What `mcp-bash health` reports, as a readiness check of the running server. */
export interface Readiness {
  readonly ready: boolean;
  /** The report `mcp-bash health` prints (its status, counts, projectChecks). */
  readonly report: Readonly<Record<string, unknown>>;
}

type ReadinessCheck = () => Promise<Readiness>;

/** `/readyz`'s answers: the checks, and the report while the server shuts down (no check runs). */
export interface ReadinessProbe {
  readonly check: ReadinessCheck;
  readonly shuttingDownReport: Readonly<Record<string, unknown>>;
}

/**
 * `/healthz` (liveness: the server answers) and `/readyz` (readiness: the checks of
 * `mcp-bash health` on the served project - registries, server.d/health-checks.sh - and not
 * shutting down), for load balancers and Kubernetes probes. 200 when fine, 503 when not;
 * the body is the health report. Concurrent probes share one check.
 */
export class HealthEndpoints {
  private running: Promise<Readiness> | undefined;

  constructor(
    private readonly readiness: ReadinessProbe,
    private readonly draining: () => boolean,
  ) {}

  /** Answers `path` when it is one of ours; false otherwise. */
  async handle(path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (path !== '/healthz' && path !== '/readyz') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendRefusal(res, refusal(405, 'Method Not Allowed', { Allow: 'GET, HEAD' }));
      return true;
    }
    if (path === '/healthz') {
      sendJson(res, 200, JSON.stringify({ status: 'ok' }));
      return true;
    }
    if (this.draining()) {
      sendJson(res, 503, JSON.stringify(this.readiness.shuttingDownReport));
      return true;
    }
    this.running ??= this.readiness.check().finally(() => {
      this.running = undefined;
    });
    const { ready, report } = await this.running;
    sendJson(res, ready ? 200 : 503, JSON.stringify(report));
    return true;
  }
}
