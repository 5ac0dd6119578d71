import { describe, expect, it } from 'vitest'
import {
  buildPmArgs,
  buildPmEnv,
  DEFAULT_CLI_MAX_RETRIES,
  pmAllowRules,
  schemaArgJson,
} from '../../electron/pm/core/claude-args.ts'

const base = {
  schemaJson: '{"type":"object"}',
  systemPromptFile: '/home/u/.navi/pm/system-prompt.md',
  pmDir: '/home/u/.navi/pm',
  memoryDir: '/home/u/.navi/pm/memory',
}

/** The values following `flag` up to the next `--flag`. */
function valuesOf(args: string[], flag: string): string[] {
  const at = args.indexOf(flag)
  if (at === -1) return []
  const rest = args.slice(at + 1)
  const end = rest.findIndex((a) => a.startsWith('--'))
  return end === -1 ? rest : rest.slice(0, end)
}

describe('buildPmArgs', () => {
  it('builds the least-privilege json invocation with a fresh, unpersisted session', () => {
    const args = buildPmArgs({ ...base, stream: false })
    expect(args[0]).toBe('-p')
    expect(valuesOf(args, '--output-format')).toEqual(['json'])
    expect(args).not.toContain('--verbose')
    expect(valuesOf(args, '--json-schema')).toEqual(['{"type":"object"}'])
    expect(valuesOf(args, '--system-prompt-file')).toEqual([base.systemPromptFile])
    expect(valuesOf(args, '--model')).toEqual(['sonnet'])
    expect(valuesOf(args, '--tools')).toEqual(['Read,Write,Edit'])
    expect(valuesOf(args, '--permission-mode')).toEqual(['dontAsk'])
    expect(valuesOf(args, '--allowedTools')).toEqual([
      'Read(//home/u/.navi/pm/**)',
      'Edit(//home/u/.navi/pm/memory/**)',
    ])
    expect(valuesOf(args, '--setting-sources')).toEqual([''])
    expect(args).toContain('--strict-mcp-config')
    expect(args).toContain('--no-session-persistence')
    expect(args).not.toContain('--resume')
    // Nothing runs the inbox through argv: every value belongs to a flag (except -p).
    expect(args.filter((a) => a.includes('INBOX'))).toEqual([])
  })

  it('streams with --verbose, honours the model and resumes without dropping persistence', () => {
    const args = buildPmArgs({
      ...base,
      stream: true,
      model: 'opus',
      resumeId: '11111111-2222-3333-4444-555555555555',
    })
    expect(valuesOf(args, '--output-format')).toEqual(['stream-json'])
    expect(args).toContain('--verbose')
    expect(valuesOf(args, '--model')).toEqual(['opus'])
    expect(valuesOf(args, '--resume')).toEqual(['11111111-2222-3333-4444-555555555555'])
    expect(args).not.toContain('--no-session-persistence')
  })

  it('persists a fresh session when asked (the first run of resume mode)', () => {
    const args = buildPmArgs({ ...base, stream: false, persistSession: true })
    expect(args).not.toContain('--no-session-persistence')
    expect(args).not.toContain('--resume')
  })

  it('refuses relative paths, which would make the allow rules relative to the cwd', () => {
    expect(() => buildPmArgs({ ...base, stream: false, pmDir: 'pm' })).toThrow(/pmDir/)
    expect(() => buildPmArgs({ ...base, stream: false, memoryDir: './memory' })).toThrow(
      /memoryDir/,
    )
  })
})

describe('pmAllowRules', () => {
  it('uses the double leading slash of absolute paths and ignores a trailing slash', () => {
    expect(pmAllowRules('/a/pm/', '/a/pm/memory/')).toEqual([
      'Read(//a/pm/**)',
      'Edit(//a/pm/memory/**)',
    ])
  })
})

describe('schemaArgJson', () => {
  it('drops $schema and keeps everything else', () => {
    const json = schemaArgJson({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['briefing'],
    })
    expect(JSON.parse(json)).toEqual({ type: 'object', required: ['briefing'] })
  })
})

describe('buildPmEnv', () => {
  const processEnv = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/u',
    USER: 'u',
    LANG: 'en_US.UTF-8',
    LC_ALL: 'en_US.UTF-8',
    TMPDIR: '/tmp',
    CLAUDE_CONFIG_DIR: '/home/u/.claude',
    ANTHROPIC_API_KEY: 'sk-ant-x',
    ANTHROPIC_BASE_URL: 'https://gw.example',
    ANTHROPIC_AUTH_TOKEN: 'tok',
    CLAUDE_CODE_OAUTH_TOKEN: 'oauth',
    HTTPS_PROXY: 'http://proxy:3128',
    GITHUB_TOKEN: 'ghp_secret',
    AWS_SECRET_ACCESS_KEY: 'aws',
    AWS_ACCESS_KEY_ID: 'aws-id',
    OPENAI_API_KEY: 'sk-openai',
    SSH_AUTH_SOCK: '/tmp/ssh.sock',
    NODE_OPTIONS: '--require /tmp/evil.js',
    ANTHROPIC_MODEL: 'opus',
    CLAUDE_CODE_MAX_RETRIES: '10',
    DISABLE_AUTOUPDATER: '0',
    EMPTY_VAR: '',
    ANTHROPIC_CUSTOM_HEADERS: '',
    UNDEFINED_VAR: undefined,
  }

  it('keeps exactly what the CLI needs and forces the auto-updater off and few retries', () => {
    expect(buildPmEnv(processEnv)).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/u',
      USER: 'u',
      LANG: 'en_US.UTF-8',
      LC_ALL: 'en_US.UTF-8',
      TMPDIR: '/tmp',
      CLAUDE_CONFIG_DIR: '/home/u/.claude',
      ANTHROPIC_API_KEY: 'sk-ant-x',
      ANTHROPIC_BASE_URL: 'https://gw.example',
      ANTHROPIC_AUTH_TOKEN: 'tok',
      CLAUDE_CODE_OAUTH_TOKEN: 'oauth',
      HTTPS_PROXY: 'http://proxy:3128',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_MAX_RETRIES: String(DEFAULT_CLI_MAX_RETRIES),
    })
  })

  it('takes the CLI retry count from the options', () => {
    expect(buildPmEnv({ PATH: '/bin' }, { cliMaxRetries: 0 })).toEqual({
      PATH: '/bin',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_MAX_RETRIES: '0',
    })
  })
})
