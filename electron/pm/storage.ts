/**
 * The PM's files under `$NAVI_HOME/pm/` (docs/pm.md, "Storage layout"). Memory files are seeded from
 * templates only when missing, so a user's edits are never overwritten; `system-prompt.md` and
 * `output-schema.json` are Navi's and rewritten on each start (and before each run, with notes).
 */
import { randomBytes } from 'node:crypto'
import { link, mkdir, unlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { naviFiles, pmMemoryFiles, type EnginePaths } from '../engine/core/paths.ts'
import { DEFAULT_MEMORY_BUDGETS, type MemoryBudgets } from './core/memory-budget.ts'
import { recoverInterruptedRestore } from './memory-versions.ts'
import {
  LONG_TERM_TEMPLATE,
  SHORT_TERM_TEMPLATE,
  buildSystemPrompt,
  outputJsonSchema,
} from './templates.ts'
import { writeFileSafely } from '../engine/adapters/safe-write.ts'

/** Absolute paths of everything the PM storage owns. */
export interface PmLayout {
  pmDir: string
  memoryDir: string
  shortTerm: string
  longTerm: string
  projectsDir: string
  /** `<ISO stamp>_<reason>/` copies of the memory dir (snapshots and safety-valve backups). */
  versionsDir: string
  systemPrompt: string
  outputSchema: string
}

export function pmLayout(paths: EnginePaths): PmLayout {
  const files = naviFiles(paths)
  return {
    pmDir: files.pmDir,
    memoryDir: files.memoryDir,
    ...pmMemoryFiles(files.memoryDir),
    versionsDir: files.memoryVersionsDir,
    systemPrompt: files.systemPrompt,
    outputSchema: files.outputSchema,
  }
}

export interface PmPromptOptions {
  /** @default DEFAULT_MEMORY_BUDGETS */
  budgets?: MemoryBudgets
  /** Navi's notes for the next run (see {@link buildSystemPrompt}). */
  notes?: readonly string[]
}

export interface EnsurePmLayoutResult {
  /** Memory files and directories that did not exist and were created from templates. */
  created: string[]
  /** Files (re)written: `system-prompt.md` and `output-schema.json`. */
  written: string[]
  /** Set when an interrupted `restoreMemory` was found and its memory dir put back. */
  recovered: string | null
}

/**
 * Creates the PM layout: `memory/short-term.md`, `memory/long-term.md` and `memory/projects/`
 * only when missing (an existing file, even empty or edited, is left alone), then rewrites
 * `system-prompt.md` and `output-schema.json` atomically.
 */
export async function ensurePmLayout(
  paths: EnginePaths,
  opts: PmPromptOptions = {},
): Promise<EnsurePmLayoutResult> {
  const layout = pmLayout(paths)
  await mkdir(layout.pmDir, { recursive: true })
  const recovered = await recoverInterruptedRestore(layout.pmDir, layout.memoryDir)
  const created: string[] = []
  for (const dir of [layout.memoryDir, layout.projectsDir]) {
    if ((await mkdir(dir, { recursive: true })) !== undefined) created.push(dir)
  }
  if (await createIfMissing(layout.shortTerm, SHORT_TERM_TEMPLATE)) created.push(layout.shortTerm)
  if (await createIfMissing(layout.longTerm, LONG_TERM_TEMPLATE)) created.push(layout.longTerm)

  await writeSystemPrompt(paths, opts)
  await writeFileSafely(layout.outputSchema, `${JSON.stringify(outputJsonSchema(), null, 2)}\n`)
  return { created, written: [layout.systemPrompt, layout.outputSchema], recovered }
}

/**
 * Rewrites `system-prompt.md` with this run's budgets and notes. Call it before a run when
 * {@link enforceMemoryBudgets} returned notes. Returns the prompt text.
 */
export async function writeSystemPrompt(
  paths: EnginePaths,
  opts: PmPromptOptions = {},
): Promise<string> {
  const layout = pmLayout(paths)
  const prompt = buildSystemPrompt({
    memoryDir: layout.memoryDir,
    pmDir: layout.pmDir,
    budgets: opts.budgets ?? DEFAULT_MEMORY_BUDGETS,
    notes: opts.notes ?? [],
  })
  await mkdir(layout.pmDir, { recursive: true })
  await writeFileSafely(layout.systemPrompt, prompt)
  return prompt
}

/**
 * Writes `content` to `file` unless the file exists: the content goes to a temp file first and
 * is hard-linked into place, which fails with EEXIST instead of replacing anything, so the file
 * never appears half written and a concurrent user's file wins.
 */
async function createIfMissing(file: string, content: string): Promise<boolean> {
  const temp = join(dirname(file), `.${randomBytes(6).toString('hex')}.tmp`)
  await writeFile(temp, content, { flag: 'wx' })
  try {
    await link(temp, file)
    return true
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    // File systems without hard links: exclusive create is the next best thing.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') {
      return writeFile(file, content, { flag: 'wx' }).then(
        () => true,
        (e: unknown) => {
          if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false
          throw e
        },
      )
    }
    throw err
  } finally {
    // Best effort: a dot-named temp file left behind harms nothing, and the outcome is already decided.
    await unlink(temp).catch(() => undefined)
  }
}
