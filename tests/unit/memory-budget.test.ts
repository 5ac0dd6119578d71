import { describe, expect, it } from 'vitest'
import {
  budgetFor,
  estimateTokens,
  isOverBudget,
  isTrimMarker,
  trimNote,
  trimRuleFor,
  trimToBudget,
  type MemoryKind,
} from '../../electron/pm/core/memory-budget.ts'

/** `# Long-Term Memory` then `count` dated entries, oldest first, each a heading and two bullets. */
function appendOnlyMemory(count: number): string {
  const entries = Array.from(
    { length: count },
    (_, i) =>
      `## Entry ${i + 1}\n- apollo stalled on integration task ${i + 1}\n- velocity note ${i + 1}: two PBIs a week\n`,
  )
  return `# Long-Term Memory\n\n${entries.join('\n')}`
}

/** `# Short-Term Memory` then `count` paragraphs of three lines, most important first. */
function shortTermMemory(count: number): string {
  const paragraphs = Array.from(
    { length: count },
    (_, i) =>
      `Project p${i + 1}: working on PBI-${i + 1}.\nTold the developer about p${i + 1}.\nPending: nothing.`,
  )
  return `# Short-Term Memory\n\n${paragraphs.join('\n\n')}\n`
}

const linesOf = (text: string): string[] => text.replace(/\n$/, '').split('\n')
const contentLines = (text: string): string[] =>
  linesOf(text).filter((line) => line.trim() !== '' && !isTrimMarker(line))

describe('estimateTokens', () => {
  it.each([
    ['empty', '', 0],
    ['4 ASCII chars', 'abcd', 1],
    ['5 ASCII chars', 'abcde', 2],
    ['8,000 ASCII chars', 'x'.repeat(8000), 2000],
    ['2 accented chars (4 bytes)', 'éé', 1],
    ['3 accented chars (6 bytes)', 'ééé', 2],
    ['4 CJK chars (12 bytes)', '日本語の', 3],
    ['2 emoji (8 bytes)', '😀😀', 2],
  ])('%s → %i', (_label, text, tokens) => {
    expect(estimateTokens(text)).toBe(tokens)
  })
})

describe('budgets and rules', () => {
  it.each<[MemoryKind, number, string]>([
    ['short-term', 2000, 'keep-head'],
    ['long-term', 3000, 'drop-oldest'],
    ['project', 1000, 'drop-oldest'],
  ])('%s: %i tokens, %s', (kind, budget, rule) => {
    expect(budgetFor(kind)).toBe(budget)
    expect(trimRuleFor(kind)).toBe(rule)
  })

  it('tolerates the margin before calling a file over budget', () => {
    expect(isOverBudget('x'.repeat(440), 100)).toBe(false) // 110 tokens = budget + 10 %
    expect(isOverBudget('x'.repeat(441), 100)).toBe(true) // 111 tokens
    expect(isOverBudget('x'.repeat(404), 100, 0)).toBe(true)
  })
})

