/**
 * Reading and writing a JSON settings file the user owns (Claude Code's `settings.json`) without
 * disturbing it: parse errors refuse the edit, the original's indentation, final newline and BOM are
 * reapplied, a byte copy is kept as `<file>.navi-backup-<timestamp>` before each change, writes are
 * atomic (write-file-atomic follows a symlinked file), and a write is refused when the file changed
 * since it was read.
 */
import { copyFile, constants, mkdir, readFile, readdir } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'

/** The settings file cannot be edited safely (not JSON, odd shape, changed under us). */
export class HooksSettingsError extends Error {
  override name = 'HooksSettingsError'
}

const BACKUP_MARK = '.navi-backup-'
const BACKUPS_TRIED = 20

/** A settings file as read: whether it exists, its exact text and its parsed value. */
export interface SettingsFile {
  exists: boolean
  raw: string
  value: unknown
}

/** Indentation, final newline and BOM of the original, reapplied on write. */
export interface JsonStyle {
  indent: string | number
  finalNewline: boolean
  bom: boolean
}

/** The style of `raw` (2 spaces and a final newline for a new file). */
export function styleOf(raw: string): JsonStyle {
  const indent = /^[{[]\s*?\n([ \t]+)\S/.exec(raw.replace(/^\uFEFF/, ''))?.[1]
  return {
    indent: indent ?? 2,
    finalNewline: raw === '' || raw.endsWith('\n'),
    bom: raw.startsWith('\uFEFF'),
  }
}

/** `value` as JSON in the given style. */
export function formatJson(value: unknown, style: JsonStyle): string {
  const text = JSON.stringify(value, null, style.indent)
  return `${style.bom ? '\uFEFF' : ''}${text}${style.finalNewline ? '\n' : ''}`
}

function parseJson(raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, '')
  return text.trim() === '' ? {} : JSON.parse(text)
}

/**
 * Reads and parses the file; a missing or blank file is `{}`.
 * @throws HooksSettingsError when it is not JSON.
 */
export async function readSettings(path: string): Promise<SettingsFile> {
  let raw: string
  try {
    raw = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { exists: false, raw: '', value: {} }
    throw error
  }
  try {
    return { exists: true, raw, value: parseJson(raw) }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new HooksSettingsError(
      `${path} is not valid JSON (${reason}); Navi left it unchanged. Fix the file and run again.`,
    )
  }
}

/** Same values and same key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

function backupStamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-')
}

async function writeBackup(settingsPath: string, now: Date): Promise<string> {
  const base = `${settingsPath}${BACKUP_MARK}${backupStamp(now)}`
  for (let n = 0; ; n += 1) {
    const candidate = n === 0 ? base : `${base}-${n}`
    try {
      await copyFile(settingsPath, candidate, constants.COPYFILE_EXCL)
      return candidate
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 100) throw error
    }
  }
}

/** Navi's backups of this settings file, newest first. */
async function listBackups(settingsPath: string): Promise<string[]> {
  const prefix = `${basename(settingsPath)}${BACKUP_MARK}`
  const names = await readdir(dirname(settingsPath)).catch(() => [] as string[])
  return names
    .filter((name) => name.startsWith(prefix))
    .sort()
    .reverse()
    .map((name) => join(dirname(settingsPath), name))
}

/** The newest backup that parses to exactly `target`, with its bytes. */
export async function findMatchingBackup(
  settingsPath: string,
  target: unknown,
): Promise<{ path: string; raw: string } | null> {
  for (const path of (await listBackups(settingsPath)).slice(0, BACKUPS_TRIED)) {
    try {
      const raw = await readFile(path, 'utf8')
      if (sameJson(parseJson(raw), target)) return { path, raw }
    } catch {
      // Unreadable or not JSON: not a candidate.
    }
  }
  return null
}

/** Writes `content` unless the file changed since `before` was read (Claude Code writes it too). */
export async function commitSettings(
  path: string,
  before: SettingsFile,
  content: string,
  now: Date,
) {
  const current = await readFile(path, 'utf8').catch(() => null)
  if ((current ?? '') !== before.raw || (current !== null) !== before.exists) {
    throw new HooksSettingsError(
      `${path} changed while Navi was editing it; run the command again.`,
    )
  }
  const backupPath = before.exists ? await writeBackup(path, now) : null
  await mkdir(dirname(path), { recursive: true })
  await writeFileAtomic(path, content)
  return backupPath
}
