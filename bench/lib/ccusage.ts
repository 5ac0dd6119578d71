/** ccusage, installed on demand into a temp prefix (never a project dependency), and its output. */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from 'zod'

export const CCUSAGE_VERSION = '20.0.24'

/** Installs `ccusage@20.0.24` under `prefix` unless it is already there; returns its cli.js. */
export async function ensureCcusage(prefix: string): Promise<string> {
  const cli = join(prefix, 'node_modules', 'ccusage', 'src', 'cli.js')
  const manifest = join(prefix, 'node_modules', 'ccusage', 'package.json')
  if (existsSync(cli)) {
    const { version } = z
      .object({ version: z.string() })
      .parse(JSON.parse(await readFile(manifest, 'utf8')))
    if (version === CCUSAGE_VERSION) return cli
  }
  await new Promise<void>((resolve, reject) => {
    const npm = spawn(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        `ccusage@${CCUSAGE_VERSION}`,
        '--no-audit',
        '--no-fund',
        '--no-save',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
    let stderr = ''
    npm.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    npm.on('error', reject)
    npm.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm install ccusage failed (${code}): ${stderr}`)),
    )
  })
  if (!existsSync(cli)) throw new Error(`ccusage installed but ${cli} is missing`)
  return cli
}

const tokenTotalsSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheCreationTokens: z.number(),
  totalTokens: z.number(),
})

const sessionReportSchema = z.object({
  session: z.array(z.looseObject({ period: z.string().optional() })),
  totals: tokenTotalsSchema,
})

export interface CcusageSummary {
  sessions: number
  tokens: {
    input: number
    output: number
    cache_read: number
    cache_creation: number
    total: number
  }
}

/** Reads `ccusage session --json` output; null when it is not the expected shape. */
export function parseCcusageSession(stdout: string): CcusageSummary | null {
  let json: unknown
  try {
    json = JSON.parse(stdout)
  } catch {
    return null
  }
  const parsed = sessionReportSchema.safeParse(json)
  if (!parsed.success) return null
  const t = parsed.data.totals
  return {
    sessions: parsed.data.session.length,
    tokens: {
      input: t.inputTokens,
      output: t.outputTokens,
      cache_read: t.cacheReadTokens,
      cache_creation: t.cacheCreationTokens,
      total: t.totalTokens,
    },
  }
}
