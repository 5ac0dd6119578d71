/**
 * Node built-ins that load others with them, required at their first use instead of at start-up:
 * `child_process` brings `net` and `dgram`, `net` the socket streams. A `navi status` that spawns nothing
 * and finds no Navi to ask never pays for them (each one-shot command loads the engine, and the built-ins
 * it loads are compiled on every run).
 */
import { createRequire } from 'node:module'

type ChildProcess = typeof import('node:child_process')
type Net = typeof import('node:net')

const load = createRequire(import.meta.url)
let childProcessModule: ChildProcess | undefined
let netModule: Net | undefined

/** `node:child_process`, loaded on the first call. */
export function childProcess(): ChildProcess {
  childProcessModule ??= load('node:child_process') as ChildProcess
  return childProcessModule
}

/** `node:net`, loaded on the first call. */
export function net(): Net {
  netModule ??= load('node:net') as Net
  return netModule
}
