import { describe, expect, it } from 'vitest'
import {
  clipText,
  escapeInvisibleInJson,
  findActiveCharacter,
  inertBlock,
  inertLine,
  isInvisibleCode,
} from '../../shared/text.ts'

describe('the invisible-character set', () => {
  it.each([
    ['NUL', 0x00],
    ['BEL', 0x07],
    ['ESC', 0x1b],
    ['newline', 0x0a],
    ['DEL', 0x7f],
    ['C1 CSI', 0x9b],
    ['zero-width space', 0x200b],
    ['left-to-right mark', 0x200e],
    ['line separator', 0x2028],
    ['paragraph separator', 0x2029],
    ['right-to-left override', 0x202e],
    ['word joiner', 0x2060],
    ['first strong isolate', 0x2068],
    ['pop directional isolate', 0x2069],
    ['byte order mark', 0xfeff],
  ])('holds %s', (_name, code) => {
    expect(isInvisibleCode(code)).toBe(true)
  })

  it.each([
    ['space', 0x20],
    ['tilde', 0x7e],
    ['no-break space', 0xa0],
    ['e acute', 0xe9],
    ['ellipsis', 0x2026],
    ['CJK', 0x4e2d],
  ])('leaves %s', (_name, code) => {
    expect(isInvisibleCode(code)).toBe(false)
  })
})

describe('inertLine', () => {
  it.each([
    ['clear screen and clipboard', '\u001b[2J\u001b]52;c;SGk=\u0007ok', '[2J ]52;c;SGk= ok'],
    ['a bidi override that reverses an extension', 'invoice\u202egnp.exe', 'invoice gnp.exe'],
    ['isolates and zero-width characters', 'a\u2066b\u2069c\u200bd', 'a b c d'],
    [
      'line breaks of every kind',
      'one\ntwo\r\nthree\u2028four\u0085five',
      'one two three four five',
    ],
    ['a lone high surrogate', 'x\ud800y', 'xy'],
    ['a lone low surrogate', 'x\udc00y', 'xy'],
    ['a real surrogate pair', 'smile 😀', 'smile 😀'],
    ['whitespace runs', '  a \t\t b  ', 'a b'],
    ['plain text', 'fix: handle "quotes"', 'fix: handle "quotes"'],
    ['a space at an end', ' lead and trail ', 'lead and trail'],
    ['a no-break space and a thin space', 'a\u00a0b\u2009c', 'a b c'],
    ['a space beside a line break', 'a \nb', 'a b'],
  ])('%s', (_name, input, expected) => {
    expect(inertLine(input)).toBe(expected)
  })

  it('equals the whole rule (invisible to spaces, runs collapsed, trimmed) on mixed text', () => {
    const pieces = [
      'a',
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      '\u2028',
      '\u001b',
      'é',
      '😀',
      '\u202e',
      'x y',
    ]
    const wholeRule = (text: string) =>
      text
        // eslint-disable-next-line no-control-regex -- the characters the rule names
        .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    for (const first of pieces)
      for (const second of pieces)
        for (const third of pieces) {
          const text = `${first}${second}${third}`
          expect(inertLine(text), JSON.stringify(text)).toBe(wholeRule(text))
        }
  })
})

describe('clipText', () => {
  it.each([
    ['short text stays', 'short', 10, 'short'],
    ['a cut gets an ellipsis', 'abcdefghij', 5, 'abcd…'],
    ['never half a surrogate pair', '😀😀😀😀', 4, '😀…'],
    ['made inert before it is cut', '\u001b[31mred\u001b[0m', 20, '[31mred [0m'],
  ])('%s', (_name, input, max, expected) => {
    expect(clipText(input, max)).toBe(expected)
    expect(clipText(input, max).length).toBeLessThanOrEqual(max)
  })

  it('cuts a long text as it cuts the whole text made inert (it looks at the start only)', () => {
    // The rule on the whole text, as it was before clipText looked at a window of it.
    const wholeRule = (text: string, max: number): string => {
      const line = inertLine(text)
      if (line.length <= max) return line
      let cut = line.slice(0, Math.max(0, max - 1))
      if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1)
      return `${cut.trimEnd()}…`
    }
    const pieces = [
      'a',
      'b',
      ' ',
      '  ',
      '\n',
      '\t',
      '\r\n',
      '\u001b',
      '\u202e',
      '😀',
      '\uD83D',
      'é',
      '',
    ]
    let seed = 7
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    for (let round = 0; round < 3000; round++) {
      const length = next(400)
      let text = ''
      // Runs of one piece now and then: long stretches of spaces or newlines around the window's end.
      while (text.length < length)
        text += (pieces[next(pieces.length)] ?? '').repeat(1 + next(4) * next(30))
      const max = 1 + next(120)
      expect(clipText(text, max), JSON.stringify([text, max])).toBe(wholeRule(text, max))
    }
  })
})

describe('inertBlock', () => {
  it('keeps line breaks and tabs of a report, nothing else invisible', () => {
    expect(inertBlock('a\tb\nc\u001b[2Jd\u202ee\r\n')).toBe('a\tb\nc [2Jd e \n')
  })

  it('replaces every invisible code unit and keeps every other one, alone or amid text', () => {
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const char = String.fromCharCode(code)
      const kept = !isInvisibleCode(code) || code === 0x0a || code === 0x09
      expect(inertBlock(char)).toBe(kept ? char : ' ')
      expect(inertBlock(`ab${char}cd`)).toBe(`ab${kept ? char : ' '}cd`)
    }
  })

  it('keeps surrogate pairs and drops lone surrogates', () => {
    expect(inertBlock('a\u{1F600}b')).toBe('a\u{1F600}b')
    expect(inertBlock('a\ud83db')).toBe('ab')
    expect(inertBlock('a\ude00b')).toBe('ab')
  })
})

describe('escapeInvisibleInJson', () => {
  it('escapes what JSON.stringify leaves raw, and parses back to the same value', () => {
    const value = { s: 'a\u009b1m\u202eb\u200bc\u2028d', n: 1 }
    const json = escapeInvisibleInJson(JSON.stringify(value, null, 2))
    expect(json).not.toMatch(/[\u0080-\u009f\u200b-\u200f\u2028-\u202e]/)
    expect(json).toContain('\\u009b')
    expect(JSON.parse(json)).toEqual(value)
    expect(json.split('\n')).toHaveLength(4)
  })
})

describe('findActiveCharacter', () => {
  it.each([
    ['plain lines and tabs', 'a\tb\nc', -1],
    ['an escape', 'ab\u001b[2J', 2],
    ['a bidi override', 'x\u202e', 1],
    ['a lone surrogate', 'ok\ud800', 2],
    ['a surrogate pair', '😀', -1],
    ['whatever inertBlock leaves', inertBlock('a\u001b\u202e\u200b\ud800b\n'), -1],
  ])('%s', (_name, text, expected) => {
    expect(findActiveCharacter(text)).toBe(expected)
  })
})
