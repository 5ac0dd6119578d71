/**
 * JSON text with every non-ASCII character written as a `\uXXXX` escape: the same value for any parser,
 * and text that Node decodes into a one-byte string (a single non-ASCII character makes V8 hold all of a
 * decoded file as two bytes per character). A pair of surrogates becomes two escapes, as JSON spells an
 * astral character. Pure.
 */
export function asciiJson(json: string): string {
  return json.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/**
 * `asciiJson(JSON.stringify(value))`, without a copy when the text has no non-ASCII character: then its
 * UTF-8 length is its length (a regular expression test allocated as much as the text it looked at).
 */
export function asciiJsonText(value: unknown): string {
  const json = JSON.stringify(value)
  return Buffer.byteLength(json, 'utf8') === json.length ? json : asciiJson(json)
}
