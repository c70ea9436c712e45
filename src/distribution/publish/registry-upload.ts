import { CliError, ExitCode } from '../../cli/cli-error.js';
import type { PublishableBundle } from './bundle-manifest.js';

/** The registry 1.x published to; MCP_REGISTRY_URL points elsewhere. */
export { DEFAULT_REGISTRY_URL } from '../../config/settings/cli.js';

const UPLOAD_TIMEOUT_MS = 120_000;

/** The request `publish` sends (also what `--dry-run` and `--verbose` show). */
export interface UploadRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** MCP_REGISTRY_URL, checked: an http or https URL (a dry run must fail where the upload would). */
export function registryBaseUrl(value: string): string {
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new CliError(
      `MCP_REGISTRY_URL is not an http(s) URL: "${value}"`,
      ExitCode.Usage,
      'Set it to the registry, e.g. https://registry.example.com, or unset it for the default.',
    );
  return value;
}

/** POST <registry>/api/v1/bundles with the bundle as the body. */
export function uploadRequest(registryUrl: string, token: string, bundle: PublishableBundle): UploadRequest {
  return {
    url: `${registryUrl.replace(/\/+$/, '')}/api/v1/bundles`,
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/octet-stream',
      'X-Bundle-Name': bundle.name,
      'X-Bundle-Version': bundle.version,
    },
  };
}

/** The registry's own words, from a JSON `{message}`/`{error}` body or the text. */
function registryMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown; detail?: unknown };
    const message = parsed.message ?? parsed.error ?? parsed.detail;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON
  }
  return body.trim().slice(0, 500);
}

/** What a registry answer means for the user; throws for every failure (exit 1). */
export function interpretAnswer(status: number, body: string, bundle: PublishableBundle): string {
  const label = `${bundle.name}@${bundle.version}`;
  const detail = registryMessage(body);
  const said = detail ? `: ${detail}` : '';
  if (status === 200 || status === 201) return `Published ${label}${said}`;
  if (status === 401)
    throw new CliError(
      `the registry refused the token (HTTP 401)${said}`,
      ExitCode.Failure,
      'Check --token or MCP_REGISTRY_TOKEN.',
    );
  if (status === 409)
    throw new CliError(
      `${label} is already published (HTTP 409)${said}`,
      ExitCode.Failure,
      'Bump the version (MCPB_VERSION or --version) and bundle again.',
    );
  if (status === 422)
    throw new CliError(
      `the registry rejected the bundle (HTTP 422)${said}`,
      ExitCode.Failure,
      "Fix what it names; 'mcp-bash bundle --validate' checks the manifest.",
    );
  throw new CliError(`the registry answered HTTP ${status}${said}`, ExitCode.Failure);
}

/** Sends the bundle; network failures are CliErrors naming the URL. */
export async function upload(
  request: UploadRequest,
  bundle: PublishableBundle,
): Promise<{ status: number; body: string }> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: bundle.data,
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
      // fetch would follow a 301/302/303 as a GET without the bundle, and the page it lands
      // on (200) would read as published; 1.x's curl did not follow either.
      redirect: 'manual',
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new CliError(
      `cannot reach ${request.url}: ${cause ?? (error as Error).message}`,
      ExitCode.Failure,
      'Check MCP_REGISTRY_URL and the network.',
    );
  }
  const location = response.headers.get('location');
  const where = location ? ` to ${location}` : '';
  if (response.status >= 300 && response.status < 400)
    throw new CliError(
      `the registry answered HTTP ${response.status}, a redirect${where}; nothing was published`,
      ExitCode.Failure,
      'Set MCP_REGISTRY_URL to the address the registry itself serves (https://...).',
    );
  return { status: response.status, body: await response.text() };
}
