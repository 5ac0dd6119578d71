/**
 * Token budgets of the PM's memory files and the safety valve that trims a file the PM let grow
 * past its budget (pure: text in, text out).
 *
 * Which part of a file is "oldest" depends on how the PM is told to write it:
 * - `short-term.md` is rewritten every run, current state first, so its tail is the least
 *   important part: rule `keep-head` keeps the title and the beginning and cuts the end.
 * - `long-term.md` and `projects/<name>.md` are appended to, so the oldest entries are right under
 *   the title: rule `drop-oldest` keeps the title and the end and drops lines from the top.
 * Cuts fall between lines, never inside one, and prefer block boundaries (a blank line or a
 * heading). A marker line `<!-- trimmed by Navi: … -->` says what was dropped.
 */

export type MemoryKind = 'short-term' | 'long-term' | 'project'
export type TrimRule = 'keep-head' | 'drop-oldest'

/** Token budgets told to the PM and enforced after each run. */
export interface MemoryBudgets {
  /** @default 2000 */
  shortTerm: number
  /** @default 3000 */
  longTerm: number
  /** Each file under `projects/`. @default 1000 */
  project: number
}

export const DEFAULT_MEMORY_BUDGETS: MemoryBudgets = {
  shortTerm: 2000,
  longTerm: 3000,
  project: 1000,
}

/** A file is trimmed only once it exceeds its budget by more than this fraction. */
export const BUDGET_MARGIN = 0.1

/** Bytes per token assumed by {@link estimateTokens}. */
export const BYTES_PER_TOKEN = 4

const MARKER_PREFIX = '<!-- trimmed by Navi:'

/**
 * Rough token count: UTF-8 bytes / 4, rounded up. For English markdown this is the usual
 * "≈ 4 characters per token" (ASCII is one byte per character); counting bytes rather than
 * characters makes accented, CJK and emoji text weigh more, which is closer to how tokenizers
 * split it. No tokenizer dependency, and the same number the PM is told to aim for.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Length(text) / BYTES_PER_TOKEN)
}

export function budgetFor(
  kind: MemoryKind,
  budgets: MemoryBudgets = DEFAULT_MEMORY_BUDGETS,
): number {
  if (kind === 'short-term') return budgets.shortTerm
  if (kind === 'long-term') return budgets.longTerm
  return budgets.project
}

export function trimRuleFor(kind: MemoryKind): TrimRule {
  return kind === 'short-term' ? 'keep-head' : 'drop-oldest'
}

/** True when `text` exceeds `budgetTokens` by more than `margin` (a fraction). */
export function isOverBudget(text: string, budgetTokens: number, margin = BUDGET_MARGIN): boolean {
  return estimateTokens(text) > Math.floor(budgetTokens * (1 + margin))
}

export interface TrimOptions {
  /** @default 'drop-oldest' */
  rule?: TrimRule
  /** Appended to the marker line, e.g. where the untrimmed copy is. Must not contain `-->`. */
  note?: string
}

export interface TrimResult {
  text: string
  /** False when the text was already within budget (then `text` is the input unchanged). */
  trimmed: boolean
  tokensBefore: number
  tokensAfter: number
  /** Lines of the input (a trailing newline does not start a line). */
  linesBefore: number
  /** Input lines dropped (the marker and blank separators Navi adds are not counted). */
  linesDropped: number
}

/**
 * Cuts `markdown` to at most `budgetTokens` (by {@link estimateTokens}) following `rule`.
 * The first line is kept as the title when it is a heading no bigger than half the budget.
 * The result can exceed the budget only when the budget cannot even hold the title and the
 * marker line.
 */
export function trimToBudget(
  markdown: string,
  budgetTokens: number,
  opts: TrimOptions = {},
): TrimResult {
  const rule = opts.rule ?? 'drop-oldest'
  const tokensBefore = estimateTokens(markdown)
  const lines = splitLines(markdown)
  if (tokensBefore <= budgetTokens) {
    return {
      text: markdown,
      trimmed: false,
      tokensBefore,
      tokensAfter: tokensBefore,
      linesBefore: lines.length,
      linesDropped: 0,
    }
  }

  const budgetBytes = budgetTokens * BYTES_PER_TOKEN
  const first = lines[0]
  const hasTitle = first !== undefined && isHeading(first) && cost(first) <= budgetBytes / 2
  const title = hasTitle ? [first] : []
  const body = hasTitle ? lines.slice(1) : lines
  const marker = (dropped: number): string =>
    makeMarker(rule, dropped, lines.length, tokensBefore, budgetTokens, opts.note)
  // Worst case of the marker's length (more digits can only come from bigger numbers), plus the
  // blank line that separates it from the kept text.
  const reserve = cost(marker(lines.length)) + cost('') + (hasTitle ? cost('') : 0)
  const available = budgetBytes - title.reduce((sum, line) => sum + cost(line), 0) - reserve

  const kept = rule === 'keep-head' ? keepHead(body, available) : keepTail(body, available)
  const dropped = body.length - kept.length
  const out =
    rule === 'keep-head'
      ? [...title, ...kept, ...(title.length + kept.length > 0 ? [''] : []), marker(dropped)]
      : [
          ...title,
          ...(hasTitle ? [''] : []),
          marker(dropped),
          ...(kept.length > 0 ? [''] : []),
          ...kept,
        ]
  const text = `${out.join('\n')}\n`
  return {
    text,
    trimmed: true,
    tokensBefore,
    tokensAfter: estimateTokens(text),
    linesBefore: lines.length,
    linesDropped: dropped,
  }
}

