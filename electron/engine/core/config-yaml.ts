/**
 * `$NAVI_HOME/config.yaml`: text in, configuration and readable errors out. Pure: the adapter reads the
 * file, this module never touches the disk. Any error means the whole file is ignored and the defaults
 * apply, so a half-valid file is never partially applied.
 */
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml'
import type { z } from 'zod'
import { rawConfigSchema } from '../../../shared/schemas/config.ts'
import { DURATION_HINT } from '../../../shared/duration.ts'
import {
  defaultConfig,
  normalize,
  type ConfigError,
  type ParsedConfig,
  type PathKey,
} from './config.ts'

/**
 * Parse the text of `config.yaml`. `file` only labels the errors; `home` is what `~` expands to.
 * An empty file is the defaults, without error.
 */
export function parseConfig(text: string, file: string, home: string): ParsedConfig {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: true })
  const at = (offset: number | undefined, message: string): ConfigError => {
    const pos = lineCounter.linePos(offset ?? 0)
    return { file, line: pos.line, column: pos.col, message }
  }
  const fail = (errors: ConfigError[]): ParsedConfig => ({ config: defaultConfig(), errors })

  if (doc.errors.length > 0) {
    return fail(doc.errors.map((e) => at(e.pos[0], `invalid YAML: ${firstLine(e.message)}`)))
  }
  let data: unknown
  try {
    data = doc.toJS({ maxAliasCount: 100 })
  } catch (err) {
    return fail([at(0, `invalid YAML: ${err instanceof Error ? err.message : String(err)}`)])
  }
  if (data === null || data === undefined) return { config: defaultConfig(), errors: [] }

  const parsed = rawConfigSchema.safeParse(data)
  if (!parsed.success) {
    return fail(parsed.error.issues.flatMap((issue) => describeIssue(issue, data, doc, at)))
  }
  const errors: ConfigError[] = []
  const warnings: ConfigError[] = []
  const config = normalize(
    parsed.data,
    home,
    (path, message) => errors.push(at(offsetOf(doc, path), message)),
    (path, message) => warnings.push(at(offsetOf(doc, path), message)),
  )
  // A warning (a value raised to its floor) is reported, and the rest of the file still applies.
  return errors.length > 0 ? fail(errors) : { config, errors: warnings }
}

type At = (offset: number | undefined, message: string) => ConfigError

const ALLOWED_KEYS: Record<string, string> = {
  root: 'projects, ignore, poll_interval, pm',
  project: 'path, name, tasks',
  pm: 'model, batch_window, min_interval, timeout, resume, claude_path',
}

/** Turn one zod issue into messages a user can act on, at the line of the YAML node concerned. */
function describeIssue(
  issue: z.core.$ZodIssue,
  data: unknown,
  doc: Document,
  at: At,
): ConfigError[] {
  const path = issue.path.filter((k): k is PathKey => typeof k !== 'symbol')
  const where = displayPath(path)
  const isDuration =
    path[0] === 'poll_interval' ||
    (path[0] === 'pm' && ['batch_window', 'min_interval', 'timeout'].includes(String(path[1])))
  if (isDuration && issue.code !== 'unrecognized_keys') {
    return [
      at(
        offsetOf(doc, path),
        `${path.join('.')}: ${DURATION_HINT}, got ${describe(valueAt(data, path))}`,
      ),
    ]
  }
  if (issue.code === 'unrecognized_keys') {
    const allowed =
      path.length === 0
        ? ALLOWED_KEYS.root
        : path[0] === 'pm'
          ? ALLOWED_KEYS.pm
          : ALLOWED_KEYS.project
    return issue.keys.map((key) =>
      at(offsetOf(doc, [...path, key]), `${where}: unknown key '${key}' (allowed: ${allowed})`),
    )
  }
  if (issue.code === 'invalid_type') {
    const value = valueAt(data, path)
    if (value === undefined && path.length > 0) {
      const parent = path.slice(0, -1)
      return [at(offsetOf(doc, parent), `${displayPath(parent)}: missing '${String(path.at(-1))}'`)]
    }
    const expected = EXPECTED[issue.expected] ?? issue.expected
    return [at(offsetOf(doc, path), `${where}: expected ${expected}, got ${describe(value)}`)]
  }
  if (issue.code === 'too_small' && issue.origin === 'string') {
    return [at(offsetOf(doc, path), `${where}: must not be empty`)]
  }
  return [at(offsetOf(doc, path), `${where}: ${issue.message}`)]
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  array: 'a list',
  object: 'a mapping (key: value)',
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value === 'string') return `'${value}'`
  return String(value)
}

function displayPath(path: PathKey[]): string {
  if (path.length === 0) return 'config'
  return path.reduce<string>(
    (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${key}` : key),
    '',
  )
}

function valueAt(data: unknown, path: PathKey[]): unknown {
  let current = data
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PathKey, unknown>)[key]
  }
  return current
}

/**
 * Source offset of the YAML node a path names: the key of a mapping entry (so a multi-line value points
 * at its key), the item of a list; when the path does not exist, its nearest existing ancestor.
 */
function offsetOf(doc: Document, path: PathKey[]): number | undefined {
  for (let depth = path.length; depth > 0; depth--) {
    const parent = depth === 1 ? doc.contents : doc.getIn(path.slice(0, depth - 1), true)
    const key = path[depth - 1]
    if (isMap(parent)) {
      const pair = parent.items.find((p) => keyText(p.key) === String(key))
      const node = pair?.key ?? pair?.value
      if (hasRange(node)) return node.range[0]
    } else if (isSeq(parent) && typeof key === 'number') {
      const item: unknown = parent.items[key]
      if (hasRange(item)) return item.range[0]
    }
  }
  return hasRange(doc.contents) ? doc.contents.range[0] : 0
}

function keyText(key: unknown): string | undefined {
  if (key !== null && typeof key === 'object' && 'value' in key) return String(key.value)
  return key === undefined || key === null ? undefined : String(key)
}

function hasRange(node: unknown): node is { range: [number, number, number] } {
  return node !== null && typeof node === 'object' && 'range' in node && Array.isArray(node.range)
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '')
}
