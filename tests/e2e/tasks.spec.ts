/**
 * Delegating a task from the popover in a browser (`navi serve`, Debian Chromium) to the real claude
 * against the scripted API: the "New task" box previews where the task runs (the resolver's pick), the
 * task runs there (its file is on disk) and the list shows what it relayed; a task with a plan keyword
 * shows its plan, and Approve implements it.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { text, toolUse } from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'
import { expect, shot, test } from './support/navi-serve.ts'

test.describe('delegated tasks in the popover (real claude, navi serve)', () => {
  test('New task: previewed in its project, run there, its note relayed', async ({
    openApp,
    navi,
  }) => {
    const page = await openApp()
    await page.getByTestId('tasks-button').click()
    await expect(page.getByTestId('tasks-view')).toBeVisible()
    const file = join(navi.repos.gamma.dir, 'BACKLOG.md')
    navi.pmApi.enqueue(
      toolUse('Write', { file_path: file, content: '- a line\n' }),
      text('[NOTIFY] Added one line to BACKLOG.md'),
    )
    await page.getByTestId('new-task-text').fill('add a line to the backlog of gamma')
    await expect(page.getByTestId('new-task-project')).toContainText('gamma ("gamma" in the task)')
    // Edits without asking, chosen for this task, and said plainly.
    await page.getByTestId('new-task-mode').selectOption('acceptEdits')
    await shot(page, 'tasks-new')
    await page.getByTestId('new-task-start').click()
    const task = page.getByTestId('task').first()
    await expect(task).toHaveAttribute('data-status', 'completed', { timeout: 60_000 })
    await expect(task.getByTestId('task-note')).toHaveText('Added one line to BACKLOG.md')
    await waitUntil(() => existsSync(file), 10_000, 'the task’s file on disk')
    await shot(page, 'tasks-done')
    // The task's session is one of gamma's sessions, and says which task it is.
    await page.getByTestId('tasks-back').click()
    await page.locator('[data-testid="project-row"][data-project="gamma"]').click()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('session-task')).toContainText(
      'delegated task: add a line to the backlog of gamma',
      { timeout: 30_000 },
    )
  })

  test('a plan keyword plans first; the plan is shown and Approve implements it', async ({
    openApp,
    navi,
  }) => {
    const page = await openApp()
    await page.getByTestId('tasks-button').click()
    const file = join(navi.repos.beta.dir, 'parser.ts')
    navi.pmApi.enqueue(text('[NOTIFY] Plan:\n1. split the parser\n2. add its tests'))
    await page.getByTestId('new-task-text').fill('refactor the parser in beta')
    await expect(page.getByTestId('new-task-start')).toHaveText('Plan it')
    await page.getByTestId('new-task-mode').selectOption('acceptEdits')
    await page.getByTestId('new-task-start').click()
    const task = page.locator('[data-testid="task"]', { hasText: 'refactor the parser in beta' })
    await expect(task).toHaveAttribute('data-status', 'awaiting_approval', { timeout: 60_000 })
    await expect(task.getByTestId('task-plan')).toHaveText(
      'Plan:\n1. split the parser\n2. add its tests',
    )
    await expect(page.getByTestId('tasks-button')).toHaveText('Tasks (1 waiting)')
    await shot(page, 'tasks-plan')
    navi.pmApi.enqueue(
      toolUse('Write', { file_path: file, content: 'export {}\n' }),
      text('[NOTIFY] Split the parser'),
    )
    await task.getByTestId('task-approve').click()
    await expect(task).toHaveAttribute('data-status', 'completed', { timeout: 60_000 })
    expect(existsSync(file)).toBe(true)
  })
})
