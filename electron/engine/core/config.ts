/**
 * Navi's configuration once read: its defaults, the normalization of a validated `config.yaml` (paths
 * expanded, durations in ms, floors applied) and the `ignore` matcher. Pure. Reading the YAML itself is
 * config-yaml.ts, loaded only when there is a file to read (the YAML library is a tenth of a CLI start).
 */
import { isAbsolute, resolve } from 'node:path'
import { MAX_ANSWER_WAIT_SECONDS } from './hooks-settings.ts'
import picomatch from 'picomatch'
import {
  MIN_POLL_INTERVAL_MS,
  rawConfigSchema,
  ZERO_DURATION,
  type NaviConfig,
  type RawConfig,
} from '../../../shared/schemas/config.ts'
import { DURATION_HINT, parseDuration } from '../../../shared/duration.ts'
import { expandHome } from './paths.ts'

/** One problem in a configuration file, positioned for the user (1-based line and column). */
export interface ConfigError {
  file: string
  line: number
  column?: number
  message: string
}

export interface ParsedConfig {
  config: NaviConfig
  errors: ConfigError[]
}

/**
 * The defaults as the built `navi` command's build computed them with `defaultConfig` below
 * (scripts/cli-bundle.ts); not defined anywhere else.
 */
declare const __NAVI_DEFAULT_CONFIG_JSON__: string | undefined

/** The configuration of an empty file: every default is the schema's (shared/schemas/config.ts), nowhere else. */
export function defaultConfig(): NaviConfig {
  // The built command carries what its build computed from the schema: a command with no config.yaml
  // to read then never builds the config schema (2.5 ms of a warm `navi status`).
  if (typeof __NAVI_DEFAULT_CONFIG_JSON__ === 'string')
    return JSON.parse(__NAVI_DEFAULT_CONFIG_JSON__) as NaviConfig
  const invalid = (path: PathKey[], message: string) => {
    throw new Error(`config schema default ${path.join('.')}: ${message}`)
  }
  // No path in the defaults, so no home to expand them against.
  return normalize(rawConfigSchema.parse({}), '/', invalid, invalid)
}

function atLeast(floor: number, value: number, tooLow: () => void): number {
  if (value >= floor) return value
  tooLow()
  return floor
}

/** A validated configuration as Navi uses it; `report` fails the file, `warn` only tells. */
export function normalize(
  raw: RawConfig,
  home: string,
  report: (path: PathKey[], message: string) => void,
  warn: (path: PathKey[], message: string) => void,
): NaviConfig {
  const projects = raw.projects.map((p, i) => {
    const expanded = expandHome(p.path, home)
    if (!isAbsolute(expanded)) {
      report(
        ['projects', i, 'path'],
        `projects[${i}].path: '${p.path}' is relative; write an absolute path or start it with ~/`,
      )
    }
    const path = resolve(expanded)
    const tasks = p.tasks === undefined ? undefined : resolve(path, expandHome(p.tasks, home))
    return {
      path,
      ...(p.name !== undefined && { name: p.name }),
      ...(p.aliases !== undefined && { aliases: p.aliases }),
      ...(tasks && { tasks }),
    }
  })
  // The schema already refused what is not a duration; a value parseDuration still cannot read is reported
  // (and the whole file then falls back to the defaults), so the 0 below is never used.
  const duration = (path: PathKey[], value: string | number): number => {
    const ms = parseDuration(value)
    if (ms === null) report(path, `${path.join('.')}: ${DURATION_HINT}`)
    return ms ?? 0
  }
  const absoluteDir = (path: PathKey[], value: string): string => {
    const expanded = expandHome(value, home)
    if (!isAbsolute(expanded)) {
      report(
        path,
        `${path.join('.')}: '${value}' is relative; write an absolute path or start it with ~/`,
      )
    }
    return resolve(expanded)
  }
  return {
    projects,
    ignore: raw.ignore.map((glob) => expandHome(glob, home)),
    pollIntervalMs: atLeast(
      MIN_POLL_INTERVAL_MS,
      duration(['poll_interval'], raw.poll_interval),
      () =>
        warn(
          ['poll_interval'],
          `poll_interval: below the ${MIN_POLL_INTERVAL_MS / 1000}s floor; using ${MIN_POLL_INTERVAL_MS / 1000}s`,
        ),
    ),
    pm: {
      model: raw.pm.model,
      batchWindowMs: duration(['pm', 'batch_window'], raw.pm.batch_window),
      minIntervalMs: duration(['pm', 'min_interval'], raw.pm.min_interval),
      timeoutMs: duration(['pm', 'timeout'], raw.pm.timeout),
      resume: raw.pm.resume,
      claudePath: raw.pm.claude_path ? expandHome(raw.pm.claude_path, home) : null,
    },
    trouble: {
      stalledAfterMs: duration(['trouble', 'stalled_after'], raw.trouble.stalled_after),
      waitingAfterMs: duration(['trouble', 'waiting_after'], raw.trouble.waiting_after),
      repeats: raw.trouble.repeats,
    },
    tasks: {
      rules: raw.tasks.rules.map((rule, i) => ({
        keywords: rule.keywords,
        dir: absoluteDir(['tasks', 'rules', i, 'directory'], rule.directory),
        ...(rule.priority !== undefined && { priority: rule.priority }),
      })),
      defaultDir: raw.tasks.default ? absoluteDir(['tasks', 'default'], raw.tasks.default) : null,
      planKeywords: raw.tasks.plan_keywords ?? null,
      timeoutMs: duration(['tasks', 'timeout'], raw.tasks.timeout),
      heartbeatMs: duration(['tasks', 'heartbeat'], raw.tasks.heartbeat),
      maxRunning: raw.tasks.max_running,
      permissionMode: raw.tasks.permission_mode ?? null,
      allowedTools: raw.tasks.allowed_tools,
      model: raw.tasks.model ?? null,
      perProject: Object.fromEntries(
        Object.entries(raw.tasks.projects).map(([name, own]) => [
          name,
          {
            ...(own.permission_mode !== undefined && { permissionMode: own.permission_mode }),
            ...(own.allowed_tools !== undefined && { allowedTools: own.allowed_tools }),
          },
        ]),
      ),
    },
    cli: {
      backgroundIdleMs:
        raw.cli.background === 0 || ZERO_DURATION.test(String(raw.cli.background).trim())
          ? 0
          : duration(['cli', 'background'], raw.cli.background),
    },
    answering: {
      waitSeconds: Math.min(
        MAX_ANSWER_WAIT_SECONDS,
        Math.max(1, Math.round(duration(['answering', 'wait'], raw.answering.wait) / 1000)),
      ),
    },
  }
}

/** A key of a configuration path: a mapping key or a list index. */
export type PathKey = string | number

/**
 * A predicate for the `ignore` globs (already `~`-expanded). A glob `dir/**` matches `dir` itself and
 * everything inside; dot-directories match too.
 */
export function createIgnoreMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false
  const match = picomatch([...globs], { dot: true })
  return (path) => match(path) || match(path.replace(/\/+$/, ''))
}

/** True when `path` (absolute) is covered by one of the `ignore` globs. */
export function isIgnored(path: string, ignoreGlobs: readonly string[]): boolean {
  return createIgnoreMatcher(ignoreGlobs)(path)
}
