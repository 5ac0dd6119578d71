import * as z from 'zod'
import { DURATION_HINT, DURATION_PATTERN, parseDuration } from '../duration.ts'
import { lazySchema } from './lazy-schema.ts'

/** `0`, `0s`, `0.0ms`…: a duration of nothing. */
export const ZERO_DURATION = /^0+(\.0+)?\s*(ms|s|m|h)?$/

/** A duration such as `30s`, `2m`, `1h` or a number of seconds. */
export const durationSchema = lazySchema(() =>
  z.union([
    z.number().positive(),
    z
      .string()
      .regex(DURATION_PATTERN, DURATION_HINT)
      .refine((value) => !ZERO_DURATION.test(value), 'expected a duration longer than 0'),
  ]),
)

/**
 * The safety-net poll re-lists every source; more often than this only burns CPU (a 1 ms poll took 92 % of
 * a core), since the watchers already notice changes within a second. @default 1 s
 */
export const MIN_POLL_INTERVAL_MS = 1_000

/** `poll_interval`: a duration of at least `MIN_POLL_INTERVAL_MS`. */
export const pollIntervalSchema = lazySchema(() =>
  durationSchema.refine(
    (value) => (parseDuration(value) ?? 0) >= MIN_POLL_INTERVAL_MS,
    `expected a poll interval of at least ${MIN_POLL_INTERVAL_MS / 1000}s`,
  ),
)

/** A duration, or zero (`0`, `'0s'`) where zero means "at once". */
export const durationOrZeroSchema = lazySchema(() =>
  z.union([z.literal(0), z.string().regex(ZERO_DURATION), durationSchema]),
)

export const registeredProjectSchema = lazySchema(() =>
  z
    .object({
      path: z.string().min(1),
      name: z.string().min(1).optional(),
      /** Other names a delegated task may call the project by (`navi run "… in the site"`). */
      aliases: z.array(z.string().min(1)).optional(),
      /** Markdown checklist, relative to the project (or absolute): `- [ ]` items, `##` headings are PBIs. */
      tasks: z.string().min(1).optional(),
    })
    .strict(),
)

/** The PM's settings (docs/pm.md): which model, how runs are batched, how long one may take. */
export const pmSettingsSchema = lazySchema(() =>
  z
    .object({
      /** Model alias or id passed to `claude --model`. */
      model: z.string().min(1).default('sonnet'),
      /** Runs wait this long after the first trigger of a burst, to take the rest with them. */
      batch_window: durationSchema.default('2m'),
      /** Least time between two automatic runs. */
      min_interval: durationSchema.default('5m'),
      /** A run still going after this is killed. */
      timeout: durationSchema.default('5m'),
      /** Resume one PM session (`--resume`) instead of a fresh session per run. */
      resume: z.boolean().default(false),
      /** Path of the `claude` binary; default: NAVI_CLAUDE_BIN, then PATH and the usual install places. */
      claude_path: z.string().min(1).optional(),
    })
    .strict(),
)

/** When a session counts as in trouble (engine/core/trouble.ts): stalled, waiting, looping. */
export const troubleSettingsSchema = lazySchema(() =>
  z
    .object({
      /** A working session with no transcript progress for this long is stalled. */
      stalled_after: durationSchema.default('10m'),
      /** A session waiting on its user (a permission, a question) for this long. */
      waiting_after: durationSchema.default('15m'),
      /** The same shell command failing (or run) this many times in a row; API retries likewise. */
      repeats: z.number().int().min(2).max(100).default(3),
    })
    .strict(),
)

/** Answering agents from Navi (engine/core/answer-rules.ts, resources/hooks/navi-hook.sh). */
export const answeringSettingsSchema = lazySchema(() =>
  z
    .object({
      /**
       * How long Navi's PermissionRequest hook waits for an answer from Navi, when the user opted in (away,
       * or for that session); then the agent's own dialog decides. At most 10m (the hook caps it).
       */
      wait: durationSchema.default('5m'),
    })
    .strict(),
)

