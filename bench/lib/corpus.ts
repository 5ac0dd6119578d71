/**
 * A generated corpus of Claude Code transcripts shaped like the real ones (agent-cli-formats.md §8):
 * `<claudeConfigDir>/projects/<encoded cwd>/<session>.jsonl` with prompts, assistant responses split
 * one line per content block (same message.id and usage), tool_use/tool_result pairs whose payloads
 * range from a few hundred bytes to 200 KB (the result twice: message content and toolUseResult, as
 * Claude Code writes it), turn_duration, file-history-snapshot, ai-title and last-prompt lines.
 * Deterministic (seeded), streamed to disk, reused while its marker file matches the parameters.
 */
import { createWriteStream } from 'node:fs'
import { mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createRandom } from './report.ts'
import { buildTurn, type SessionContext } from './transcript-lines.ts'

export { appendedPromptLine } from './appended-line.ts'

export interface CorpusSpec {
  /** Root of the corpus; the Claude config dir is `<root>/claude`. */
  root: string
  totalBytes: number
  sessions: number
  projects: number
  seed?: number
  /**
   * The projects' folders (real repositories, for a benchmark that wants git in the picture); one per
   * project, in order. @default folders under /home/dev/workspace that do not exist
   */
  projectDirs?: readonly string[]
}

export interface Corpus {
  claudeConfigDir: string
  /** Every transcript, in generation order. */
  files: { path: string; sessionId: string; cwd: string; bytes: number }[]
  bytes: number
  reused: boolean
  generateMs: number
}

const FORMAT_VERSION = 1
const PROJECT_NAMES = (
  'apollo billing-api checkout-web data-pipeline design-system edge-proxy feature-flags ' +
  'geo-service helm-charts identity infra-terraform ios-app jobs-runner kafka-tools ' +
  'landing-page ledger mobile-sdk notifications observability orders payments pdf-render ' +
  'queue-worker recommendations search-index settings-ui shipping sso-gateway storefront ' +
  'support-bot telemetry translations uploader user-profile video-encoder warehouse webhooks ' +
  'wiki xml-import zeta-cli'
).split(' ')

function markerOf(spec: CorpusSpec): string {
  const { totalBytes, sessions, projects, seed, projectDirs } = spec
  return JSON.stringify({
    version: FORMAT_VERSION,
    totalBytes,
    sessions,
    projects,
    seed: seed ?? 1,
    ...(projectDirs ? { projectDirs } : {}),
  })
}

/** Claude Code's folder name for a cwd: every non-alphanumeric character becomes `-`. */
export function encodeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-')
}

/** Generates the corpus under `spec.root`, or reuses the one already there with the same spec. */
export async function ensureCorpus(spec: CorpusSpec): Promise<Corpus> {
  const claudeConfigDir = join(spec.root, 'claude')
  const markerFile = join(spec.root, 'corpus.json')
  const marker = markerOf(spec)
  const existing = await readFile(markerFile, 'utf8').catch(() => null)
  if (existing !== null) {
    const saved = JSON.parse(existing) as { marker: string; files: Corpus['files'] }
    if (saved.marker === marker && (await allIntact(saved.files))) {
      const bytes = saved.files.reduce((sum, f) => sum + f.bytes, 0)
      return { claudeConfigDir, files: saved.files, bytes, reused: true, generateMs: 0 }
    }
  }
  await rm(spec.root, { recursive: true, force: true })
  const started = performance.now()
  const random = createRandom(spec.seed ?? 1)
  const projectCwds =
    spec.projectDirs ??
    Array.from({ length: spec.projects }, (_, i) => {
      const name = PROJECT_NAMES[i % PROJECT_NAMES.length] ?? 'project'
      const suffix = i >= PROJECT_NAMES.length ? `-${Math.floor(i / PROJECT_NAMES.length)}` : ''
      return `/home/dev/workspace/${name}${suffix}`
    })
  const weights = Array.from({ length: spec.sessions }, () => Math.exp(0.6 * gaussian(random)))
  const weightSum = weights.reduce((a, b) => a + b, 0)
  const now = Date.now()
  const files: Corpus['files'] = []
  for (const [i, weight] of weights.entries()) {
    const project = projectCwds[i % projectCwds.length] ?? '/home/dev/workspace/apollo'
    // One session in five runs in a sub-folder of its project, as in a monorepo.
    const cwd = random() < 0.2 ? `${project}/packages/core` : project
    const dir = join(claudeConfigDir, 'projects', encodeCwd(cwd))
    await mkdir(join(dir, 'memory'), { recursive: true })
    const sessionId = uuid(random)
    const path = join(dir, `${sessionId}.jsonl`)
    const target = Math.round((spec.totalBytes * weight) / weightSum)
    const startMs = now - 30 * 24 * 3600_000 + random() * 29 * 24 * 3600_000
    const context: SessionContext = {
      random,
      sessionId,
      cwd,
      branch: random() < 0.5 ? 'main' : `feature/${(i * 7919).toString(36)}`,
      model: random() < 0.7 ? 'claude-sonnet-4-5-20250929' : 'claude-opus-4-1-20250805',
      clockMs: startMs,
      turn: 0,
      lastUuid: null,
    }
    const bytes = await writeSession(path, target, context)
    const lastActivity = new Date(context.clockMs)
    await utimes(path, lastActivity, lastActivity)
    files.push({ path, sessionId, cwd, bytes })
  }
  const generateMs = performance.now() - started
  await writeFile(markerFile, JSON.stringify({ marker, files }))
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0)
  return { claudeConfigDir, files, bytes, reused: false, generateMs }
}

/** Every file still there with the size it was generated with (a tmp cleaner may have been by). */
async function allIntact(files: Corpus['files']): Promise<boolean> {
  for (const file of files) {
    const info = await stat(file.path).catch(() => null)
    if (info?.size !== file.bytes) return false
  }
  return true
}

/** Streams turns into `path` until it holds at least `target` bytes; returns the bytes written. */
async function writeSession(
  path: string,
  target: number,
  context: SessionContext,
): Promise<number> {
  const out = createWriteStream(path)
  const write = async (chunk: string): Promise<void> => {
    if (!out.write(chunk)) await new Promise<void>((done) => out.once('drain', () => done()))
  }
  let bytes = 0
  let pending = `${JSON.stringify({ type: 'permission-mode', permissionMode: 'default', sessionId: context.sessionId })}\n`
  while (bytes + Buffer.byteLength(pending) < target) {
    pending += buildTurn(context)
    if (pending.length > 256 * 1024) {
      bytes += Buffer.byteLength(pending)
      await write(pending)
      pending = ''
    }
  }
  bytes += Buffer.byteLength(pending)
  await write(pending)
  await new Promise<void>((done, fail) => {
    out.once('error', fail)
    out.end(() => done())
  })
  return bytes
}

function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-9)
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random())
}

function uuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`
}
