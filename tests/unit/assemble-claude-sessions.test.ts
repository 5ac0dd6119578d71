/**
 * `assembleClaudeSessions` as a table: which sources make a session, and which source wins for each field.
 * Transcripts are folded from lines, as the engine folds them; live files and hook states are plain records.
 */
import { describe, expect, it } from 'vitest'
import type {
  HookSessionState,
  LiveSessionRecord,
} from '../../electron/engine/core/source-records.ts'
import {
  assembleClaudeSessions,
  type ClaudeSources,
} from '../../electron/engine/core/claude-sessions.ts'
import { claudeSources, hookState, liveRecord } from '../support/claude-records.ts'
import {
  emptyTranscriptSummary,
  foldTranscriptLine,
} from '../../electron/engine/core/transcript-fold.ts'

const NOW = Date.parse('2026-11-24T12:00:00Z')
const at = (secondsAgo: number) => new Date(NOW - secondsAgo * 1000).toISOString()

function transcript(id: string, lines: Record<string, unknown>[]) {
  const summary = emptyTranscriptSummary(id, `/c/projects/-p/${id}.jsonl`)
  for (const line of lines) foldTranscriptLine(summary, { sessionId: id, cwd: '/p', ...line }, NOW)
  return summary
}
const prompt = (text: string, secondsAgo: number, extra = {}) => ({
  type: 'user',
  timestamp: at(secondsAgo),
  gitBranch: 'main',
  message: { role: 'user', content: text },
  ...extra,
})
const reply = (text: string, secondsAgo: number) => ({
  type: 'assistant',
  timestamp: at(secondsAgo),
  message: {
    id: `m-${secondsAgo}`,
    role: 'assistant',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 10, output_tokens: 5 },
  },
})

const live = (over: Partial<LiveSessionRecord>) =>
  liveRecord(NOW, { cwd: '/p', name: null, ...over })
const hook = (over: Partial<HookSessionState>) =>
  hookState(NOW, {
    cwd: '/p',
    lastEvent: 'UserPromptSubmit',
    lastEventAt: at(2),
    agentPid: null,
    ...over,
  })

const sources = (over: Partial<ClaudeSources>) => claudeSources(NOW, over)

const finished = () => transcript('s1', [prompt('fix the parser', 120), reply('fixed', 100)])

describe('assembleClaudeSessions', () => {
  it.each<[string, Partial<ClaudeSources>, Record<string, unknown> | null]>([
    [
      'a transcript with no live file (the CLI keeps them) is an ended session',
      { transcripts: [finished()] },
      {
        id: 's1',
        status: 'ended',
        pid: null,
        branch: 'main',
        last_prompt: 'fix the parser',
        turns: 1,
      },
    ],
    [
      'a live file of a running process makes it live, named by the live file',
      { transcripts: [finished()], live: [live({ name: 'parser-work' })] },
      { status: 'idle', pid: 42, name: 'parser-work', status_source: 'live' },
    ],
    [
      'a live file whose process is gone is ended',
      { transcripts: [finished()], live: [live({ alive: false, status: 'busy' })] },
      { status: 'ended', pid: null },
    ],
    [
      'a permission prompt the live file reports needs the user, with its words',
      {
        transcripts: [finished()],
        live: [live({ status: 'waiting', waitingFor: 'permission prompt' })],
      },
      { status: 'needs_permission', status_source: 'live' },
    ],
    [
      'a dialog with no tool call in flight is a question, not a permission',
      { transcripts: [finished()], live: [live({ status: 'waiting', waitingFor: 'dialog open' })] },
      { status: 'waiting_input', status_reason: 'waiting for dialog open' },
    ],
    [
      'hooks alone (no transcript yet) make a session at the hook cwd',
      { hooks: new Map([['s1', hook({ agentPid: 42 })]]), pidAlive: new Map([[42, true]]) },
      { id: 's1', cwd: '/p', status: 'working', status_source: 'hooks', turns: 0 },
    ],
    [
      'the pane the process tree found wins over the one the live file names',
      {
        transcripts: [finished()],
        live: [live({ tmuxPane: '%9' })],
        paneOfPid: new Map([[42, { pane: '%3', socket: '/tmp/tmux-0/default' }]]),
      },
      { tmux_pane: '%3', tmux_socket: '/tmp/tmux-0/default' },
    ],
    [
      'a live file naming its pane, with no process-tree match, gives the pane without a server',
      { transcripts: [finished()], live: [live({ tmuxPane: '%9' })] },
      { tmux_pane: '%9', tmux_socket: null },
    ],
    [
      'of two live files for one session, the live one wins',
      {
        transcripts: [finished()],
        live: [
          live({ pid: 7, alive: false, startedAt: NOW - 1000, file: '/c/sessions/7.json' }),
          live({ pid: 42, alive: true, startedAt: NOW - 90_000 }),
        ],
      },
      { pid: 42 },
    ],
  ])('%s', (_name, over, expected) => {
    const sessions = assembleClaudeSessions(sources(over))
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject(expected ?? {})
  })

  it('a session known from nowhere with a cwd is not made up', () => {
    const noCwd = hook({ cwd: null })
    expect(assembleClaudeSessions(sources({ hooks: new Map([['s1', noCwd]]) }))).toEqual([])
  })

  it('tokens are the transcript’s, and a TaskCompleted hook joins the transcript’s task moves once', () => {
    const t = transcript('s1', [
      prompt('plan it', 200),
      {
        type: 'assistant',
        timestamp: at(190),
        message: {
          id: 'm-create',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'TaskCreate', input: { subject: 'Docs' } }],
          stop_reason: 'tool_use',
          usage: { input_tokens: 100, output_tokens: 20 },
        },
      },
      {
        type: 'user',
        timestamp: at(189),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }],
        },
        toolUseResult: { task: { id: '1', subject: 'Docs' } },
      },
      {
        type: 'assistant',
        timestamp: at(180),
        message: {
          id: 'm-update',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 't2',
              name: 'TaskUpdate',
              input: { taskId: '1', status: 'completed' },
            },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 50, output_tokens: 10 },
        },
      },
      {
        type: 'user',
        timestamp: at(179),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't2', content: 'ok' }],
        },
        toolUseResult: { success: true },
      },
    ])
    const completed = { task_id: '1', title: 'Docs', status: 'completed' as const, at: at(178) }
    const [session] = assembleClaudeSessions(
      sources({ transcripts: [t], hooks: new Map([['s1', hook({ taskMoves: [completed] })]]) }),
    )
    expect(session?.tokens).toMatchObject({ input: 150, output: 30, total: 180 })
    const list = session?.task_lists[0]
    expect(list?.tasks).toEqual([{ id: '1', title: 'Docs', status: 'completed' }])
    expect(list?.moves?.map((m) => [m.task_id, m.status, m.at])).toEqual([
      ['1', 'completed', at(179)],
    ])
  })
})
