/**
 * Reads only the chosen fields of a JSON text, straight from its UTF-8 bytes. Pure.
 *
 * A transcript line is mostly what Navi never looks at (a 200 KB tool result, twice; a file the agent
 * wrote; thinking text), and `JSON.parse` would decode and build all of it. A projection names the fields
 * a fold reads; everything else is stepped over: a string by jumping from quote to quote (a native
 * search), an object or array by counting brackets, and nothing of it is decoded or allocated.
 *
 * What comes out is what `JSON.parse` would give, with the fields the projection does not name left out
 * (a skipped string whose node says so becomes `''`, an unexpected object `{}` and array `[]`, so that a
 * type check on them answers as before). Malformed text throws a SyntaxError, as `JSON.parse` does: a
 * truncated line, unbalanced or mismatched brackets, an unterminated string, trailing text. Inside the
 * parts that are skipped only strings and brackets are checked, so a line that is malformed only there
 * (a missing comma between two skipped values) is read where `JSON.parse` would refuse it.
 */

import {
  type Compiled,
  type CompiledProjection,
  type Field,
  fieldAt,
  fieldNamed,
  KEEP,
  type Node,
} from './json-projection-spec.ts'
import { literalAt, numberEnd, numberValue } from './json-number.ts'
import { decodeJsonString, repeatedString, utf8Of } from './json-strings.ts'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c
const COLON = 0x3a

/** The text being read and where: one line at a time, synchronously, so module state is safe. */
// eslint-disable-next-line no-var -- a module `let` is checked for its dead zone on every access of the hot loops below; `var` is not (~10% of the scan)
var bytes: Buffer = Buffer.alloc(0)
// eslint-disable-next-line no-var -- see `bytes`
var at = 0
// eslint-disable-next-line no-var -- see `bytes`
var end = 0
/** Closing brackets expected while skipping, one per open level. */
let closers = new Uint8Array(64)

function fail(what: string): never {
  throw new SyntaxError(`${what} at byte ${String(at)} of the projected JSON`)
}

/**
 * The value of `buf[start, end)` through `projection`. Throws a SyntaxError where `JSON.parse` would
 * (see the module comment for the one leniency).
 */
export function projectJson(
  buf: Buffer,
  start: number,
  stop: number,
  projection: CompiledProjection,
): unknown {
  bytes = buf
  at = start
  end = stop
  try {
    skipSpace()
    const value = readValue(projection.root)
    skipSpace()
    if (at !== end) fail('unexpected text after the value')
    return value
  } finally {
    // Never keep a caller's buffer alive between lines.
    bytes = EMPTY
  }
}
const EMPTY = Buffer.alloc(0)

function skipSpace(): void {
  while (at < end) {
    const c = bytes[at]
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return
    at++
  }
}

function readValue(node: Compiled): unknown {
  if (at >= end) fail('unexpected end')
  const c = bytes[at]
  if (node === KEEP) return readWhole(c)
  switch (c) {
    case OPEN_BRACE:
      if (node.hasFields) return readObject(node)
      skipComposite()
      return {}
    case OPEN_BRACKET:
      if (node.items !== null) return readArray(node.items)
      skipComposite()
      return []
    case QUOTE: {
      const start = at
      at = stringEnd(at)
      return node.strings ? decodeJsonString(bytes, start, at) : ''
    }
    default:
      return readScalar(c)
  }
}

/** A value kept whole: a string decoded here, a composite through JSON.parse of exactly its bytes. */
function readWhole(c: number | undefined): unknown {
  const start = at
  if (c === QUOTE) {
    at = stringEnd(at)
    return decodeJsonString(bytes, start, at)
  }
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    skipComposite()
    return JSON.parse(utf8Of(bytes, start, at))
  }
  return readScalar(c)
}

function readObject(node: Node): Record<string, unknown> {
  at++
  const out: Record<string, unknown> = {}
  skipSpace()
  if (bytes[at] === CLOSE_BRACE) {
    at++
    return out
  }
  // What the CLIs write has no spaces between tokens: each step looks for the next token first, and
  // only skips whitespace when it is not there.
  for (;;) {
    if (bytes[at] !== QUOTE) fail('expected a key')
    const field = readKey(node)
    if (bytes[at] !== COLON) {
      skipSpace()
      if (bytes[at] !== COLON) fail('expected ":"')
    }
    at++
    if (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)
      skipSpace()
    if (field === null) skipValue()
    else if (field.node === KEEP && bytes[at] === QUOTE) {
      const open = at
      at = stringEnd(open)
      out[field.name] = repeatedString(field, bytes, open, at)
    } else out[field.name] = readValue(field.node)
    let c = bytes[at++]
    if (c !== COMMA && c !== CLOSE_BRACE) {
      at--
      skipSpace()
      c = bytes[at++]
    }
    if (c === COMMA) {
      if (bytes[at] !== QUOTE) skipSpace()
      continue
    }
    if (c === CLOSE_BRACE) return out
    at--
    fail('expected "," or "}"')
  }
}

