/**
 * A project snapshot as its file holds it, sealed: the snapshot store (adapters/snapshot-store.ts) reads a
 * file whose seal matches with `JSON.parse` alone. Validating the fifty snapshots of a warm start with zod,
 * and building the schema to do it, was 3 of the 5 ms their loading took; the rest of the engine needs
 * neither. Anything else (a file of an older Navi, one edited by hand, a seal of another version) is
 * validated as before. Pure.
 *
 * The seal is the snapshot's first property, so the file stays one JSON object that any Navi reads (one
 * that knows no seal drops the unknown key): `{"$navi": "<version>:<sha256 of the rest>", "name": …}`.
 */
import { createHash } from 'node:crypto'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'

/**
 * What a seal vouches for: a snapshot that reads back, with `JSON.parse` alone, as the schema makes it.
 * Bumped whenever the project snapshot schema changes what it makes of a file (a new field with a default,
 * a new constraint): a seal of another version is not believed, and the file is validated.
 * tests/unit/snapshot-seal.test.ts pins the schema it was last bumped for.
 */
export const SNAPSHOT_SEAL_VERSION = 1

const SEALED_HEAD = '{\n  "$navi": "'
const SEAL_END = '",'

const sealOf = (body: string): string =>
  `${String(SNAPSHOT_SEAL_VERSION)}:${createHash('sha256').update(body).digest('hex')}`

/** The file text of `snapshot`: its JSON (indented, for whoever looks), sealed. */
export function sealedSnapshotText(snapshot: ProjectSnapshot): string {
  const body = JSON.stringify(snapshot, null, 2)
  // `{}` has no first property to put the seal before (no snapshot is empty; the text stays valid JSON).
  if (!body.startsWith('{\n')) return `${body}\n`
  return `${SEALED_HEAD}${sealOf(body)}${SEAL_END}${body.slice(1)}\n`
}

/** The snapshot a file holds when its seal is one of this version and matches; null otherwise. */
export function unsealedSnapshot(text: string): ProjectSnapshot | null {
  if (!text.startsWith(SEALED_HEAD) || !text.endsWith('\n')) return null
  const sealEnd = text.indexOf(SEAL_END, SEALED_HEAD.length)
  if (sealEnd === -1) return null
  const body = `{${text.slice(sealEnd + SEAL_END.length, -1)}`
  if (text.slice(SEALED_HEAD.length, sealEnd) !== sealOf(body)) return null
  return JSON.parse(body) as ProjectSnapshot
}
