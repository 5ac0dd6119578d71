/**
 * `navi events` lists the whole log however many pages it takes (EVENTS_PAGE_MAX events a page), computed
 * here and asked of a running Navi: every event once, newest first, including a run of events with the
 * same time across the end of the first page (the next page starts before that time: events-page.ts).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createEventLog } from '../../electron/engine/adapters/event-log.ts'
import { EVENTS_PAGE_MAX } from '../../shared/events-page-size.ts'
import { engineEventSchema, type EngineEvent } from '../../shared/schemas/event.ts'
import { createNaviEnv, runNavi, startNaviWatch, type NaviEnv } from '../support/navi-cli.ts'

const envs: NaviEnv[] = []

afterAll(() => {
  for (const env of envs)
    for (const dir of [env.NAVI_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME])
      rmSync(dir, { recursive: true, force: true })
})

/** `count` commits, newest last, 5 s apart, but 20 with one time where the first page ends. */
function commits(count: number, now: number): EngineEvent[] {
  const runStart = count - EVENTS_PAGE_MAX - 10
  return Array.from({ length: count }, (_, i) => {
    const step = i >= runStart && i < runStart + 20 ? runStart : i
    return engineEventSchema.parse({
      id: `page-${i}`,
      timestamp: new Date(now - (count - step) * 5_000).toISOString(),
      type: 'commit',
      project: `project-${i % 7}`,
      details: { sha: i.toString(16).padStart(40, '0'), message: `commit ${i}`, branch: 'main' },
    })
  })
}

async function listed(env: NaviEnv): Promise<string[]> {
  const run = await runNavi(['events', '--json'], env)
  expect(run.exitCode, run.stderr).toBe(0)
  return (run.json as { events: EngineEvent[] }).events.map((e) => e.id)
}

describe('navi events over more than one page', () => {
  it('lists every event once, newest first, computed here and asked of a running Navi', async () => {
    const env = await createNaviEnv()
    envs.push(env)
    const count = EVENTS_PAGE_MAX + 100
    const events = commits(count, Date.now())
    const log = createEventLog(join(env.NAVI_HOME, 'pm', 'events.jsonl'))
    await log.append(events)
    await log.close()
    // Newest first; those of one time in the order the log holds them, newest written first.
    const expected = events
      .map((e, at) => ({ id: e.id, ms: Date.parse(e.timestamp), at }))
      .sort((a, b) => b.ms - a.ms || b.at - a.at)
      .map((e) => e.id)

    const here = await listed(env)
    expect(here).toHaveLength(count)
    expect(new Set(here).size).toBe(count)
    expect(here).toEqual(expected)

    const watch = await startNaviWatch(env, 60_000)
    try {
      expect(await listed(env)).toEqual(here)
    } finally {
      expect((await watch.stop()).exitCode).toBe(0)
    }
  })
})
