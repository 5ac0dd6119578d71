/**
 * The safety valve run after each PM run: a memory file over its budget by more than the margin
 * is backed up (the whole memory dir becomes a `pre-trim` version under `memory-versions/`, so
 * `restoreMemory` can undo the trim) and trimmed atomically by the rules of `core/memory-budget.ts`.
 * The returned notes go into the next run's system prompt. Other files the PM may create in the
 * memory dir have no budget and are left alone.
 */
import { lstat, readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { EnginePaths } from '../engine/core/paths.ts'
import {
  BUDGET_MARGIN,
  DEFAULT_MEMORY_BUDGETS,
  budgetFor,
  isOverBudget,
  trimNote,
  trimRuleFor,
  trimToBudget,
  type MemoryBudgets,
  type MemoryKind,
} from './core/memory-budget.ts'
import { snapshotMemory, type MemoryVersion } from './memory-versions.ts'
import { pmLayout, type PmLayout } from './storage.ts'
import { writeFileSafely } from '../engine/adapters/safe-write.ts'
import { errorText } from '../../shared/log.ts'

export interface MemoryBudgetOptions {
  /** @default DEFAULT_MEMORY_BUDGETS */
  budgets?: MemoryBudgets
  /** Fraction over budget tolerated before trimming. @default 0.1 */
  margin?: number
  /** Versions kept when the backup is taken. @default 20 */
  keep?: number
  /** @default new Date() */
  now?: Date
}

export interface TrimmedMemoryFile {
  file: string
  kind: MemoryKind
  budget: number
  tokensBefore: number
  tokensAfter: number
  /** The untrimmed bytes, inside the `pre-trim` version. */
  backupFile: string
}

export interface MemoryBudgetReport {
  trimmed: TrimmedMemoryFile[]
  /** One per trimmed file, for the next run's system prompt. */
  notes: string[]
  /** The `pre-trim` version holding the untrimmed files; null when nothing was trimmed. */
  backup: MemoryVersion | null
  /** Files that could not be read, backed up or written; the others are still handled. */
  errors: { file: string; message: string }[]
}

/** Trims every memory file over budget (+margin) down to its budget, after backing it up. */
export async function enforceMemoryBudgets(
  paths: EnginePaths,
  opts: MemoryBudgetOptions = {},
): Promise<MemoryBudgetReport> {
  const budgets = opts.budgets ?? DEFAULT_MEMORY_BUDGETS
  const margin = opts.margin ?? BUDGET_MARGIN
  const layout = pmLayout(paths)
  const report: MemoryBudgetReport = { trimmed: [], notes: [], backup: null, errors: [] }

  const over: { file: string; kind: MemoryKind }[] = []
  for (const candidate of await memoryFiles(layout, report)) {
    try {
      const text = await readFile(candidate.file, 'utf8')
      if (isOverBudget(text, budgetFor(candidate.kind, budgets), margin)) over.push(candidate)
    } catch (err) {
      report.errors.push({ file: candidate.file, message: errorText(err) })
    }
  }
  if (over.length === 0) return report

  try {
    report.backup = await snapshotMemory(paths, {
      reason: 'pre-trim',
      keep: opts.keep,
      now: opts.now,
    })
  } catch (err) {
    // Never trim without a backup.
    report.errors.push({ file: layout.versionsDir, message: `backup failed: ${errorText(err)}` })
    return report
  }
  if (!report.backup) return report

  for (const { file, kind } of over) {
    const budget = budgetFor(kind, budgets)
    const backupFile = join(report.backup.dir, relative(layout.memoryDir, file))
    try {
      // Trim what was backed up, so the backup always holds the exact bytes that were cut.
      const original = await readFile(backupFile, 'utf8')
      if (!isOverBudget(original, budget, margin)) continue
      const result = trimToBudget(original, budget, {
        rule: trimRuleFor(kind),
        note: `untrimmed copy: ${backupFile}`,
      })
      await writeFileSafely(file, result.text)
      const trimmed = {
        file,
        kind,
        budget,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        backupFile,
      }
      report.trimmed.push(trimmed)
      report.notes.push(trimNote(trimmed))
    } catch (err) {
      report.errors.push({ file, message: errorText(err) })
    }
  }
  return report
}

/** short-term.md, long-term.md and `projects/*.md`: regular files only (no symlinks). */
async function memoryFiles(
  layout: PmLayout,
  report: MemoryBudgetReport,
): Promise<{ file: string; kind: MemoryKind }[]> {
  const files: { file: string; kind: MemoryKind }[] = []
  for (const [file, kind] of [
    [layout.shortTerm, 'short-term'],
    [layout.longTerm, 'long-term'],
  ] as const) {
    if (await isRegularFile(file)) files.push({ file, kind })
  }
  try {
    for (const entry of await readdir(layout.projectsDir, { withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.md')) {
        files.push({ file: join(layout.projectsDir, entry.name), kind: 'project' })
      }
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      report.errors.push({ file: layout.projectsDir, message: errorText(err) })
    }
  }
  return files
}

async function isRegularFile(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isFile()
  } catch {
    // A memory file the PM has not written yet has no budget to enforce.
    return false
  }
}
