/**
 * The argv and environment of a headless PM run (`claude -p`), as pure data. Every flag here was
 * checked on the real CLI 2.1.197 (reference, sections 2, 4, 6 and 7, and tests/integration/
 * pm-invoke.test.ts): the effect, not only that the flag is accepted.
 */
import { isAbsolute } from 'node:path'
import { pmSettingsSchema } from '../../../shared/schemas/config.ts'

/** The model the PM runs with unless `pm.model` says otherwise: the config schema's default (docs/pm.md). */
export const DEFAULT_PM_MODEL = pmSettingsSchema.parse({}).model

/** The only tools the PM is offered (StructuredOutput is added by `--json-schema`). */
export const PM_TOOLS = ['Read', 'Write', 'Edit'] as const

/**
 * The CLI's own retries per Navi attempt. Navi retries 429/529/5xx itself with 1 s, 2 s, 4 s, so
 * the CLI's default (10 retries over ~3 minutes) would multiply with Navi's into a quarter hour.
 * One CLI retry still rides out a single blip in the middle of a run without re-running it whole.
 */
export const DEFAULT_CLI_MAX_RETRIES = 1

export interface PmArgsInput {
  /** The JSON Schema text for `--json-schema` (no `$schema` key: see {@link schemaArgJson}). */
  schemaJson: string
  /** Absolute path of `system-prompt.md`. */
  systemPromptFile: string
  /** @default DEFAULT_PM_MODEL */
  model?: string
  /** Absolute, symlink-free path of the PM directory (also the cwd). */
  pmDir: string
  /** Absolute, symlink-free path of the memory directory. */
  memoryDir: string
  /** Resume this PM session instead of starting a fresh one. */
  resumeId?: string
  /** `stream-json` (one line per message, for the status line) instead of one `json` envelope. */
  stream: boolean
  /** With `stream`: the deltas of each message too (`--include-partial-messages`), for an answer shown as it comes. */
  partialMessages?: boolean
  /**
   * Keep the session's transcript under `$CLAUDE_CONFIG_DIR/projects/` (needed to `--resume` it
   * later). Off by default: a fresh PM run leaves no transcript for Navi's own watcher to find.
   * @default false
   */
  persistSession?: boolean
}

/**
 * Allow rules of section 7: `Read(//<abs pm dir>/**)` and `Edit(//<abs memory dir>/**)`. The double
 * slash marks an absolute path (a single slash is relative to the cwd); an `Edit(...)` rule also
 * grants Write, while a `Write(...)` rule alone did not.
 */
export function pmAllowRules(pmDir: string, memoryDir: string): string[] {
  return [`Read(/${stripTrailingSlash(pmDir)}/**)`, `Edit(/${stripTrailingSlash(memoryDir)}/**)`]
}

/**
 * The argv after the binary. The inbox is NOT in it: it goes to stdin (untrusted and possibly
 * large). `--setting-sources ''` loads no user/project/local settings, so the user's hooks,
 * permission rules (a user `allow: ["Write"]` let the PM write anywhere), CLAUDE.md files, env
 * block and MCP servers stay out; `--strict-mcp-config` with no `--mcp-config` keeps MCP empty
 * even if a future version stops tying MCP to the setting sources.
 */
export function buildPmArgs(input: PmArgsInput): string[] {
  for (const [name, path] of [
    ['pmDir', input.pmDir],
    ['memoryDir', input.memoryDir],
    ['systemPromptFile', input.systemPromptFile],
  ] as const) {
    if (!isAbsolute(path)) throw new Error(`buildPmArgs: ${name} must be absolute, got ${path}`)
  }
  const args = ['-p']
  if (input.stream) args.push('--output-format', 'stream-json', '--verbose')
  else args.push('--output-format', 'json')
  if (input.stream && input.partialMessages) args.push('--include-partial-messages')
  args.push(
    '--json-schema',
    input.schemaJson,
    '--system-prompt-file',
    input.systemPromptFile,
    '--model',
    input.model ?? DEFAULT_PM_MODEL,
    '--tools',
    PM_TOOLS.join(','),
    '--permission-mode',
    'dontAsk',
    '--allowedTools',
    ...pmAllowRules(input.pmDir, input.memoryDir),
    '--setting-sources',
    '',
    '--strict-mcp-config',
  )
  if (input.resumeId !== undefined) args.push('--resume', input.resumeId)
  else if (input.persistSession !== true) args.push('--no-session-persistence')
  return args
}

/**
 * The schema as `--json-schema` text. A `$schema` key is dropped: with
 * `"$schema": "https://json-schema.org/draft/2020-12/schema"` (zod 4's default) CLI 2.1.197
 * silently omits the StructuredOutput tool and the run ends with plain text.
 */
export function schemaArgJson(schema: Record<string, unknown>): string {
  const { $schema: _dropped, ...rest } = schema
  return JSON.stringify(rest)
}

/** Variables copied from Navi's environment when set: what the CLI needs to run and authenticate. */
const PASSED_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'CLAUDE_CONFIG_DIR',
  // Authentication (API key, gateway, OAuth token of `claude setup-token`).
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_CUSTOM_HEADERS',
  'CLAUDE_CODE_OAUTH_TOKEN',
  // Reaching the API from behind a proxy or a corporate CA.
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
]

export interface PmEnvOptions {
  /** `CLAUDE_CODE_MAX_RETRIES`. @default DEFAULT_CLI_MAX_RETRIES */
  cliMaxRetries?: number
}

/**
 * A minimal environment for the PM: the variables above plus `LC_*`, `DISABLE_AUTOUPDATER=1` and a
 * small `CLAUDE_CODE_MAX_RETRIES`. Nothing else of Navi's environment (GITHUB_TOKEN, AWS_*, …)
 * reaches the CLI. Pass it with `extendEnv: false`.
 */
export function buildPmEnv(
  processEnv: Readonly<Record<string, string | undefined>>,
  opts: PmEnvOptions = {},
): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(processEnv)) {
    if (value === undefined || value === '') continue
    if (PASSED_VARIABLES.includes(key) || key.startsWith('LC_')) env[key] = value
  }
  env.DISABLE_AUTOUPDATER = '1'
  env.CLAUDE_CODE_MAX_RETRIES = String(opts.cliMaxRetries ?? DEFAULT_CLI_MAX_RETRIES)
  return env
}

function stripTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}
