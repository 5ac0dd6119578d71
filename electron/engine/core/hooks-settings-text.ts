/**
 * Navi's hooks added to and removed from the TEXT of Claude Code's `settings.json`, touching no byte
 * outside Navi's own entries: the user's numbers (`12345678901234567890`, `1.0`), key order, spacing,
 * line endings (CRLF stays CRLF) and BOM are kept. An insertion goes right after the last element of
 * its array or object, on a new line with that element's indentation (or on the same line when the
 * container is written on one line); a removal cuts exactly the element and the comma that joined it.
 * jsonc-parser gives the syntax tree with offsets; the edits are these few string splices. Pure.
 *
 * What to change is decided by the value-level functions of `hooks-settings.ts`; every result is parsed
 * back and must equal what they produce, or the edit is refused: a text edit can never drift from the rule.
 */
import { findNodeAtLocation, parseTree, type JSONPath, type Node } from 'jsonc-parser'
import {
  addNaviHooks,
  HooksSettingsShapeError,
  NAVI_HOOK_EVENTS,
  naviGroup,
  isCurrentNaviGroup,
  isNaviEntry,
  removeNaviHooks,
} from './hooks-settings.ts'

type Json = Record<string, unknown>

const BOM = '\uFEFF'

/** The file's indentation unit and line ending, for the lines Navi adds. */
export interface TextLayout {
  indent: string
  eol: string
}

export function layoutOf(text: string): TextLayout {
  const body = text.startsWith(BOM) ? text.slice(1) : text
  return {
    indent: /^[{[][ \t]*\r?\n([ \t]+)\S/.exec(body)?.[1] ?? '  ',
    eol: body.includes('\r\n') ? '\r\n' : '\n',
  }
}

function parseObject(body: string): Json {
  const value: unknown = body.trim() === '' ? {} : JSON.parse(body)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HooksSettingsShapeError('settings.json is not a JSON object')
  }
  return value as Json
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? ''
}

/** `value` as JSON laid out like the file, every line after the first starting with `indent`. */
function render(value: unknown, layout: TextLayout, indent: string): string {
  return JSON.stringify(value, null, layout.indent)
    .split('\n')
    .join(layout.eol + indent)
}

/** Splices applied one at a time, each located on the text the previous one left. */
function editor(start: string, layout: TextLayout) {
  let text = start
  const node = (path: JSONPath): Node | undefined => {
    const root = parseTree(text)
    return root ? findNodeAtLocation(root, path) : undefined
  }
  const splice = (from: number, to: number, insert: string): void => {
    text = text.slice(0, from) + insert + text.slice(to)
  }
  /** Adds `item` (an element, or `"key": value`) at the end of `container`. */
  const append = (container: Node, item: (indent: string) => string): void => {
    const children = container.children ?? []
    const last = children[children.length - 1]
    const open = container.offset
    const close = container.offset + container.length - 1
    if (!last) {
      const indent = lineIndent(text, open)
      const inner = indent + layout.indent
      splice(open + 1, close, `${layout.eol}${inner}${item(inner)}${layout.eol}${indent}`)
      return
    }
    const end = last.offset + last.length
    const oneLine = !text.slice(open, end).includes('\n')
    const indent = lineIndent(text, last.offset)
    splice(end, end, oneLine ? `, ${item(indent)}` : `,${layout.eol}${indent}${item(indent)}`)
  }
  return {
    /** Appends `value` to the array at `path`. */
    push(path: JSONPath, value: unknown): void {
      const array = node(path)
      if (array?.type !== 'array')
        throw new HooksSettingsShapeError(`no array at ${path.join('.')}`)
      append(array, (indent) => render(value, layout, indent))
    },
    /** Adds `key: value` to the object at `path` (the key must be new). */
    add(path: JSONPath, key: string, value: unknown): void {
      const object = node(path)
      if (object?.type !== 'object')
        throw new HooksSettingsShapeError(`no object at ${path.join('.')}`)
      append(object, (indent) => `${JSON.stringify(key)}: ${render(value, layout, indent)}`)
    },
    /** Cuts the element or property at `path` and the comma that joined it to its neighbour. */
    remove(path: JSONPath): void {
      let target = node(path)
      if (target?.parent?.type === 'property') target = target.parent
      const parent = target?.parent
      if (!target || !parent?.children)
        throw new HooksSettingsShapeError(`nothing at ${path.join('.')}`)
      const siblings = parent.children
      const index = siblings.indexOf(target)
      const next = siblings[index + 1]
      const prev = siblings[index - 1]
      const end = target.offset + target.length
      if (next) splice(target.offset, next.offset, '')
      else if (prev) splice(prev.offset + prev.length, end, '')
      else splice(parent.offset + 1, parent.offset + parent.length - 1, '')
    },
    get text(): string {
      return text
    },
  }
}

/**
 * Removal of Navi's entries from one event's groups, last first so earlier indexes stay valid: a group
 * holding only Navi entries goes whole, otherwise only the entries. Returns how many groups remain.
 */
function removeNaviEntries(
  edit: ReturnType<typeof editor>,
  event: string,
  groups: unknown[],
): { remaining: number; removed: boolean } {
  let remaining = groups.length
  let removed = false
  for (let g = groups.length - 1; g >= 0; g--) {
    const group = groups[g]
    if (!isObject(group) || !Array.isArray(group.hooks) || !group.hooks.some(isNaviEntry)) continue
    removed = true
    if (group.hooks.every(isNaviEntry)) {
      edit.remove(['hooks', event, g])
      remaining--
      continue
    }
    for (let e = group.hooks.length - 1; e >= 0; e--) {
      if (isNaviEntry(group.hooks[e])) edit.remove(['hooks', event, g, 'hooks', e])
    }
  }
  return { remaining, removed }
}

function verified(result: string, expected: Json): string {
  const body = result.startsWith(BOM) ? result.slice(1) : result
  let actual: unknown
  try {
    actual = JSON.parse(body)
  } catch {
    actual = undefined
  }
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new HooksSettingsShapeError(
      'settings.json has a layout Navi cannot edit without touching the rest (duplicate keys?)',
    )
  }
  return result
}

