import { bool, decimal, inSection, int, text } from '../setting-kinds.js';

const MIB = 1024 * 1024;

function ttl(what: string) {
  return decimal({ usedBy: ['registry'], default: 5, min: 0, doc: what });
}

/** How discovery results are cached, trusted and bounded. */
export const registrySettings = inSection('Registry', {
  MCP_TOOLS_TTL: ttl('seconds a tools scan is reused'),
  MCP_RESOURCES_TTL: ttl('the same for resources'),
  MCP_RESOURCES_TEMPLATES_TTL: ttl('the same for resource templates'),
  MCP_PROMPTS_TTL: ttl('the same for prompts'),
  MCP_UI_TTL: ttl('the same for MCP Apps views (`.registry/ui-resources.json`)'),
  MCPBASH_REGISTER_TTL: ttl('seconds a `register.sh` result is reused'),
  MCPBASH_STATIC_REGISTRY: bool({
    usedBy: ['registry'],
    default: false,
    doc: 'trust pre-generated `.registry/*.json` (bundles); `register.sh` is not run',
  }),
  MCPBASH_REGISTRY_REFRESH_PATH: text({
    usedBy: ['registry'],
    doc: 'scan only this sub-path of `tools/` (D69)',
  }),
  MCPBASH_REGISTRY_MAX_BYTES: int({
    usedBy: ['registry', 'server'],
    default: 100 * MIB,
    min: 1,
    doc: 'a larger registry (and list response) is an error',
  }),
  MCPBASH_MAX_MANUAL_REGISTRY_BYTES: int({
    usedBy: ['registry'],
    default: MIB,
    min: 1,
    doc: 'largest `register.json`',
  }),
  MCPBASH_MANUAL_BUFFER_MAX_BYTES: int({
    usedBy: ['registry'],
    default: MIB,
    min: 1,
    doc: 'largest `register.sh` output and registrations',
  }),
});
