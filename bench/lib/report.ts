/** Shared by every benchmark: statistics, a plain-text table, the results folder, argv helpers. */
import { mkdir, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { droppedFromMeasuredEnv } from './measured-env.ts'

export const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url))

/** Nearest-rank percentile (p in 0..100) of `values`; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length) - 1
  return sorted[Math.max(0, Math.min(sorted.length - 1, rank))] ?? Number.NaN
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length
}

/** Rounds to `digits` decimals, keeping JSON free of float noise. */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

export const mib = (bytes: number): number => bytes / 1024 / 1024

/** Prints a title and aligned rows under a header. */
export function printTable(title: string, header: string[], rows: (string | number)[][]): void {
  const text = (v: string | number) => (typeof v === 'number' ? formatNumber(v) : v)
  const cells = [header, ...rows].map((row) => row.map(text))
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)))
  // Numbers right-aligned, text left-aligned; a header follows its column.
  const numeric = header.map((_, i) => rows.some((row) => typeof row[i] === 'number'))
  console.log(`\n${title}`)
  for (const [r, row] of cells.entries()) {
    const line = row.map((cell, i) =>
      numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
    )
    console.log(line.join('  ').trimEnd())
    if (r === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  }
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  if (Number.isInteger(value)) return String(value)
  // Below 1, three decimals: a warm start's 0.115 s is not 0.12, nor its ratio 0.105 0.11.
  const size = Math.abs(value)
  return value.toFixed(size >= 100 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3)
}

/** Writes `bench/results/<name>.json` and returns its path. */
export async function writeResult(name: string, data: unknown): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true })
  const file = resolve(RESULTS_DIR, `${name}.json`)
  const stamped = { measuredAt: new Date().toISOString(), ...machineInfo(), ...(data as object) }
  await writeFile(file, `${JSON.stringify(stamped, null, 2)}\n`)
  console.log(`\nwritten: ${file}`)
  return file
}

export function machineInfo() {
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    // Variables of this environment the measured processes ran without (lib/measured-env.ts).
    unsetForMeasuredProcesses: droppedFromMeasuredEnv(),
  }
}

/** True when the module at `url` is the script being run (`node bin/run-ts.mjs bench/x.ts`). */
export function isMain(url: string): boolean {
  const entry = process.argv[1]
  return entry !== undefined && resolve(entry) === fileURLToPath(url)
}

export function hasFlag(args: readonly string[], flag: string): boolean {
  return args.includes(flag)
}

/** The number after `--name` (`--name 5` or `--name=5`), or `fallback`. */
export function numberOption(args: readonly string[], name: string, fallback: number): number {
  const inline = args.find((a) => a.startsWith(`--${name}=`))
  const raw = inline ? inline.slice(name.length + 3) : args[args.indexOf(`--${name}`) + 1]
  if (!inline && !args.includes(`--${name}`)) return fallback
  const value = Number(raw)
  if (!Number.isFinite(value)) throw new Error(`--${name} expects a number, got "${raw}"`)
  return value
}

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))

export { createRandom } from '../../tests/support/seeded-random.ts'
