/** A 3×5 pixel font for badge numbers: each glyph is five rows of three bits, `#` for ink. */
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  '0': ['###', '#.#', '#.#', '#.#', '###'],
  '1': ['.#.', '##.', '.#.', '.#.', '###'],
  '2': ['###', '..#', '###', '#..', '###'],
  '3': ['###', '..#', '.##', '..#', '###'],
  '4': ['#.#', '#.#', '###', '..#', '..#'],
  '5': ['###', '#..', '###', '..#', '###'],
  '6': ['###', '#..', '###', '#.#', '###'],
  '7': ['###', '..#', '.#.', '.#.', '.#.'],
  '8': ['###', '#.#', '###', '#.#', '###'],
  '9': ['###', '#.#', '###', '..#', '###'],
  '+': ['...', '.#.', '###', '.#.', '...'],
}

export const GLYPH_WIDTH = 3
export const GLYPH_HEIGHT = 5
/** Blank columns between two glyphs. */
export const GLYPH_SPACING = 1

/** Width of a text in font pixels. */
export function textWidth(text: string): number {
  return text.length === 0 ? 0 : text.length * (GLYPH_WIDTH + GLYPH_SPACING) - GLYPH_SPACING
}

/** The inked font pixels of a text, left to right, as (column, row) from its top-left corner. */
export function textPixels(text: string): { x: number; y: number }[] {
  const pixels: { x: number; y: number }[] = []
  ;[...text].forEach((char, index) => {
    const glyph = GLYPHS[char]
    if (!glyph) throw new RangeError(`no glyph for ${JSON.stringify(char)}`)
    glyph.forEach((row, y) => {
      ;[...row].forEach((cell, column) => {
        if (cell === '#') pixels.push({ x: index * (GLYPH_WIDTH + GLYPH_SPACING) + column, y })
      })
    })
  })
  return pixels
}

/** What a badge reads: the count up to 9, then "9+". */
export const badgeText = (count: number): string => (count > 9 ? '9+' : String(Math.max(0, count)))