describe('trimToBudget', () => {
  it('returns text within budget unchanged', () => {
    const text = shortTermMemory(3)
    const result = trimToBudget(text, 2000, { rule: 'keep-head' })
    expect(result).toMatchObject({ text, trimmed: false, linesDropped: 0 })
  })

  it('drop-oldest keeps the title and the newest entries, cut at an entry heading', () => {
    const text = appendOnlyMemory(300)
    expect(estimateTokens(text)).toBeGreaterThan(3000)
    const result = trimToBudget(text, 300, { note: 'untrimmed copy: /tmp/backup/long-term.md' })

    expect(result.trimmed).toBe(true)
    expect(result.tokensAfter).toBeLessThanOrEqual(300)
    expect(result.tokensAfter).toBe(estimateTokens(result.text))
    expect(result.tokensBefore).toBe(estimateTokens(text))
    const out = linesOf(result.text)
    expect(out[0]).toBe('# Long-Term Memory')
    expect(isTrimMarker(out[2] ?? '')).toBe(true)
    expect(out[2]).toContain('dropped the oldest')
    expect(out[2]).toContain('untrimmed copy: /tmp/backup/long-term.md')
    // The kept part is a contiguous tail of the original, starting at an entry heading.
    const kept = contentLines(result.text).slice(1)
    expect(kept[0]).toMatch(/^## Entry \d+$/)
    const originalContent = contentLines(text)
    const startIndex = originalContent.indexOf(kept[0] ?? '')
    expect(originalContent.slice(startIndex)).toEqual(kept)
    expect(kept.at(-1)).toBe('- velocity note 300: two PBIs a week')
    expect(kept).not.toContain('## Entry 1')
    // Title, blank, marker, blank, then the kept lines.
    expect(result.linesDropped).toBe(result.linesBefore - 1 - (out.length - 4))
  })

  it('keep-head keeps the title and the beginning, cut at a paragraph, marker last', () => {
    const text = shortTermMemory(400)
    const result = trimToBudget(text, 200, { rule: 'keep-head' })

    expect(result.tokensAfter).toBeLessThanOrEqual(200)
    const out = linesOf(result.text)
    expect(out[0]).toBe('# Short-Term Memory')
    expect(isTrimMarker(out.at(-1) ?? '')).toBe(true)
    expect(out.at(-1)).toContain('dropped the last')
    const kept = contentLines(result.text)
    expect(contentLines(text).slice(0, kept.length)).toEqual(kept)
    expect(kept[1]).toBe('Project p1: working on PBI-1.')
    expect(kept.at(-1)).toBe('Pending: nothing.') // a whole paragraph
  })

  it('never cuts inside a line: every kept line is a whole line of the input', () => {
    const text = `# Notes\n${Array.from({ length: 500 }, (_, i) => `line ${i} ${'w'.repeat(i % 37)}`).join('\n')}`
    const inputLines = new Set(linesOf(text))
    for (const rule of ['keep-head', 'drop-oldest'] as const) {
      const result = trimToBudget(text, 150, { rule })
      expect(result.tokensAfter).toBeLessThanOrEqual(150)
      for (const line of contentLines(result.text)) expect(inputLines.has(line)).toBe(true)
    }
  })

  it('falls back to whole lines when the only block boundary would lose too much', () => {
    // One block without blank lines or headings: the cut cannot move to a boundary.
    const text = `# Notes\n${Array.from({ length: 1000 }, (_, i) => `- note ${i}`).join('\n')}\n`
    const head = trimToBudget(text, 500, { rule: 'keep-head' })
    const tail = trimToBudget(text, 500, { rule: 'drop-oldest' })
    for (const result of [head, tail]) {
      expect(result.tokensAfter).toBeLessThanOrEqual(500)
      expect(result.tokensAfter).toBeGreaterThan(400)
    }
    expect(contentLines(head.text)[1]).toBe('- note 0')
    expect(contentLines(tail.text).at(-1)).toBe('- note 999')
  })

  it('drops a single giant line rather than cutting it', () => {
    const text = `# Short-Term Memory\n${'x'.repeat(100_000)}`
    const result = trimToBudget(text, 2000, { rule: 'keep-head' })
    expect(result.tokensAfter).toBeLessThanOrEqual(2000)
    expect(contentLines(result.text)).toEqual(['# Short-Term Memory'])
    expect(result.linesDropped).toBe(1)
  })

  it('does not keep a heading that is bigger than half the budget as the title', () => {
    const text = `# ${'t'.repeat(2000)}\nsmall line\n`
    const result = trimToBudget(text, 100, { rule: 'drop-oldest' })
    expect(result.tokensAfter).toBeLessThanOrEqual(100)
    expect(contentLines(result.text)).toEqual(['small line'])
  })

  it('keeps the marker on one line and closed, whatever the note says', () => {
    const result = trimToBudget(shortTermMemory(100), 100, {
      rule: 'keep-head',
      note: 'evil --> note\nsecond line',
    })
    const markers = linesOf(result.text).filter(isTrimMarker)
    expect(markers).toHaveLength(1)
    expect(markers[0]).toMatch(/^<!-- trimmed by Navi: [^>]*note second line -->$/)
  })

  it('re-trimming drops the previous marker with the oldest content', () => {
    const once = trimToBudget(appendOnlyMemory(100), 300).text
    const grown = `${once}\n## Entry 101\n- ${'new '.repeat(200)}\n`
    const twice = trimToBudget(grown, 300)
    expect(linesOf(twice.text).filter(isTrimMarker)).toHaveLength(1)
    expect(twice.tokensAfter).toBeLessThanOrEqual(300)
    expect(contentLines(twice.text)).toContain('## Entry 101')
  })
})

describe('trimNote', () => {
  it('tells the PM what happened and where the backup is', () => {
    const note = trimNote({
      file: '/n/pm/memory/short-term.md',
      kind: 'short-term',
      tokensBefore: 20000,
      tokensAfter: 1990,
      budget: 2000,
      backupFile: '/n/pm/memory-versions/x_pre-trim/short-term.md',
    })
    expect(note).toContain('/n/pm/memory/short-term.md')
    expect(note).toContain('≈20000 to ≈1990 tokens (budget 2000)')
    expect(note).toContain('its end cut')
    expect(note).toContain('/n/pm/memory-versions/x_pre-trim/short-term.md')
  })
})
