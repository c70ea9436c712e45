/**
 * JSON Schemas (2020-12) of what CLI commands print with --json (and of the JSON of
 * `registry` and `health`). Every report is one line with `schemaVersion` first
 * (json-report.ts, docs/CLI.md). Tests check every output against them; scripts may too.
 */

const schemaVersion = { const: 1 } as const;

const kindRefresh = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { enum: ['ok', 'failed', 'skipped'] },
    count: { type: 'integer', minimum: 0 },
    error: { type: 'string' },
    filter: { type: 'string' },
    matched: { type: 'integer', minimum: 0 },
  },
  additionalProperties: false,
} as const;

/** `mcp-bash registry refresh` */
export const registryRefreshSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['schemaVersion', 'tools', 'resources', 'resourceTemplates', 'prompts', 'ui', 'notificationsSent', 'mode'],
  properties: {
    schemaVersion,
    tools: kindRefresh,
    resources: kindRefresh,
    resourceTemplates: kindRefresh,
    prompts: kindRefresh,
    ui: kindRefresh,
    notificationsSent: { const: false },
    mode: { enum: ['full', 'minimal'] },
  },
  additionalProperties: false,
} as const;

const cacheFileStatus = {
  type: 'object',
  required: ['status', 'path'],
  properties: {
    status: { enum: ['present', 'missing', 'invalid'] },
    path: { type: 'string' },
    count: { type: 'integer', minimum: 0 },
    hash: { type: 'string' },
    mtime: { type: 'string' },
    /** Why an `invalid` file cannot be used. */
    reason: { type: 'string' },
  },
  additionalProperties: false,
} as const;

/** `mcp-bash registry status` */
export const registryStatusSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: [
    'schemaVersion',
    'projectRoot',
    'jsonTool',
    'jsonToolBuiltin',
    'tools',
    'resources',
    'resourceTemplates',
    'prompts',
    'ui',
  ],
  properties: {
    schemaVersion,
    projectRoot: { type: 'string' },
    jsonTool: { enum: ['jq', 'gojq', 'none'] },
    jsonToolBuiltin: { type: 'boolean' },
    tools: cacheFileStatus,
    resources: cacheFileStatus,
    resourceTemplates: cacheFileStatus,
    prompts: cacheFileStatus,
    ui: cacheFileStatus,
  },
  additionalProperties: false,
} as const;

