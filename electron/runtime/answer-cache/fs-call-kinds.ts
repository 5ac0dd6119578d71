/**
 * The functions of `node:fs` and `node:fs/promises` by what a call does to the file system, for the input
 * recorder (input-recorder.ts): reads a path, opens one (to read or to write by its flags), reads or
 * closes a descriptor, changes something. A function in none of these lists makes a run unfit to keep.
 */
import fs from 'node:fs'

/** Functions whose first argument is a path they read (or stat, list, open to read). */
export const READS = new Set([
  'access',
  'accessSync',
  'exists',
  'existsSync',
  'stat',
  'statSync',
  'lstat',
  'lstatSync',
  'statfs',
  'statfsSync',
  'readFile',
  'readFileSync',
  'readdir',
  'readdirSync',
  'opendir',
  'opendirSync',
  'realpath',
  'realpathSync',
  'readlink',
  'readlinkSync',
  'createReadStream',
])
/** Functions that open a path: a read or a write by their flags. */
export const OPENS = new Set(['open', 'openSync', 'openAsBlob'])
/** Functions that only act on an open descriptor for reading, or close it. */
export const FD_READS = new Set([
  'read',
  'readSync',
  'readv',
  'readvSync',
  'fstat',
  'fstatSync',
  'close',
  'closeSync',
])
/** Functions that change the file system (the first argument is a path or a descriptor). */
export const WRITES = new Set(
  [
    'writeFile',
    'appendFile',
    'rename',
    'mkdir',
    'mkdtemp',
    'rm',
    'rmdir',
    'unlink',
    'copyFile',
    'cp',
    'symlink',
    'link',
    'truncate',
    'chmod',
    'lchmod',
    'chown',
    'lchown',
    'utimes',
    'lutimes',
    'write',
    'writev',
    'ftruncate',
    'fsync',
    'fdatasync',
    'futimes',
    'fchmod',
    'fchown',
  ].flatMap((name) => [name, `${name}Sync`]),
).add('createWriteStream')

/** Node's own helpers on the modules that touch no file. */
export const INERT = new Set(['_toUnixTimestamp', 'Dir', 'Dirent', 'Stats', 'StatFs'])

/** Whether open flags (a string or a number, default 'r') only read. */
export function opensToRead(flags: unknown): boolean {
  if (flags === undefined || flags === null) return true
  if (typeof flags === 'string') return flags === 'r' || flags === 'rs' || flags === 'sr'
  if (typeof flags === 'number') {
    const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = fs.constants
    return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) === 0
  }
  return false
}
