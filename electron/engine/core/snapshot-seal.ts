/**
 * A project snapshot as its file holds it, sealed: the snapshot store (adapters/snapshot-store.ts) reads a
 * file whose seal matches with `JSON.parse` alone. Validating the fifty snapshots of a warm start with zod,
 * and building the schema to do it, was 3 of the 5 ms their loading took; the rest of the engine needs
 * neither. Anything else (a file of an older Navi, one edited by hand, a seal of another version) is
 * validated as before. Pure.
 *
 * The seal is the snapshot's first property, so the file stays one JSON object that any Navi reads (one
 * that knows no seal drops the unknown key): `{"$navi": "<version>:<sha256 of the rest>:<stamp>", …}`.
 * A file that still has the modification time its stamp names is believed without hashing it (a warm
 * start then loads no `node:crypto`); a seal without a stamp (the first sealed files) is hashed.
 */
import { sha256Hex } from './digest.ts'
import { carriesStamp } from './file-stamp.ts'
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

const digestOf = (body: string): string => sha256Hex(body)

/**
 * The file text of `snapshot`: its JSON (indented, for whoever looks), sealed, and naming `stamp`, the
 * modification time its writer gives the file (core/file-stamp.ts).
 */
export function sealedSnapshotText(snapshot: ProjectSnapshot, stamp?: number): string {
  const body = JSON.stringify(snapshot, null, 2)
  // `{}` has no first property to put the seal before (no snapshot is empty; the text stays valid JSON).
  if (!body.startsWith('{\n')) return `${body}\n`
  const seal = `${String(SNAPSHOT_SEAL_VERSION)}:${digestOf(body)}${stamp === undefined ? '' : `:${String(stamp)}`}`
  return `${SEALED_HEAD}${seal}${SEAL_END}${body.slice(1)}\n`
}

/** A sealed file's snapshot, and whether its stamp vouched for it (else its hash did: worth re-stamping). */
export interface Unsealed {
  snapshot: ProjectSnapshot
  stamped: boolean
}

/**
 * The snapshot a file holds when its seal is one of this version and vouches for it: the file still has
 * the modification time (`mtimeMs`) the seal names, or its text matches the seal's hash. Null otherwise.
 */
export function unsealedSnapshot(text: string, mtimeMs = Number.NaN): Unsealed | null {
  if (!text.startsWith(SEALED_HEAD) || !text.endsWith('\n')) return null
  const sealEnd = text.indexOf(SEAL_END, SEALED_HEAD.length)
  if (sealEnd === -1) return null
  const [version, digest, stamp, ...more] = text.slice(SEALED_HEAD.length, sealEnd).split(':')
  if (version !== String(SNAPSHOT_SEAL_VERSION) || more.length > 0) return null
  const body = `{${text.slice(sealEnd + SEAL_END.length, -1)}`
  const stamped = stamp !== undefined && carriesStamp(mtimeMs, Number(stamp))
  if (!stamped && digest !== digestOf(body)) return null
  return { snapshot: JSON.parse(body) as ProjectSnapshot, stamped }
}