/** True for a line Navi's safety valve added. */
export function isTrimMarker(line: string): boolean {
  return line.startsWith(MARKER_PREFIX)
}

/** Longest prefix that fits, ending at a block boundary unless that loses over a quarter. */
function keepHead(body: string[], available: number): string[] {
  let end = 0
  let used = 0
  while (end < body.length && used + cost(at(body, end)) <= available) used += cost(at(body, end++))
  let boundary = end
  while (boundary > 0 && !startsBlock(body, boundary)) boundary--
  if (boundary > 0 && bytesOf(body.slice(boundary, end)) <= available / 4) end = boundary
  return trimBlankEdges(body.slice(0, end))
}

/** Longest suffix that fits, starting at a block boundary unless that loses over a quarter. */
function keepTail(body: string[], available: number): string[] {
  let start = body.length
  let used = 0
  while (start > 0 && used + cost(at(body, start - 1)) <= available) used += cost(at(body, --start))
  let boundary = start
  while (boundary < body.length && !startsBlock(body, boundary)) boundary++
  if (boundary < body.length && bytesOf(body.slice(start, boundary)) <= available / 4) {
    start = boundary
  }
  return trimBlankEdges(body.slice(start))
}

/** Line `i` begins a block: the first line, a heading, or the first line after a blank one. */
function startsBlock(lines: string[], i: number): boolean {
  return i === 0 || i === lines.length || isHeading(at(lines, i)) || isBlank(at(lines, i - 1))
}

function trimBlankEdges(lines: string[]): string[] {
  let start = 0
  let end = lines.length
  while (start < end && isBlank(at(lines, start))) start++
  while (end > start && isBlank(at(lines, end - 1))) end--
  return lines.slice(start, end)
}

function makeMarker(
  rule: TrimRule,
  dropped: number,
  total: number,
  tokensBefore: number,
  budget: number,
  note: string | undefined,
): string {
  const which = rule === 'keep-head' ? 'last' : 'oldest'
  const extra = note ? `; ${note.replace(/\s+/g, ' ').replaceAll('-->', '→')}` : ''
  return `${MARKER_PREFIX} dropped the ${which} ${dropped} of ${total} lines (${tokensBefore} tokens, budget ${budget})${extra} -->`
}

function at(lines: readonly string[], i: number): string {
  return lines[i] ?? ''
}

function isBlank(line: string): boolean {
  return line.trim() === ''
}

function isHeading(line: string): boolean {
  return /^#{1,6}\s/.test(line)
}

function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** Bytes a line takes in the output, with its newline. */
function cost(line: string): number {
  return utf8Length(line) + 1
}

function bytesOf(lines: string[]): number {
  return lines.reduce((sum, line) => sum + cost(line), 0)
}

function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

export interface TrimNoteInput {
  /** Path shown to the PM, e.g. `memory/short-term.md`. */
  file: string
  kind: MemoryKind
  tokensBefore: number
  tokensAfter: number
  budget: number
  /** Absolute path of the untrimmed copy. */
  backupFile: string
}

/** The note the PM gets in its next system prompt after the safety valve trimmed a file. */
export function trimNote(input: TrimNoteInput): string {
  const how =
    trimRuleFor(input.kind) === 'keep-head'
      ? 'its beginning was kept and its end cut'
      : 'its oldest entries at the top were dropped'
  return (
    `Last run, Navi's safety valve trimmed ${input.file} from ≈${input.tokensBefore} to ` +
    `≈${input.tokensAfter} tokens (budget ${input.budget}): ${how}. The untrimmed file is at ` +
    `${input.backupFile}; Read it if something important was lost, and keep this file within ` +
    `its budget from now on.`
  )
}