/** Delegated tasks (electron/tasks/): where they run, when they plan, how long and how many. */
export const tasksSettingsSchema = lazySchema(() =>
  z
    .object({
      /** Keyword rules checked against a task's text (lower priority first; project names rank 3). */
      rules: z
        .array(
          z
            .object({
              keywords: z.array(z.string().min(1)).min(1),
              directory: z.string().min(1),
              priority: z.number().int().min(0).max(100).optional(),
            })
            .strict(),
        )
        .default([]),
      /** Where a task that names no project and matches no rule runs; absent: Navi asks. */
      default: z.string().min(1).optional(),
      /** A task with one of these words (outside quotes) plans first. */
      plan_keywords: z.array(z.string().min(1)).optional(),
      /** A run still going after this is ended (SIGTERM to its process group, then SIGKILL). */
      timeout: durationSchema.default('1h'),
      /** A running task relays "still working, 15m" this often. */
      heartbeat: durationSchema.default('5m'),
      /** Tasks running at once, across projects (one per project directory, always). */
      max_running: z.number().int().min(1).max(20).default(2),
      /** `--permission-mode` for every task; absent: the agent's own default (the user's settings). */
      permission_mode: z.enum(['default', 'acceptEdits', 'plan', 'dontAsk', 'auto']).optional(),
      /** Tools a task may use without asking (`--allowedTools`), e.g. `Edit`, `Bash(npm test)`. */
      allowed_tools: z.array(z.string().min(1)).default([]),
      /** `--model` for every task; absent: the agent's default. */
      model: z.string().min(1).optional(),
      /** Per project (by name): its own permission mode and allowed tools, over the ones above. */
      projects: z
        .record(
          z.string(),
          z
            .object({
              permission_mode: z
                .enum(['default', 'acceptEdits', 'plan', 'dontAsk', 'auto'])
                .optional(),
              allowed_tools: z.array(z.string().min(1)).optional(),
            })
            .strict(),
        )
        .default({}),
    })
    .strict(),
)

/** The `navi` command itself (electron/cli/). */
export const cliSettingsSchema = lazySchema(() =>
  z
    .object({
      /**
       * A read-only command (`status`, `sessions`, `events`) that had to compute its answer starts a
       * background runtime, which answers the next ones in a socket round trip and exits after this long
       * without a question (electron/cli/background.ts). 0: none is started.
       */
      background: durationOrZeroSchema.default('30m'),
    })
    .strict(),
)

/** `$NAVI_HOME/config.yaml` as written by the user. */
export const rawConfigSchema = lazySchema(() =>
  z
    .object({
      projects: z.array(registeredProjectSchema).default([]),
      ignore: z.array(z.string()).default([]),
      poll_interval: durationSchema.default('30s'),
      pm: pmSettingsSchema.default(pmSettingsSchema.parse({})),
      trouble: troubleSettingsSchema.default(troubleSettingsSchema.parse({})),
      answering: answeringSettingsSchema.default(answeringSettingsSchema.parse({})),
      tasks: tasksSettingsSchema.default(tasksSettingsSchema.parse({})),
      cli: cliSettingsSchema.default(cliSettingsSchema.parse({})),
    })
    .strict(),
)
export type RawConfig = z.infer<typeof rawConfigSchema>

/** Configuration after `~` expansion and unit conversion. */
export interface NaviConfig {
  projects: { path: string; name?: string; aliases?: string[]; tasks?: string }[]
  ignore: string[]
  pollIntervalMs: number
  pm: PmSettings
  trouble: { stalledAfterMs: number; waitingAfterMs: number; repeats: number }
  /** Whole seconds, 1 to 600. */
  answering: { waitSeconds: number }
  tasks: TaskSettings
  /** `backgroundIdleMs`: 0 when no background runtime is started. */
  cli: { backgroundIdleMs: number }
}

export interface TaskSettings {
  rules: { keywords: string[]; dir: string; priority?: number }[]
  /** Absolute; null: ask. */
  defaultDir: string | null
  /** null: the built-in list (electron/tasks/core/relay.ts). */
  planKeywords: string[] | null
  timeoutMs: number
  heartbeatMs: number
  maxRunning: number
  permissionMode: string | null
  allowedTools: string[]
  model: string | null
  /** By project name: what overrides `permissionMode` and `allowedTools` there. */
  perProject: Record<string, { permissionMode?: string; allowedTools?: string[] }>
}

export interface PmSettings {
  model: string
  batchWindowMs: number
  minIntervalMs: number
  timeoutMs: number
  resume: boolean
  claudePath: string | null
}
