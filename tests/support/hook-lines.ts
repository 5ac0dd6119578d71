/**
 * The hook inbox as a running Navi would have it: the handler's spool drained into it first (as the engine
 * does at the start of every cycle), then its lines. For tests that run the real claude with Navi's hooks.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { drainHookSpool } from '../../electron/engine/adapters/hook-spool.ts'

export async function drainedHookText(naviHome: string): Promise<string> {
  const hooks = join(naviHome, 'hooks')
  await drainHookSpool(join(hooks, 'spool'), join(hooks, 'events.jsonl'))
  return readFile(join(hooks, 'events.jsonl'), 'utf8').catch(() => '')
}

export async function drainedHookLines(naviHome: string): Promise<Record<string, unknown>[]> {
  return (await drainedHookText(naviHome))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}
