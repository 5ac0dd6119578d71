/**
 * Markdown checklists (the optional `tasks:` file of a registered project), so a project without any
 * agent session still has task status. Pure: markdown text in, task lists out.
 *
 * The rules:
 * - An item is a list line `- [ ] text`, with `-`, `*`, `+` or `1.` / `1)` bullets, at any indentation.
 * - `[x]` / `[X]` is completed; `[~]` / `[-]`, or `[ ]` with text starting `(in progress)`, is in progress
 *   (the marker is removed from the title); `[ ]` is pending.
 * - A `##` heading starts a PBI. `# ` and `###`+ headings do not: items under them stay in the current PBI.
 *   A heading starting with an id such as `PBI-8` or `ABC-12` (`## PBI-8: Research Agent`) gives that id
 *   and the rest as title; any other heading gives a slug id and itself as title.
 * - Items before the first `##` form a list titled after the file (its name without extension).
 * - Sections with no items are left out; lines inside ``` or ~~~ fences are ignored.
 * - Task ids are `<list id>-<n>`, n counting from 1 within the list; repeated list ids get `-2`, `-3`.
 */
import type { Pbi } from '../../../shared/schemas/project.ts'
import type { TaskCounts, TaskItem, TaskList, TaskStatus } from '../../../shared/schemas/session.ts'

export interface ChecklistSource {
  /** The project the file belongs to; names the first list when the file name is empty. */
  projectName: string
  /** Path (or name) of the markdown file; its base name titles items above the first `##`. */
  file: string
}

const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX~-])\]\s+(.*?)\s*$/
const PBI_HEADING = /^##\s+(.*?)\s*#*\s*$/
const FENCE = /^\s*(```|~~~)/
const IN_PROGRESS_PREFIX = /^\(in progress\)\s*/i
/** `PBI-12: …`, `PBI-12 – …` (an en or em dash, escaped: the CLI bundle stays ASCII), `PBI-12. …` */
const ID_PREFIX = /^([A-Za-z][A-Za-z0-9]*-\d+)\b\s*[:\-\u2013\u2014.]?\s*(.*)$/

interface Section {
  id: string
  title: string
  items: { title: string; status: TaskStatus }[]
}

/** Parse a markdown checklist into one task list per `##` section (see the rules above). */
export function parseChecklist(markdown: string, source: ChecklistSource): TaskList[] {
  const fileTitle = baseTitle(source.file) || source.projectName
  const sections: Section[] = [{ id: slugify(fileTitle), title: fileTitle, items: [] }]
  let inFence = false
  for (const line of markdown.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      inFence = !inFence
      continue
    }
    if (inFence) continue
    const heading = PBI_HEADING.exec(line)
    if (heading) {
      sections.push({ ...headingIdentity(heading[1] ?? ''), items: [] })
      continue
    }
    const item = ITEM.exec(line)
    if (item) sections.at(-1)?.items.push(parseItem(item[1] ?? ' ', item[2] ?? ''))
  }

  const seen = new Map<string, number>()
  return sections
    .filter((s) => s.items.length > 0)
    .map((section) => {
      const count = (seen.get(section.id) ?? 0) + 1
      seen.set(section.id, count)
      const id = count === 1 ? section.id : `${section.id}-${count}`
      return {
        id,
        title: section.title,
        source: 'checklist' as const,
        tasks: section.items.map((t, i) => ({ id: `${id}-${i + 1}`, ...t })),
      }
    })
}

function parseItem(mark: string, text: string): { title: string; status: TaskStatus } {
  if (mark === 'x' || mark === 'X') return { title: text, status: 'completed' }
  if (mark === '~' || mark === '-') return { title: text, status: 'in_progress' }
  if (IN_PROGRESS_PREFIX.test(text)) {
    return { title: text.replace(IN_PROGRESS_PREFIX, ''), status: 'in_progress' }
  }
  return { title: text, status: 'pending' }
}

function headingIdentity(heading: string): { id: string; title: string } {
  const withId = ID_PREFIX.exec(heading)
  if (withId?.[1]) return { id: withId[1], title: withId[2] || withId[1] }
  return { id: slugify(heading), title: heading }
}

function baseTitle(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? ''
  return base.replace(/\.[^.]+$/, '')
}

/** `"Research Agent!"` → `"research-agent"`; never empty. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return slug || 'section'
}

/** Count tasks by status: `done` is completed, `todo` is pending. */
export function countTasks(tasks: readonly TaskItem[]): TaskCounts {
  const counts: TaskCounts = { done: 0, in_progress: 0, todo: 0, total: tasks.length }
  for (const task of tasks) {
    if (task.status === 'completed') counts.done++
    else if (task.status === 'in_progress') counts.in_progress++
    else counts.todo++
  }
  return counts
}

/**
 * The PBI being worked on: the first list (in document order) with a task not done; when every list is
 * done, the last one. Lists without tasks are not PBIs. Null when there is none.
 */
export function currentPbi(lists: readonly TaskList[]): Pbi | null {
  const pbis = lists
    .map((list) => ({ id: list.id, title: list.title, tasks: countTasks(list.tasks) }))
    .filter((pbi) => pbi.tasks.total > 0)
  return pbis.find((pbi) => pbi.tasks.done < pbi.tasks.total) ?? pbis.at(-1) ?? null
}
