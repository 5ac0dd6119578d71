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