/** `mcp-bash validate --json` */
export const validateReportSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['schemaVersion', 'projectRoot', 'errors', 'warnings', 'fixesApplied', 'strict', 'defaults', 'messages'],
  properties: {
    schemaVersion,
    projectRoot: { type: 'string' },
    errors: { type: 'integer', minimum: 0 },
    warnings: { type: 'integer', minimum: 0 },
    fixesApplied: { type: 'integer', minimum: 0 },
    strict: { type: 'boolean' },
    defaults: {
      type: 'object',
      required: ['name', 'title', 'version'],
      properties: { name: { type: 'string' }, title: { type: 'string' }, version: { type: 'string' } },
      additionalProperties: false,
    },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['level', 'section', 'message'],
        properties: {
          level: { enum: ['error', 'warning', 'info'] },
          section: { enum: ['server', 'tools', 'prompts', 'resources', 'ui', 'registrations'] },
          message: { type: 'string' },
          file: { type: 'string' },
          field: { type: 'string' },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;

const action = {
  type: 'object',
  required: ['id', 'message', 'command'],
  properties: {
    id: { type: 'string' },
    message: { type: 'string' },
    command: { type: ['string', 'null'] },
    ok: { type: 'boolean' },
    error: { type: 'string' },
  },
  additionalProperties: false,
} as const;

/** `mcp-bash doctor --json` (schemaVersion 1) */
export const doctorReportSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  // 1.x's sections (schemaVersion 1), plus binary, assets and optional of our own.
  required: [
    'schemaVersion',
    'exitCode',
    'findings',
    'proposedActions',
    'actionsTaken',
    'framework',
    'runtime',
    'install',
    'shim',
    'macOS',
    'windows',
    'project',
    'errors',
    'warnings',
    'binary',
    'assets',
    'optional',
  ],
  properties: {
    schemaVersion: { const: 1 },
    exitCode: { enum: [0, 1] },
    findings: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'severity', 'message', 'fixable', 'suggestedCommand'],
        properties: {
          id: { type: 'string', pattern: '^[a-z]+\\.[a-z_]+$' },
          severity: { enum: ['error', 'warning', 'info'] },
          message: { type: 'string' },
          fixable: { type: 'boolean' },
          suggestedCommand: { type: ['string', 'null'] },
        },
        additionalProperties: false,
      },
    },
    proposedActions: { type: 'array', items: action },
    actionsTaken: { type: 'array', items: { ...action, required: ['id', 'message', 'command', 'ok'] } },
    binary: {
      type: 'object',
      required: ['path', 'version', 'invocation'],
      properties: {
        path: { type: 'string' },
        version: { type: 'string' },
        invocation: { enum: ['native', 'node'] },
        node: { type: 'string' },
      },
    },
    framework: {
      type: 'object',
      required: ['path', 'exists', 'version', 'pathConfigured'],
      properties: {
        path: { type: ['string', 'null'] },
        exists: { type: 'boolean' },
        version: { type: 'string' },
        pathConfigured: { type: 'boolean' },
        resolvedOnPath: { type: ['string', 'null'] },
        origin: { enum: ['env', 'extracted', 'fallback', null] },
        sdk: { type: 'string' },
      },
    },
    install: {
      type: 'object',
      required: ['managedRoot', 'markerPath', 'markerPresent', 'managed', 'reason'],
      properties: {
        managedRoot: { type: ['string', 'null'] },
        markerPath: { type: ['string', 'null'] },
        markerPresent: { type: 'boolean' },
        managed: { type: 'boolean' },
        reason: { type: 'string' },
      },
    },
    windows: {
      type: 'object',
      required: ['msysDetected', 'hint'],
      properties: { msysDetected: { type: 'boolean' }, hint: { type: ['string', 'null'] } },
    },
    optional: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
    assets: {
      type: 'object',
      required: ['checked', 'files', 'missing', 'modified', 'intact'],
      properties: {
        checked: { type: 'boolean' },
        files: { type: 'integer' },
        missing: { type: 'array', items: { type: 'string' } },
        modified: { type: 'array', items: { type: 'string' } },
        intact: { type: ['boolean', 'null'] },
      },
    },
    runtime: {
      type: 'object',
      required: ['bashVersion', 'jqPath', 'gojqPath', 'jsonTool', 'tmpRoot', 'tmpRootWritable'],
      properties: {
        bashVersion: { type: ['string', 'null'] },
        jqPath: { type: ['string', 'null'] },
        gojqPath: { type: ['string', 'null'] },
        jsonTool: { enum: ['jq', 'gojq', 'none'] },
        jsonToolBuiltin: { type: 'boolean' },
        tmpRoot: { type: 'string' },
        tmpRootWritable: { type: 'boolean' },
      },
    },
    shim: {
      type: 'object',
      required: ['path', 'target', 'status', 'detail'],
      properties: {
        path: { type: ['string', 'null'] },
        target: { type: ['string', 'null'] },
        status: { enum: ['ok', 'missing', 'broken', 'wrong_target', 'not_symlink'] },
        detail: { type: 'string' },
      },
    },
    macOS: {
      type: 'object',
      required: ['applicable', 'quarantined'],
      properties: { applicable: { type: 'boolean' }, quarantined: { type: ['boolean', 'null'] } },
    },
    project: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['root', 'serverMetaValid', 'toolsCount', 'registryExists'],
          properties: {
            root: { type: 'string' },
            serverMetaValid: { type: ['boolean', 'null'] },
            toolsCount: { type: 'integer' },
            registryExists: { type: 'boolean' },
          },
        },
      ],
    },
    errors: { type: 'integer', minimum: 0 },
    warnings: { type: 'integer', minimum: 0 },
  },
  additionalProperties: false,
} as const;

/** `mcp-bash health` / `ready` */
export const healthReportSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['schemaVersion', 'status'],
  oneOf: [
    {
      required: ['status', 'mode', 'jsonTool', 'tools', 'resources', 'resourceTemplates', 'prompts', 'projectChecks'],
      properties: {
        schemaVersion,
        status: { enum: ['ok', 'unhealthy'] },
        mode: { const: 'full' },
        jsonTool: { enum: ['jq', 'gojq', 'none'] },
        tools: { type: ['integer', 'null'] },
        resources: { type: ['integer', 'null'] },
        resourceTemplates: { type: ['integer', 'null'] },
        prompts: { type: ['integer', 'null'] },
        /** MCP Apps views (2.x; not in 1.x's report). */
        ui: { type: ['integer', 'null'] },
        projectChecks: { enum: ['none', 'ok', 'failed', 'untrusted'] },
        errors: { type: 'object', additionalProperties: { type: 'string' } },
      },
      additionalProperties: false,
    },
    {
      required: ['status', 'reason', 'timeoutSecs'],
      properties: {
        schemaVersion,
        status: { const: 'unhealthy' },
        reason: { const: 'timeout' },
        timeoutSecs: { type: 'integer' },
      },
      additionalProperties: false,
    },
    {
      // Only `serve --http`'s /readyz, while the server drains (D209).
      required: ['status', 'reason'],
      properties: {
        schemaVersion,
        status: { const: 'unhealthy' },
        reason: { const: 'shutting-down' },
      },
      additionalProperties: false,
    },
    {
      required: ['status', 'reason', 'message'],
      properties: {
        schemaVersion,
        status: { const: 'error' },
        reason: { enum: ['json_tool_missing', 'misconfigured', 'remote_token_invalid'] },
        message: { type: 'string' },
      },
      additionalProperties: false,
    },
  ],
} as const;

/** `mcp-bash config --json` */
export const configJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['name', 'command', 'args', 'env'],
  properties: {
    name: { type: 'string' },
    command: { type: 'string' },
    args: { type: 'array', items: { type: 'string' } },
    env: {
      type: 'object',
      required: ['MCPBASH_PROJECT_ROOT', 'MCPBASH_TOOL_ALLOWLIST'],
      additionalProperties: { type: 'string' },
    },
  },
  additionalProperties: false,
} as const;
