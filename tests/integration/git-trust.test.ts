/**
 * A repository another local user owns never runs its commands as us. The repository is created as
 * `nobody` in a world-writable directory (as `/tmp` is), with a `core.fsmonitor` command, hooks and a
 * clean filter that would each leave a marker file; then a session sits in a subdirectory of it and the
 * real `navi status`, `navi sessions` and `navi doctor` run. Nothing may run, the repository is not a
 * git project, and `navi status` says why. Trusting it through `safe.directory` (exactly git's rule)
 * makes it a project again, still without running any of its commands.
 */
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineStateSchema } from '../../shared/schemas/state.ts'
import { createGitReader } from '../../electron/engine/adapters/git.ts'
import { createRepoRootCache } from '../../electron/engine/adapters/git-repo-root.ts'
import { createRepoTrust } from '../../electron/engine/adapters/git-trust.ts'
import { createNaviEnv, runNavi, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, FIXTURE_GIT_ENV, type RepoFixture } from '../support/repo-fixture.ts'

const isRoot = process.geteuid?.() === 0
const hasRunuser = (() => {
  try {
    execFileSync('runuser', ['--help'], { stdio: 'ignore' })
    execFileSync('id', ['nobody'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
const canImpersonate = isRoot && hasRunuser

let shared: string
let hostile: string
let markers: string
let naviEnv: NaviEnv
let owned: RepoFixture

/** Runs a command as `nobody` with the fixture's git identity and no user config. */
function asNobody(cwd: string, command: string, args: string[]): void {
  execFileSync('runuser', ['-u', 'nobody', '--', command, ...args], {
    cwd,
    env: { ...FIXTURE_GIT_ENV, PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd },
    stdio: 'pipe',
  })
}

/** Plants every repository-controlled command git could run; each writes a marker file when run. */
function plantCommands(gitDir: string, configure: (key: string, value: string) => void): void {
  const mark = (name: string) => `touch ${join(markers, name)}`
  configure('core.fsmonitor', mark('fsmonitor'))
  configure('core.pager', mark('pager'))
  configure('diff.external', mark('external-diff'))
  configure('core.sshCommand', mark('ssh'))
  configure('filter.evil.clean', mark('clean-filter'))
  configure('filter.evil.process', mark('process-filter'))
  configure('log.showSignature', 'true')
  configure('gpg.program', mark('gpg'))
  for (const hook of [
    'post-index-change',
    'pre-auto-gc',
    'post-checkout',
    'reference-transaction',
  ]) {
    const file = join(gitDir, 'hooks', hook)
    writeFileSync(file, `#!/bin/sh\n${mark(`hook-${hook}`)}\n`)
    chmodSync(file, 0o755)
  }
}

const markersLeft = () => readdirSync(markers)

beforeAll(async () => {
  if (!canImpersonate) return
  shared = mkdtempSync(join(tmpdir(), 'navi-shared-'))
  chmodSync(shared, 0o1777)
  markers = mkdtempSync(join(tmpdir(), 'navi-markers-'))
  chmodSync(markers, 0o1777)
  hostile = join(shared, 'theirs')
  asNobody(shared, 'mkdir', [hostile])
  asNobody(hostile, 'git', ['init', '-q', '-b', 'main'])
  asNobody(hostile, 'sh', ['-c', 'echo "* filter=evil" > .gitattributes && echo hi > a.txt'])
  asNobody(hostile, 'git', ['add', '-A'])
  asNobody(hostile, 'git', ['commit', '-q', '-m', 'theirs'])
  asNobody(hostile, 'mkdir', ['-p', 'src/deep'])
  plantCommands(join(hostile, '.git'), (key, value) =>
    asNobody(hostile, 'git', ['config', key, value]),
  )
  // Touch the file so an index refresh (and the clean filter) would be needed.
  asNobody(hostile, 'sh', ['-c', 'echo changed >> a.txt'])
  expect(markersLeft()).toEqual([])

  owned = await createRepoFixture({ prefix: 'navi-owned-' })
  naviEnv = await createNaviEnv()
  writeFileSync(
    join(naviEnv.NAVI_HOME, 'config.yaml'),
    `projects:\n  - path: ${join(hostile, 'src', 'deep')}\n    name: theirs\n  - path: ${owned.dir}\n    name: mine\n`,
  )
  // A live Claude session (our own pid, so it is alive) whose cwd is inside their repository.
  mkdirSync(join(naviEnv.CLAUDE_CONFIG_DIR, 'sessions'), { recursive: true })
  writeFileSync(
    join(naviEnv.CLAUDE_CONFIG_DIR, 'sessions', `${process.pid}.json`),
    JSON.stringify({
      pid: process.pid,
      sessionId: 'a1b2c3d4-0000-4000-8000-000000000001',
      cwd: join(hostile, 'src'),
      startedAt: Date.now(),
    }),
  )
})

afterAll(async () => {
  if (!canImpersonate) return
  await owned?.cleanup()
  for (const dir of [
    shared,
    markers,
    naviEnv?.NAVI_HOME,
    naviEnv?.CLAUDE_CONFIG_DIR,
    naviEnv?.CODEX_HOME,
  ])
    if (dir) rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(!canImpersonate)(
  'a repository owned by another user (needs root and runuser)',
  () => {
    it('is not a project and runs nothing, through status, sessions and doctor', async () => {
      for (const args of [
        ['status', '--json'],
        ['sessions', '--json'],
        ['doctor', '--json'],
        ['status'],
      ]) {
        const run = await runNavi(args, naviEnv)
        expect(run.exitCode, run.stderr).toBe(0)
      }
      expect(markersLeft()).toEqual([])

      const status = engineStateSchema.parse((await runNavi(['status', '--json'], naviEnv)).json)
      const theirs = status.projects.filter((p) => p.project_dir.startsWith(hostile))
      expect(theirs.length).toBeGreaterThan(0)
      for (const project of theirs) expect(project.git).toBeNull()
      expect(status.errors.join('\n')).toContain(`repository ${hostile} is owned by uid 65534`)
      expect(status.errors.join('\n')).toContain('safe.directory')
      // The repository the user owns beside it is read as usual.
      const mine = status.projects.find((p) => p.name === 'mine')
      expect(mine?.git?.error).toBeNull()
      expect(mine?.branch).toBe('main')
      expect(markersLeft()).toEqual([])
    })

    it('the engine refuses it directly too: no location, and reading it is an error state', async () => {
      const cache = createRepoRootCache(createRepoTrust())
      expect(cache.find(join(hostile, 'src', 'deep'))).toBeNull()
      expect([...cache.refusals().keys()]).toEqual([hostile])
      const { state } = await createGitReader().readGitState(hostile, null)
      expect(state.error).toMatch(/not (a repository git trusts|trusted)/)
      expect(markersLeft()).toEqual([])
    })

    it('is a project once safe.directory trusts it, and still none of its commands runs', async () => {
      const gitconfig = join(markers, '..', `navi-gitconfig-${process.pid}`)
      writeFileSync(gitconfig, `[safe]\n\tdirectory = ${hostile}\n`)
      try {
        const env = { ...naviEnv, GIT_CONFIG_GLOBAL: gitconfig }
        const status = engineStateSchema.parse((await runNavi(['status', '--json'], env)).json)
        const theirs = status.projects.find((p) => p.project_dir === hostile)
        expect(theirs?.git?.error).toBeNull()
        expect(theirs?.git?.head_sha).toMatch(/^[0-9a-f]{40}$/)
        expect(theirs?.git?.dirty).toBe(true)
        expect(markersLeft()).toEqual([])
      } finally {
        rmSync(gitconfig, { force: true })
      }
    })
  },
)

describe('a repository the user owns', () => {
  it('never runs its fsmonitor, hooks, pager or signature program either', async () => {
    const repo = await createRepoFixture({ prefix: 'navi-own-hostile-' })
    const marks = mkdtempSync(join(tmpdir(), 'navi-own-marks-'))
    try {
      markers = marks
      await repo.commit('second', { 'b.txt': 'b' })
      plantCommands(join(repo.dir, '.git'), (key, value) =>
        execFileSync('git', ['config', key, value], { cwd: repo.dir, env: FIXTURE_GIT_ENV }),
      )
      writeFileSync(join(repo.dir, 'b.txt'), 'changed')
      const reader = createGitReader()
      const { state: first } = await reader.readGitState(repo.dir, null)
      expect(first.error).toBeNull()
      // Previous heads one commit back: the new commit is listed with `git log` (where a signature check
      // would run gpg).
      const again = await reader.readGitState(repo.dir, {
        main: await repo.git('rev-parse', 'HEAD~1'),
      })
      expect(again.state.error).toBeNull()
      expect(again.newCommits.commits.map((c) => c.subject)).toEqual(['second'])
      expect(again.state.dirty).toBe(true)
      expect(existsSync(marks) ? readdirSync(marks) : []).toEqual([])
    } finally {
      await repo.cleanup()
      rmSync(marks, { recursive: true, force: true })
    }
  })
})