function readArray(items: Compiled): unknown[] {
  at++
  const out: unknown[] = []
  skipSpace()
  if (bytes[at] === CLOSE_BRACKET) {
    at++
    return out
  }
  for (;;) {
    out.push(readValue(items))
    skipSpace()
    const c = bytes[at++]
    if (c === COMMA) {
      skipSpace()
      continue
    }
    if (c === CLOSE_BRACKET) return out
    at--
    fail('expected "," or "]"')
  }
}

/**
 * Steps over the key that opens at `at` and gives the field it names, or null. A key is short and plain
 * (almost always): it is found with one loop that also looks out for escapes, and its bytes are compared
 * in place, never decoded. A key written with escapes (`"\u0074ype"` is `"type"` to JSON.parse) is
 * decoded and looked up by name.
 */
function readKey(node: Node): Field | null {
  const start = at + 1
  let q = start
  for (;;) {
    if (q >= end) {
      at = end
      fail('unterminated string')
    }
    const c = bytes[q]
    if (c === QUOTE) break
    if (c === BACKSLASH) return escapedKey(node)
    q++
  }
  at = q + 1
  return fieldAt(node, bytes, start, q)
}

function escapedKey(node: Node): Field | null {
  const open = at
  at = stringEnd(open)
  return fieldNamed(node, JSON.parse(utf8Of(bytes, open, at)) as string)
}

/** Where the string that opens at `open` ends (just after its closing quote). */
function stringEnd(open: number): number {
  let q = open + 1
  for (;;) {
    // Short strings (keys, uuids, ids, times) end before a native search would have paid for itself:
    // 48 bytes covers a uuid, the most common value of a transcript line (24 was a tenth slower).
    const shortStop = Math.min(q + 48, end)
    while (q < shortStop && bytes[q] !== QUOTE) q++
    if (q >= end) {
      at = end
      fail('unterminated string')
    }
    if (bytes[q] !== QUOTE) {
      q = bytes.indexOf(QUOTE, q)
      if (q === -1 || q >= end) {
        at = end
        fail('unterminated string')
      }
    }
    // Escaped when an odd number of backslashes stand right before it.
    let k = q - 1
    while (bytes[k] === BACKSLASH) k--
    if ((q - 1 - k) % 2 === 0) return q + 1
    q++
  }
}

function skipValue(): void {
  if (at >= end) fail('unexpected end')
  const c = bytes[at]
  if (c === QUOTE) at = stringEnd(at)
  else if (c === OPEN_BRACE || c === OPEN_BRACKET) skipComposite()
  else readScalar(c)
}

/** Steps over an object or array: strings jumped over, brackets counted and matched. */
function skipComposite(): void {
  let depth = 0
  while (at < end) {
    const c = bytes[at]
    if (c === QUOTE) {
      at = stringEnd(at)
      continue
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth === closers.length) {
        const grown = new Uint8Array(closers.length * 2)
        grown.set(closers)
        closers = grown
      }
      closers[depth++] = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0 || closers[--depth] !== c) fail('mismatched bracket')
      if (depth === 0) {
        at++
        return
      }
    }
    at++
  }
  fail('unexpected end')
}

/** A number, true, false or null, checked against JSON's grammar (json-number.ts). */
function readScalar(c: number | undefined): unknown {
  if (c === 0x74) return literal('true', true)
  if (c === 0x66) return literal('false', false)
  if (c === 0x6e) return literal('null', null)
  const start = at
  const stop = numberEnd(bytes, start, end)
  if (stop < 0) fail('unexpected character')
  at = stop
  return numberValue(bytes, start, stop)
}

function literal(word: string, value: boolean | null): boolean | null {
  if (!literalAt(bytes, at, end, word)) fail('unexpected character')
  at += word.length
  return value
}
