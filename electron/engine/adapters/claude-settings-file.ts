/**
 * Reading and writing a JSON settings file the user owns (Claude Code's `settings.json`) without
 * disturbing it: parse errors refuse the edit, and so do a link to nothing, a read-only file and anything
 * but a regular file; a byte copy is kept as `<file>.navi-backup-<timestamp>` before each change, writes
 * are atomic (write-file-atomic writes through a symlink to its target), and a write is refused when the
 * file changed since it was read. The edits themselves keep every byte outside Navi's entries
 * (`core/hooks-settings-text.ts`).
 */
import {
  access,
  copyFile,
  constants,
  lstat,
  mkdir,
  readdir,
  readlink,
  stat,
} from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { isMissingFileError, readRegularText, UnreadableFileError } from './safe-read.ts'
import { writeFileSafely } from './safe-write.ts'

/** Claude Code's settings are a few KB; Navi will not edit one this large. @default 4 MiB */
const SETTINGS_MAX_BYTES = 4 * 1024 * 1024

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

function parseJson(raw: string): unknown {
  const text = raw.replace(/^\uFEFF/, '')
  return text.trim() === '' ? {} : JSON.parse(text)
}

/**
 * Reads and parses the file; a missing or blank file is `{}`.
 * @throws HooksSettingsError when it is not JSON, not a regular file, too large, or a symbolic link to
 * nothing (writing would replace the user's link with a file).
 */
export async function readSettings(path: string): Promise<SettingsFile> {
  // Probes for a dangling link: a failure only means "no such link"; real trouble surfaces in the read.
  const link = await lstat(path).catch(() => null)
  if (link?.isSymbolicLink() && !(await stat(path).catch(() => null))) {
    const target = resolve(dirname(path), await readlink(path))
    throw new HooksSettingsError(
      `${path} is a symbolic link to ${target}, which does not exist; Navi will not replace your link ` +
        'with a file. Create the target (or remove the link) and run again.',
    )
  }
  let raw: string
  try {
    raw = await readRegularText(path, { maxBytes: SETTINGS_MAX_BYTES })
  } catch (error) {
    if (isMissingFileError(error)) return { exists: false, raw: '', value: {} }
    if (error instanceof UnreadableFileError) {
      throw new HooksSettingsError(`${path} ${error.message}; Navi left it unchanged.`)
    }
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
  // A folder that cannot be listed offers no backups; the edit then works on the text itself.
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
      const raw = await readRegularText(path, { maxBytes: SETTINGS_MAX_BYTES })
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
  // Unreadable now reads as missing: the check below or the write then refuses with its own reason.
  const current = await readRegularText(path, { maxBytes: SETTINGS_MAX_BYTES }).catch(() => null)
  if ((current ?? '') !== before.raw || (current !== null) !== before.exists) {
    throw new HooksSettingsError(
      `${path} changed while Navi was editing it; run the command again.`,
    )
  }
  if (before.exists) await assertWritable(path)
  const backupPath = before.exists ? await writeBackup(path, now) : null
  await mkdir(dirname(path), { recursive: true })
  await writeFileSafely(path, content)
  return backupPath
}

/**
 * Refuses a file the user made read-only: its write bits say "do not change me", and root (who may write
 * anyway) must respect that as much as anyone.
 */
async function assertWritable(path: string): Promise<void> {
  const info = await stat(path)
  const writable =
    (info.mode & 0o222) !== 0 &&
    (await access(path, constants.W_OK).then(
      () => true,
      () => false,
    ))
  if (!writable) {
    throw new HooksSettingsError(
      `${path} is read-only (mode ${(info.mode & 0o777).toString(8)}); Navi left it unchanged. ` +
        'Make it writable, or add the hooks by hand (navi hooks status shows the command).',
    )
  }
}
