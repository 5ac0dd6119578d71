/**
 * A PM directory in a temp root, the scripted API and a hermetic claude config for driving the real
 * `runPm` (electron/pm/invoke.ts): `const pm = await setUpPm()` inside a test (cleanup is
 * registered with `onTestFinished`), `pm.api.enqueue(...)`, then `await pm.run({ trigger: 'commit' })`.
 * The claude config dir holds a deliberately permissive user setup (allow Write/Bash, hooks that
 * touch marker files, a CLAUDE.md), so tests can show none of it reaches the PM run.
 */
import { createHash } from 'node:crypto'
import { existsSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { onTestFinished } from 'vitest'
import { z } from 'zod'
import type { EnginePaths } from '../../electron/engine/core/paths.ts'
import { runPm, type PmRunResult, type RunPmOptions } from '../../electron/pm/invoke.ts'
import { pmOutputSchema } from '../../shared/schemas/briefing.ts'
import { claudeBinary, createClaudeEnv, disposeClaudeEnv, type ClaudeEnv } from './claude-env.ts'
import { hermeticBaseEnv } from './hermetic-env.ts'
import { startScriptedApi, type ScriptedApi } from './scripted-api.ts'

export const SYSTEM_PROMPT_MARKER = 'NAVI-PM-TEST-SYSTEM-PROMPT: you are the project manager.'
export const USER_CLAUDE_MD_MARKER = 'USER-CLAUDE-MD-MARKER-must-not-reach-the-pm'
export const SHORT_TERM = '# Short-Term Memory\n\nNo prior context. First invocation.\n'

export interface PmFixture {
  root: string
  paths: EnginePaths
  pmDir: string
  memoryDir: string
  api: ScriptedApi
  claudeEnv: ClaudeEnv
  /** What runPm filters: the hermetic base, the CLI's test variables and two secrets. */
  env: Record<string, string>
  /** Marker files the user's hooks would create. */
  hookMarkers: string[]
  run(opts: Partial<RunPmOptions> & Pick<RunPmOptions, 'trigger'>): Promise<PmRunResult>
}

export async function setUpPm(): Promise<PmFixture> {
  const root = realpathSync(await mkdtemp(join(tmpdir(), 'navi-pm-invoke-')))
  const api = await startScriptedApi()
  const claudeEnv = await createClaudeEnv({ apiUrl: api.url })
  onTestFinished(async () => {
    await api.close()
    await disposeClaudeEnv(claudeEnv)
    await rm(root, { recursive: true, force: true })
  })
  const paths: EnginePaths = {
    naviHome: join(root, 'navi'),
    claudeConfigDir: claudeEnv.CLAUDE_CONFIG_DIR,
    codexHome: join(root, 'codex'),
  }
  const pmDir = join(paths.naviHome, 'pm')
  const memoryDir = join(pmDir, 'memory')
  await mkdir(join(memoryDir, 'projects'), { recursive: true })
  await writeFile(join(memoryDir, 'short-term.md'), SHORT_TERM)
  await writeFile(join(memoryDir, 'long-term.md'), '# Long-Term Memory\n\nNo observations yet.\n')
  await writeFile(join(pmDir, 'system-prompt.md'), `${SYSTEM_PROMPT_MARKER}\n`)
  // zod's default output, `$schema` key included: runPm must strip it (the CLI would drop the tool).
  await writeFile(join(pmDir, 'output-schema.json'), JSON.stringify(z.toJSONSchema(pmOutputSchema)))

  const hookMarkers = ['hook-session-start', 'hook-pre-tool'].map((n) => join(root, n))
  const touch = (file: string) => ({ hooks: [{ type: 'command', command: `touch ${file}` }] })
  const config = claudeEnv.CLAUDE_CONFIG_DIR
  await writeFile(
    join(config, 'settings.json'),
    JSON.stringify({
      permissions: { allow: ['Bash', 'Write', 'Edit', 'Read'] },
      hooks: {
        SessionStart: [touch(hookMarkers[0] ?? '')],
        PreToolUse: [{ matcher: '*', ...touch(hookMarkers[1] ?? '') }],
      },
    }),
  )
  await writeFile(join(config, 'CLAUDE.md'), `${USER_CLAUDE_MD_MARKER}\n`)

  const env = {
    ...hermeticBaseEnv(),
    ...claudeEnv,
    GITHUB_TOKEN: 'ghp_must_not_leak',
    AWS_SECRET_ACCESS_KEY: 'aws_must_not_leak',
  }
  return {
    root,
    paths,
    pmDir,
    memoryDir,
    api,
    claudeEnv,
    env,
    hookMarkers,
    run: (opts) =>
      runPm({
        paths,
        inbox: { timestamp: '2026-11-22T10:00:00Z', trigger: opts.trigger, events: [] },
        claudeBin: claudeBinary(),
        env,
        timeoutMs: 60_000,
        ...opts,
      }),
  }
}

/** sha256 of every file under `dir` (relative path → hash) for which `keep` is true. */
export async function hashTree(
  dir: string,
  keep: (rel: string) => boolean = () => true,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const full = join(d, entry.name)
      const rel = relative(dir, full)
      if (entry.isDirectory()) await walk(full)
      else if (keep(rel))
        out[rel] = createHash('sha256')
          .update(await readFile(full))
          .digest('hex')
    }
  }
  if (existsSync(dir)) await walk(dir)
  return out
}

/** A valid PM output. */
export function sampleOutput(briefing = 'navi shipped a commit; nothing needs you.') {
  return {
    briefing,
    projects: [
      {
        name: 'navi',
        status: 'active',
        summary: 'PM invocation landed.',
        current_work: 'pm invoke',
      },
    ],
    attention_items: [{ project: 'navi', priority: 'low', title: 'Review the PM tests' }],
    breadcrumbs: [{ project: 'navi', message: 'Left off in invoke.ts' }],
    suggestions: [],
    patterns: [],
  }
}

/** Tool names offered in a recorded request body, sorted. */
export function toolNames(body: unknown): string[] {
  const parsed = z.object({ tools: z.array(z.object({ name: z.string() })) }).safeParse(body)
  return parsed.success
    ? parsed.data.tools
        .map((t) => t.name)
        // 2.1.330 adds a placeholder that stands for deferred tools (loaded through ToolSearch, which
        // `--tools` leaves out): it is not a tool the model can call, so the restriction still holds.
        .filter((name) => name !== DEFERRED_TOOL_PLACEHOLDER)
        .sort()
    : []
}

export const DEFERRED_TOOL_PLACEHOLDER = 'DeferredToolPlaceholder'
