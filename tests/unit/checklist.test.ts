import { describe, expect, it } from 'vitest'
import {
  countTasks,
  currentPbi,
  parseChecklist,
  slugify,
} from '../../electron/engine/core/checklist.ts'
import type { TaskList } from '../../shared/schemas/session.ts'

const SOURCE = { projectName: 'apollo', file: '/home/ada/apollo/docs/backlog.md' }

const BACKLOG = `# Apollo backlog

Loose ends:
- [x] Set up CI
- [ ] Write the README

## PBI-7: Login
- [x] Form
- [X] Session cookie
  - [x] nested detail

## PBI-8: Research Agent
Some prose, and a link [x] that is not an item.
* [x] Pick a model
- [~] Prompt design
- [-] Tool wiring
- [ ] (in progress) Evaluation harness
- [ ] Report
1. [ ] Numbered item

\`\`\`md
- [ ] inside a code fence
## not a heading either
\`\`\`

### Notes (a sub-heading stays in PBI-8)
+ [ ] Follow-up

## Ideas & Someday!
- [ ] Dark mode

## Empty section

## PBI-9 Deploy
- [ ] Staging
`

describe('parseChecklist', () => {
  const lists = parseChecklist(BACKLOG, SOURCE)

  it('takes an id before a colon, an en or em dash, a period or a space', () => {
    const headings = ['PBI-1: One', 'PBI-2 – Two', 'PBI-3 — Three', 'PBI-4. Four', 'PBI-5 Five']
    const parsed = parseChecklist(headings.map((h) => `## ${h}\n- [ ] x\n`).join('\n'), SOURCE)
    expect(parsed.map((l) => [l.id, l.title])).toEqual([
      ['PBI-1', 'One'],
      ['PBI-2', 'Two'],
      ['PBI-3', 'Three'],
      ['PBI-4', 'Four'],
      ['PBI-5', 'Five'],
    ])
  })

  it('groups items by ## heading, the items above the first one under the file name', () => {
    expect(lists.map((l) => [l.id, l.title, l.tasks.length])).toEqual([
      ['backlog', 'backlog', 2],
      ['PBI-7', 'Login', 3],
      ['PBI-8', 'Research Agent', 7],
      ['ideas-someday', 'Ideas & Someday!', 1],
      ['PBI-9', 'Deploy', 1],
    ])
    expect(lists.every((l) => l.source === 'checklist')).toBe(true)
  })

  it('reads the status of each item and numbers the tasks per list', () => {
    const pbi8 = lists.find((l) => l.id === 'PBI-8')
    expect(pbi8?.tasks).toEqual([
      { id: 'PBI-8-1', title: 'Pick a model', status: 'completed' },
      { id: 'PBI-8-2', title: 'Prompt design', status: 'in_progress' },
      { id: 'PBI-8-3', title: 'Tool wiring', status: 'in_progress' },
      { id: 'PBI-8-4', title: 'Evaluation harness', status: 'in_progress' },
      { id: 'PBI-8-5', title: 'Report', status: 'pending' },
      { id: 'PBI-8-6', title: 'Numbered item', status: 'pending' },
      { id: 'PBI-8-7', title: 'Follow-up', status: 'pending' },
    ])
    expect(lists[1]?.tasks.map((t) => t.status)).toEqual(['completed', 'completed', 'completed'])
  })

  it('gives repeated headings distinct ids', () => {
    const md = '## Polish\n- [ ] a\n## Polish\n- [ ] b\n'
    expect(parseChecklist(md, SOURCE).map((l) => l.id)).toEqual(['polish', 'polish-2'])
    expect(parseChecklist(md, SOURCE)[1]?.tasks[0]?.id).toBe('polish-2-1')
  })

  it('handles CRLF, empty input and a file without items', () => {
    expect(parseChecklist('## A\r\n- [x] done\r\n', SOURCE)[0]?.tasks[0]).toEqual({
      id: 'a-1',
      title: 'done',
      status: 'completed',
    })
    expect(parseChecklist('', SOURCE)).toEqual([])
    expect(parseChecklist('# Title\n\nJust prose.\n', SOURCE)).toEqual([])
  })

  it('titles loose items after the project when the file has no name', () => {
    const [list] = parseChecklist('- [ ] x\n', { projectName: 'apollo', file: '' })
    expect(list?.title).toBe('apollo')
  })

  it('slugs headings', () => {
    expect(slugify('Ideas & Someday!')).toBe('ideas-someday')
    expect(slugify('Café crème')).toBe('cafe-creme')
    expect(slugify('!!!')).toBe('section')
  })
})

describe('countTasks and currentPbi', () => {
  const list = (id: string, statuses: string): TaskList => ({
    id,
    title: `Title ${id}`,
    source: 'checklist',
    tasks: [...statuses].map((s, i) => ({
      id: `${id}-${i + 1}`,
      title: `t${i}`,
      status: s === 'x' ? 'completed' : s === '~' ? 'in_progress' : 'pending',
    })),
  })

  it('counts by status', () => {
    expect(countTasks(list('a', 'xx~  ').tasks)).toEqual({
      done: 2,
      in_progress: 1,
      todo: 2,
      total: 5,
    })
    expect(countTasks([])).toEqual({ done: 0, in_progress: 0, todo: 0, total: 0 })
  })

  it('is the first list not fully done', () => {
    expect(currentPbi([list('a', 'xx'), list('b', 'x~ '), list('c', ' ')])).toEqual({
      id: 'b',
      title: 'Title b',
      tasks: { done: 1, in_progress: 1, todo: 1, total: 3 },
    })
  })

  it('is the last list when all are done, and skips empty lists', () => {
    expect(currentPbi([list('a', 'x'), list('b', 'xx'), list('c', '')])?.id).toBe('b')
    expect(currentPbi([list('a', ''), list('b', ' ')])?.id).toBe('b')
  })

  it('is null without lists', () => {
    expect(currentPbi([])).toBeNull()
    expect(currentPbi([list('a', '')])).toBeNull()
  })

  it('follows a parsed checklist', () => {
    const pbi = currentPbi(parseChecklist(BACKLOG, SOURCE))
    expect(pbi).toEqual({
      id: 'backlog',
      title: 'backlog',
      tasks: { done: 1, in_progress: 0, todo: 1, total: 2 },
    })
  })
})
