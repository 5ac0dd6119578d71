/**
 * The resident memory of `navi watch --no-pm` over a long run (default an hour) with 500 sessions in 50
 * registered repositories (bench/scale.ts's 500-session setup), while it has something to do: an agent
 * that appends a 1 KiB line to a transcript every 2 s, and a commit in one of the repositories every
 * 5 minutes. RSS is sampled every 30 s from /proc; the table shows it at start, its peak and at the end.
 * The shared corpus is left as found: the agent writes a session of its own (a copy of a median one,
 * removed after) and the commits are reset after, so bench/scale.ts can run beside or after it.
 *
 * `node bin/run-ts.mjs bench/watch-memory.ts [--minutes M]` (default 60). Needs the scale bench's corpus
 * (run `bench/scale.ts --quick` once, it is kept in the temp dir). Writes bench/results/watch-memory.json.
 */
import { type ChildProcess, execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleNaviCli, NAVI_CLI_FILE } from '../scripts/cli-bundle.ts'
import { FIXTURE_GIT_ENV } from '../tests/support/repo-fixture.ts'
import { appendedPromptLine } from './lib/appended-line.ts'
import { startNaviWatch, stopNaviWatch } from './lib/navi-watch.ts'
import { residentMb } from './lib/process-stats.ts'
import { isMain, numberOption, printTable, round, sleep, writeResult } from './lib/report.ts'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const ROOT = join(tmpdir(), 'navi-bench-scale-500s-50r')

export async function benchWatchMemory(opts: { minutes: number }) {
  const corpus = JSON.parse(await readFile(join(ROOT, 'corpus', 'corpus.json'), 'utf8')) as {
    files: { path: string; sessionId: string; cwd: string; bytes: number }[]
  }
  const repos = [...new Set(corpus.files.map((f) => f.cwd.replace(/\/packages\/core$/, '')))]
  const outDir = join(REPO, 'out', 'bench-watch-memory')
  await rm(outDir, { recursive: true, force: true })
  await bundleNaviCli({ outdir: outDir, logLevel: 'silent' })
  const scratch = await mkdtemp(join(tmpdir(), 'navi-bench-watch-memory-'))
  const home = join(scratch, 'navi')
  await mkdir(home, { recursive: true })
  await writeFile(
    join(home, 'config.yaml'),
    `projects:\n${repos.map((r) => `  - path: ${r}\n`).join('')}`,
  )
  const env = {
    ...process.env,
    HOME: scratch,
    NAVI_HOME: home,
    CLAUDE_CONFIG_DIR: join(ROOT, 'corpus', 'claude'),
    CODEX_HOME: join(scratch, 'codex'),
  }
  const median = [...corpus.files].sort((a, b) => a.bytes - b.bytes)[
    Math.floor(corpus.files.length / 2)
  ]
  if (!median) throw new Error('no corpus: run bench/scale.ts --quick first')
  // The agent's own session, so a benchmark reading the shared corpus meanwhile sees its files unchanged.
  const sessionId = randomUUID()
  const agent = { ...median, sessionId, path: join(dirname(median.path), `${sessionId}.jsonl`) }
  // Its lines name it, as Claude Code's do (a copy still naming the median session would be a duplicate).
  await writeFile(
    agent.path,
    (await readFile(median.path, 'utf8')).replaceAll(median.sessionId, sessionId),
  )
  const git = (repo: string, args: string[]) =>
    execFileSync('git', args, { cwd: repo, env: { ...process.env, ...FIXTURE_GIT_ENV } })
      .toString()
      .trim()
  const headsBefore = new Map(repos.map((repo) => [repo, git(repo, ['rev-parse', 'HEAD'])]))
  const samples: { minute: number; rssMb: number }[] = []
  let commits = 0
  let appends = 0
  let watch: ChildProcess | undefined
  try {
    watch = await startNaviWatch(join(outDir, NAVI_CLI_FILE), env)
    const started = Date.now()
    let nextSample = started
    let nextCommit = started + 5 * 60_000
    while (Date.now() - started < opts.minutes * 60_000) {
      await appendFile(agent.path, appendedPromptLine(agent.sessionId, agent.cwd, new Date()))
      appends++
      if (Date.now() >= nextCommit) {
        const repo = repos[commits % repos.length] as string
        // Unique content: a file left by an earlier run that stopped before its reset is committed too.
        await writeFile(join(repo, `bench-${commits}.txt`), `${commits} ${randomUUID()}\n`)
        git(repo, ['add', '-A'])
        git(repo, ['commit', '-q', '-m', `bench commit ${commits}`])
        commits++
        nextCommit += 5 * 60_000
      }
      if (Date.now() >= nextSample) {
        const rss = residentMb(watch.pid as number)
        if (rss !== null)
          samples.push({ minute: round((Date.now() - started) / 60_000, 1), rssMb: round(rss, 0) })
        nextSample += 30_000
      }
      await sleep(2000)
    }
  } finally {
    if (watch) await stopNaviWatch(watch)
    await rm(agent.path, { force: true })
    for (const [repo, head] of headsBefore) git(repo, ['reset', '-q', '--hard', head])
    await rm(scratch, { recursive: true, force: true })
  }
  const rss = samples.map((s) => s.rssMb)
  const summary = {
    minutes: opts.minutes,
    appends,
    commits,
    rssStartMb: rss[0] ?? null,
    rssPeakMb: rss.length ? Math.max(...rss) : null,
    rssEndMb: rss.at(-1) ?? null,
  }
  printTable(
    `navi watch for ${opts.minutes} min, 500 sessions in 50 repositories, an agent writing every 2 s, a commit every 5 min`,
    ['measure', 'value'],
    [
      ['RSS at start (MB)', summary.rssStartMb ?? '-'],
      ['RSS peak (MB)', summary.rssPeakMb ?? '-'],
      ['RSS at the end (MB)', summary.rssEndMb ?? '-'],
      ['appends / commits', `${appends} / ${commits}`],
    ],
  )
  return { ...summary, samples }
}

if (isMain(import.meta.url)) {
  const result = await benchWatchMemory({
    minutes: numberOption(process.argv.slice(2), 'minutes', 60),
  })
  await writeResult('watch-memory', result)
}
