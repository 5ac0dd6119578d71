import { pmAskResultSchema, pmQuestionSchema } from './schemas/ask.ts'
import { suggestionSchema } from './schemas/suggestion.ts'
import {
  answeringStateSchema,
  sessionAnswerInputSchema,
  sessionReplyInputSchema,
} from './schemas/answer.ts'
import * as z from 'zod'
import { IPC_CHANNEL_NAMES, PUSH_CHANNEL_NAMES } from './channel-names.ts'
import { EVENTS_PAGE_MAX } from './events-page-size.ts'
import { briefingStateSchema, pmRunStatusSchema } from './schemas/briefing.ts'
import { engineEventSchema } from './schemas/event.ts'
import { engineStateSchema } from './schemas/state.ts'
import { settingPatchSchema, settingsSchema } from './schemas/settings.ts'
import { sessionsOutputSchema } from './schemas/cli.ts'
import {
  taskActResultSchema,
  taskPreviewSchema,
  taskReplyInputSchema,
  taskSchema,
  taskStartInputSchema,
} from './schemas/task.ts'

/** One external tool Navi needs, and how to get it when it is missing. */
export const toolStatusSchema = z.object({
  name: z.enum(['claude', 'git', 'tmux', 'gh']),
  found: z.boolean(),
  path: z.string().nullable(),
  /** Set when missing: one line saying how to install it. */
  fix: z.string().nullable(),
})
export type ToolStatus = z.infer<typeof toolStatusSchema>

/** The briefing zone's whole state: the last briefing, and the run in progress if there is one. */
export const briefingViewSchema = z.object({
  state: briefingStateSchema,
  running: pmRunStatusSchema.nullable(),
})
export type BriefingView = z.infer<typeof briefingViewSchema>

export const eventsPageInputSchema = z.object({
  /** Newest first; at most this many. @default 200 */
  limit: z.number().int().min(1).max(EVENTS_PAGE_MAX).default(200),
  /** Only events strictly older than this ISO timestamp (the previous page's last one). */
  before: z.string().optional(),
  /** Only events at or after this ISO timestamp (`navi events --since 2h`). */
  since: z.string().optional(),
  project: z.string().optional(),
})
export const eventsPageSchema = z.object({
  events: z.array(engineEventSchema),
  has_more: z.boolean(),
})
export type EventsPage = z.infer<typeof eventsPageSchema>

/** What a command that may not be possible here answers: done, or why not. */
export const commandResultSchema = z.object({ done: z.boolean(), message: z.string() })
export type CommandResult = z.infer<typeof commandResultSchema>

/**
 * One typed contract for both transports (Electron IPC and `navi serve`'s HTTP + SSE). Channels are
 * `domain:verb`; each maps to its input and output schemas. Queries read, commands act.
 */
