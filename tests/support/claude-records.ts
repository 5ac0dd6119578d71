/**
 * Plain records of the Claude sources, for pure tests of the status rules and of session assembly: a live
 * session file of a running `claude` and a hook state of a working session, `now`-relative, overridable;
 * and the sources of an assembly with nothing in them but what a test gives.
 */
import type { ClaudeSources } from '../../electron/engine/core/claude-sessions.ts'
import type {
  HookSessionState,
  LiveSessionRecord,
} from '../../electron/engine/core/source-records.ts'

export function liveRecord(now: number, over: Partial<LiveSessionRecord> = {}): LiveSessionRecord {
  return {
    pid: 42,
    sessionId: 's1',
    cwd: '/proj',
    startedAt: now - 60_000,
    procStart: '1',
    name: 'proj-1',
    entrypoint: 'cli',
    status: 'idle',
    waitingFor: null,
    statusUpdatedAt: now - 10_000,
    alive: true,
    file: '/c/sessions/42.json',
    ...over,
  }
}

export function hookState(now: number, over: Partial<HookSessionState> = {}): HookSessionState {
  const at = (secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString()
  return {
    sessionId: 's1',
    agent: 'claude',
    cwd: '/proj',
    transcriptPath: null,
    lastEvent: 'PreToolUse',
    lastEventAt: at(1),
    message: null,
    notificationType: null,
    toolName: null,
    toolDetail: null,
    toolDescription: null,
    lastDenial: null,
    agentPid: 42,
    ended: false,
    endReason: null,
    startedAt: at(60),
    taskMoves: [],
    requestId: null,
    inputDigest: null,
    stopFailure: null,
    ...over,
  }
}

export function claudeSources(now: number, over: Partial<ClaudeSources> = {}): ClaudeSources {
  return {
    transcripts: [],
    live: [],
    hooks: new Map(),
    taskLists: [],
    liveFilesSupported: true,
    pidAlive: new Map(),
    paneOfPid: new Map(),
    now,
    ...over,
  }
}
