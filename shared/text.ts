/**
 * Untrusted text made inert. Commit subjects, branch names, session names, cwd paths, hook reasons, task
 * titles and error messages are written by whoever controls a repository, a session or a file, and every
 * face prints them: the terminal would obey an ANSI or OSC escape (clear the screen, write the clipboard),
 * a bidi override would show text in another order than it is read, a newline would start a fake row.
 *
 * One character set for every face (CLI, popover, notifications, the PM's inbox): C0 and C1 controls and
 * DEL, zero-width characters (U+200B–200F, U+2060–2064), line and paragraph separators (U+2028/2029), bidi
 * embeddings, overrides and isolates (U+202A–202E, U+2066–2069), invisible operators and the BOM (U+FEFF).
 * Lone surrogates are dropped; cuts never split a surrogate pair. Pure, and safe in the renderer.
 */

/** True for a UTF-16 code unit that must never reach a screen as it is. */
export function isInvisibleCode(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  )
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/**
 * Any character `mapInvisible` may have to look at twice: the invisible ones and every surrogate. Most
 * text has none, and one regular-expression scan says so faster than a loop over its characters (printing
 * a day of events ran the loop over every cell twice).
 */
const MAYBE_INVISIBLE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]/

/**
 * `MAYBE_INVISIBLE` without line breaks and tabs: what a block of output (several lines) may have to be
 * looked at twice for. A block always has line breaks, so the first scan alone would never say "none".
 */
const MAYBE_ACTIVE_IN_BLOCK =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]/

/**
 * `value` with every invisible character replaced by `replace(code)` (a string) and lone surrogates
 * dropped. `maybe`: a scan that finds every character this call may change (the fast way to say "none").
 */
function mapInvisible(
  value: string,
  replace: (code: number) => string,
  maybe: RegExp = MAYBE_INVISIBLE,
): string {
  if (!maybe.test(value)) return value
  let out = ''
  let start = 0
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (isHighSurrogate(code) && isLowSurrogate(value.charCodeAt(i + 1))) {
      i++
      continue
    }
    const lone = isHighSurrogate(code) || isLowSurrogate(code)
    if (!lone && !isInvisibleCode(code)) continue
    out += value.slice(start, i) + (lone ? '' : replace(code))
    start = i + 1
  }
  return start === 0 ? value : out + value.slice(start)
}

/**
 * Whitespace `inertLine` would change: a run of it, any but a plain space, or some at either end. Most
 * text has none, and then the line is the text as it is (a day of events printed rebuilt every cell).
 */
const UNTIDY_SPACE = /\s\s|[^\S ]|^\s|\s$/

/** Untrusted text on one line: invisible characters become spaces, whitespace runs collapse, trimmed. */
export function inertLine(value: string): string {
  const visible = mapInvisible(value, () => ' ')
  return UNTIDY_SPACE.test(visible) ? visible.replace(/\s+/g, ' ').trim() : visible
}

/**
 * `inertLine`, cut to at most `max` UTF-16 code units with an ellipsis when it was longer; never half a
 * surrogate pair.
 */
export function clipText(value: string, max: number): string {
  // Made inert, the start of a long text is the start of the whole made inert (spaces collapse within
  // it; only its last character may differ): a transcript's prompt is not scanned to its end to show
  // a line of it.
  const window = max * 2 + 16
  let line = value.length > window ? inertLine(value.slice(0, window)) : ''
  if (line.length <= max) line = inertLine(value)
  if (line.length <= max) return line
  let cut = line.slice(0, Math.max(0, max - 1))
  if (isHighSurrogate(cut.charCodeAt(cut.length - 1))) cut = cut.slice(0, -1)
  return `${cut.trimEnd()}…`
}

/**
 * A whole block of output (several lines of a report) made inert: line breaks and tabs are kept, every
 * other invisible character becomes a space. The last guard before text reaches a terminal.
 */
export function inertBlock(text: string): string {
  return mapInvisible(
    text,
    (code) => (code === 0x0a || code === 0x09 ? String.fromCharCode(code) : ' '),
    MAYBE_ACTIVE_IN_BLOCK,
  )
}

/**
 * JSON text (as `JSON.stringify` writes it) with every invisible character inside its strings written as a
 * `\uXXXX` escape: the same value for a parser, inert on a terminal (`JSON.stringify` escapes C0 controls but
 * leaves C1 controls, bidi overrides and zero-width characters as they are).
 */
export function escapeInvisibleInJson(json: string): string {
  // Raw line breaks and tabs are only ever the indentation between values (inside strings they are escaped).
  return mapInvisible(
    json,
    (code) =>
      code === 0x0a || code === 0x09
        ? String.fromCharCode(code)
        : `\\u${code.toString(16).padStart(4, '0')}`,
    MAYBE_ACTIVE_IN_BLOCK,
  )
}

/**
 * Where the first character that `inertBlock` would replace sits in `text` (an invisible character other
 * than a line break or a tab, or a lone surrogate), or -1: what a check of printed output looks for.
 */
export function findActiveCharacter(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) {
      i++
      continue
    }
    if (isHighSurrogate(code) || isLowSurrogate(code)) return i
    if (code !== 0x0a && code !== 0x09 && isInvisibleCode(code)) return i
  }
  return -1
}
