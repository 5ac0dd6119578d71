/**
 * Acceptance: a suggestion from Navi's deterministic rule, end to end through the `navi` CLI over a real
 * git repository: every task of the current PBI done (a checklist registered in config.yaml), the branch
 * ahead of its upstream, and no pull request for it (`gh` on PATH, a stand-in that answers as gh does
 * when there is none). `navi status` shows "ready for a PR?" with its evidence; `navi dismiss` hides it,
 * and it stays hidden in the next process (a restart); a PR opened later (gh answers one) ends it.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createNaviEnv, runNavi, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'

let repo: RepoFixture
let env: NaviEnv
let bin: string

/** A stand-in `gh`: `pr view` answers as gh does with no PR for the branch, or with `openPr`. */
function fakeGh(openPr: boolean): void {
  const body = openPr
    ? `echo '{"state":"OPEN","number":7,"url":"https://example.invalid/pull/7"}'`
    : `echo 'no pull requests found for branch "main"' >&2; exit 1`
  writeFileSync(join(bin, 'gh'), `#!/bin/sh\n${body}\n`)
  chmodSync(join(bin, 'gh'), 0o755)
}

beforeEach(async () => {
  repo = await createRepoFixture({ prefix: 'suggest-' })
  bin = mkdtempSync(join(tmpdir(), 'navi-fake-gh-'))
  fakeGh(false)
  await repo.addUpstream()
  await repo.commit('widget: parser', {
    'TASKS.md': '## PBI-8: Widget\n- [x] Parser\n- [x] Tests\n',
    'src/parser.ts': 'export {}\n',
  })
  await repo.commit('widget: tests', { 'src/parser.test.ts': 'export {}\n' })
  env = await createNaviEnv({ PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` })
  writeFileSync(
    join(env.NAVI_HOME, 'config.yaml'),
    `projects:\n  - path: ${repo.dir}\n    name: widget\n    tasks: TASKS.md\n`,
  )
})

afterEach(async () => {
  await repo.cleanup()
  rmSync(bin, { recursive: true, force: true })
  rmSync(env.NAVI_HOME, { recursive: true, force: true })
})

it('all tasks done, ahead, no PR: "ready for a PR?" with its evidence, dismissed for good', async () => {
  const status = await runNavi(['status'], env)
  expect(status.exitCode, status.stderr).toBe(0)
  expect(status.stdout).toContain('Suggestions:')
  const line = status.stdout.split('\n').find((l) => l.includes('ready for a PR?'))
  expect(line).toBe(
    '  widget: PBI-8 Widget is done: ready for a PR? (all 2 tasks of PBI-8 Widget are done; main is 2 commits ahead of origin/main; no pull request is open for main)',
  )

  const dismissed = await runNavi(
    ['dismiss', 'widget', 'PBI-8 Widget is done: ready for a PR?'],
    env,
  )
  expect(dismissed.exitCode).toBe(0)
  // A new process, as after a restart: still dismissed.
  expect((await runNavi(['status'], env)).stdout).not.toContain('ready for a PR?')
})

it('no suggestion while a PR is open, nor while a task is left', async () => {
  fakeGh(true)
  expect((await runNavi(['status'], env)).stdout).not.toContain('Suggestions:')
  fakeGh(false)
  await repo.commit('widget: more', { 'TASKS.md': '## PBI-8: Widget\n- [x] Parser\n- [ ] Docs\n' })
  expect((await runNavi(['status'], env)).stdout).not.toContain('ready for a PR?')
})
