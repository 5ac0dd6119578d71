/** Which codex process runs which thread, from what Navi's hooks saw. Pure. */
import type { HookSessionState } from './source-records.ts'

/**
 * The live codex process of each thread, as its hooks named it. One process can run several threads in
 * turn (`/new`, `/resume`): the thread that most recently ran a hook there owns it, so a reply or "Go to
 * session" never reaches another thread than the one shown.
 */
export function codexProcessOfThreads(
  states: ReadonlyMap<string, HookSessionState>,
  pidAlive: ReadonlyMap<number, boolean>,
): Map<string, number> {
  const latestByPid = new Map<number, HookSessionState>()
  for (const state of states.values()) {
    if (state.agent !== 'codex' || state.agentPid === null || !pidAlive.get(state.agentPid))
      continue
    const held = latestByPid.get(state.agentPid)
    if (!held || state.lastEventAt > held.lastEventAt) latestByPid.set(state.agentPid, state)
  }
  return new Map([...latestByPid].map(([pid, state]) => [state.sessionId, pid]))
}
