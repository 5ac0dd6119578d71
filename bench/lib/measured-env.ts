/**
 * The environment of a process a benchmark times. Node 20 (OpenSSL 3) parses the bundle named by
 * NODE_EXTRA_CA_CERTS at every start, before any code runs (nodejs/node#40524): on the benchmark machine,
 * whose sandbox sets it for its registry proxy, that is 30 ms of every Node process, more than a bare
 * `node -e 0` costs without it (19 ms). No process measured here opens a TLS connection, and few users'
 * shells set it, so every process of a comparison (Navi, ccusage, bare node alike) runs without it; the
 * downloads a benchmark makes (npm) keep it. `NAVI_BENCH_KEEP_ENV=1` measures with the environment as
 * inherited.
 */
const DROPPED = ['NODE_EXTRA_CA_CERTS'] as const

const keepInherited = (): boolean => process.env.NAVI_BENCH_KEEP_ENV === '1'

/** `process.env` without what only slows every Node start down, and `extra` on top. */
export function measuredEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  if (!keepInherited()) for (const name of DROPPED) delete env[name]
  // A benchmark names the runtime that answers each row: no command starts one behind its back.
  return { ...env, NAVI_BACKGROUND: '0', ...extra }
}

/** What `measuredEnv` left out of this run's environment (recorded with every result). */
export function droppedFromMeasuredEnv(): string[] {
  return keepInherited() ? [] : DROPPED.filter((name) => process.env[name] !== undefined)
}

/** One line for a benchmark's output, or null when nothing was left out. */
export function measuredEnvNote(): string | null {
  const dropped = droppedFromMeasuredEnv()
  return dropped.length === 0
    ? null
    : `measured processes run without ${dropped.join(', ')} (set here; each Node start parses it: lib/measured-env.ts)`
}