function split(text: string): { bom: string; body: string } {
  return text.startsWith(BOM) ? { bom: BOM, body: text.slice(1) } : { bom: '', body: text }
}

/**
 * `text` with Navi's hook group for every event in `NAVI_HOOK_EVENTS` (an older Navi entry replaced, the
 * rest untouched). A blank text becomes a new file with two-space indentation.
 * @throws HooksSettingsShapeError for a shape Navi will not edit (see `addNaviHooks`).
 */
export function addNaviHooksToText(text: string, command: string): string {
  const { bom, body } = split(text)
  const before = parseObject(body)
  const expected = addNaviHooks(before, command)
  if (body.trim() === '') return `${JSON.stringify(expected, null, 2)}\n`
  const edit = editor(body, layoutOf(body))
  for (const event of NAVI_HOOK_EVENTS) {
    const hooks = parseObject(edit.text).hooks
    const groups = isObject(hooks) && Array.isArray(hooks[event]) ? hooks[event] : undefined
    if (groups) {
      const current = groups.filter((group) => isCurrentNaviGroup(group, event, command))
      const naviCount = groups.flatMap((g) =>
        isObject(g) && Array.isArray(g.hooks) ? g.hooks.filter(isNaviEntry) : [],
      ).length
      if (current.length === 1 && naviCount === 1) continue
      removeNaviEntries(edit, event, groups)
      edit.push(['hooks', event], naviGroup(event, command))
    } else if (isObject(hooks)) {
      edit.add(['hooks'], event, [naviGroup(event, command)])
    } else {
      edit.add([], 'hooks', { [event]: [naviGroup(event, command)] })
    }
  }
  return verified(bom + edit.text, expected)
}

/**
 * `text` without any Navi hook entry; arrays and the `hooks` object that the removal left empty go too.
 * @throws HooksSettingsShapeError for a shape Navi will not edit (see `removeNaviHooks`).
 */
export function removeNaviHooksFromText(text: string): string {
  const { bom, body } = split(text)
  const before = parseObject(body)
  const expected = removeNaviHooks(before)
  const hooks = before.hooks
  if (!isObject(hooks)) return verified(text, expected)
  const edit = editor(body, layoutOf(body))
  let removedAny = false
  let keysLeft = Object.keys(hooks).length
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue
    const current = parseObject(edit.text).hooks as Json
    const { remaining, removed } = removeNaviEntries(edit, event, current[event] as unknown[])
    removedAny ||= removed
    if (removed && remaining === 0) {
      edit.remove(['hooks', event])
      keysLeft--
    }
  }
  if (removedAny && keysLeft === 0) edit.remove(['hooks'])
  // Nothing left at all (a file Navi created): `{}` rather than a brace on each line.
  if (Object.keys(expected).length === 0 && /^\{\s*\}\s*$/.test(edit.text)) {
    const eol = layoutOf(body).eol
    return `${bom}{}${body.endsWith('\n') ? eol : ''}`
  }
  return verified(bom + edit.text, expected)
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