export const ipcContract = {
  // queries
  'state:get': { input: z.void(), output: engineStateSchema },
  'events:list': { input: eventsPageInputSchema, output: eventsPageSchema },
  /** Every session of the last cycle with its project (`all`: ended ones too). */
  'sessions:list': {
    input: z.object({ all: z.boolean().default(false) }),
    output: sessionsOutputSchema,
  },
  'briefing:get': { input: z.void(), output: briefingViewSchema },
  'settings:get': { input: z.void(), output: settingsSchema },
  'tools:get': { input: z.void(), output: z.array(toolStatusSchema) },
  /** Navi's rule suggestions and the PM's, with their evidence, less the dismissed ones. */
  'suggestions:list': { input: z.void(), output: z.array(suggestionSchema) },
  /** Delegated tasks, newest first. */
  'tasks:list': { input: z.void(), output: z.array(taskSchema) },
  /** Where a task's text would run, and whether it would plan first (nothing is started). */
  'task:preview': {
    input: z.object({ text: z.string().max(20_000) }),
    output: taskPreviewSchema,
  },
  // commands
  'briefing:refresh': { input: z.void(), output: commandResultSchema },
  /** A question to the PM, answered from the day's events, the projects and its memory. */
  'pm:ask': { input: pmQuestionSchema, output: pmAskResultSchema },
  /** Hides an attention item of the briefing: for `snooze_minutes`, or while the PM lists it. */
  'attention:dismiss': {
    input: z.object({
      project: z.string(),
      title: z.string(),
      snooze_minutes: z
        .number()
        .int()
        .min(1)
        .max(7 * 24 * 60)
        .optional(),
    }),
    output: commandResultSchema,
  },
  'settings:set': { input: settingPatchSchema, output: settingsSchema },
  'hooks:install': { input: z.void(), output: commandResultSchema },
  'session:focus': {
    input: z.object({ session_id: z.string().min(1) }),
    output: commandResultSchema,
  },
  /**
   * Allow or deny one pending permission request, named by its id, tool and input digest (a stale or
   * changed one is refused). Goes through Navi's waiting hook.
   */
  'session:answer': { input: sessionAnswerInputSchema, output: commandResultSchema },
  /** A reply typed at the prompt of a session that waits on its user (tmux only: checked first). */
  'session:reply': { input: sessionReplyInputSchema, output: commandResultSchema },
  /** Whether Navi's hook waits for answers from Navi: away (every session) or single sessions. */
  'answering:get': { input: z.void(), output: answeringStateSchema },
  /** Away mode on or off (no session_id), or one session's opt-in. */
  'answering:set': {
    input: z.object({ session_id: z.string().min(1).max(128).optional(), on: z.boolean() }),
    output: answeringStateSchema,
  },
  /** Delegates a task to a headless agent in the project the resolver (or the user) picks. */
  'task:start': { input: taskStartInputSchema, output: taskActResultSchema },
  /** The answer to a task's question, or to its plan (approve / reject / a question about it). */
  'task:reply': { input: taskReplyInputSchema, output: taskActResultSchema },
  'task:cancel': {
    input: z.object({ id: z.string().min(1).max(40) }),
    output: taskActResultSchema,
  },
  /** Esc: the tray hides its popover; a browser tab has nothing to hide and answers done: false. */
  'popover:hide': { input: z.void(), output: commandResultSchema },
} as const

export const pushChannels = {
  'state:changed': engineStateSchema,
  'events:appended': z.array(engineEventSchema),
  'briefing:changed': briefingViewSchema,
  'pm:status': pmRunStatusSchema,
  /** The answer to a question as the PM writes it (the popover shows it until the answer is done). */
  'pm:answer': z.object({ question: z.string(), text: z.string() }),
  /** A delegated task changed (its status, a note it relayed, its usage). */
  'task:changed': taskSchema,
  /** The shell asks the popover to show a view: a clicked notification's project, or Settings from the menu. */
  'popover:navigate': z.object({
    view: z.enum(['overview', 'project', 'settings', 'tasks']),
    project: z.string().optional(),
  }),
} as const

export type IpcChannel = keyof typeof ipcContract
export type IpcInput<C extends IpcChannel> = z.input<(typeof ipcContract)[C]['input']>
export type IpcOutput<C extends IpcChannel> = z.infer<(typeof ipcContract)[C]['output']>
export type PushChannel = keyof typeof pushChannels
export type PushPayload<C extends PushChannel> = z.infer<(typeof pushChannels)[C]>

export const ipcChannels: readonly IpcChannel[] = IPC_CHANNEL_NAMES

// The preload's zod-free lists name exactly the contract's channels (a compile error otherwise).
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const ipcNamesMatch: SameKeys<(typeof IPC_CHANNEL_NAMES)[number], IpcChannel> = true
const pushNamesMatch: SameKeys<(typeof PUSH_CHANNEL_NAMES)[number], PushChannel> = true
void [ipcNamesMatch, pushNamesMatch]

/** The envelope every call returns: handlers never throw across the bridge. */
export type IpcResult<T> =
  { ok: true; data: T } | { ok: false; error: { code: string; message: string } }

/** What the preload exposes as `window.api`, derived from the contract so drift fails typecheck. */
export interface RendererApi {
  invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcResult<IpcOutput<C>>>
  on<C extends PushChannel>(channel: C, listener: (payload: PushPayload<C>) => void): () => void
}

/** Server-side implementation of every channel: one object, used by IPC and by HTTP alike. */
export type ContractHandlers = {
  [C in IpcChannel]: (input: z.infer<(typeof ipcContract)[C]['input']>) => Promise<IpcOutput<C>>
}
