/**
 * What a projection is (core/json-projection.ts reads a JSON text through one): the fields a fold reads,
 * named once, and compiled so that a key's bytes are compared in place without being decoded. Pure.
 */

/**
 * Which parts of a value to keep. `'keep'`: the whole value. An object node keeps, of an object, the
 * `fields` it names (each with its own node); of an array, each element through `items` (absent: `[]`);
 * of a string, the string when `strings` is true (else `''`). Numbers, booleans and null are always kept.
 */
export type Projection =
  'keep' | { fields?: Record<string, Projection>; items?: Projection; strings?: boolean }

export interface Field {
  name: string
  /** The name's bytes, compared with a key's bytes in place: an unwanted key is never decoded. */
  bytes: Uint8Array
  node: Compiled
  /**
   * The last few strings this field held that were ASCII without escapes, newest first
   * (core/json-projection.ts compares the next value's bytes with them before decoding it), and how
   * often that paid off; null once it stopped paying.
   */
  recent: string[] | null
  hits: number
  misses: number
}

export interface Node {
  /** Fields by the byte length of their names. */
  byLength: (Field[] | undefined)[]
  hasFields: boolean
  items: Compiled | null
  strings: boolean
}

export const KEEP = 'keep'
export type Compiled = Node | typeof KEEP

/** A projection made ready to use; compile once, use for every line. */
export interface CompiledProjection {
  readonly root: Compiled
}

export function compileProjection(projection: Projection): CompiledProjection {
  return { root: compileNode(projection) }
}

function compileNode(projection: Projection): Compiled {
  if (projection === KEEP) return KEEP
  const byLength: (Field[] | undefined)[] = []
  const entries = Object.entries(projection.fields ?? {})
  for (const [name, child] of entries) {
    const bytes = Buffer.from(name, 'utf8')
    ;(byLength[bytes.length] ??= []).push({
      name,
      bytes,
      node: compileNode(child),
      recent: [],
      hits: 0,
      misses: 0,
    })
  }
  return {
    byLength,
    hasFields: entries.length > 0,
    items: projection.items === undefined ? null : compileNode(projection.items),
    strings: projection.strings ?? false,
  }
}

/** The field of `node` whose name is the bytes `buf[start, stop)` (a key as written, no escapes), or null. */
export function fieldAt(node: Node, buf: Buffer, start: number, stop: number): Field | null {
  const candidates = node.byLength[stop - start]
  if (candidates === undefined) return null
  for (let f = 0; f < candidates.length; f++) {
    const field = candidates[f] as Field
    const name = field.bytes
    let i = 0
    while (i < name.length && buf[start + i] === name[i]) i++
    if (i === name.length) return field
  }
  return null
}

/** The field of `node` named `name` (a key that was written with escapes, decoded), or null. */
export function fieldNamed(node: Node, name: string): Field | null {
  for (const list of node.byLength)
    for (const field of list ?? []) if (field.name === name) return field
  return null
}
