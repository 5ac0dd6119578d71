/**
 * The contract's channel names as plain data, without zod: the sandboxed preload (which cannot load
 * packages) checks every call against them. `ipc-contract.ts` fails to typecheck if they drift.
 */
export const IPC_CHANNEL_NAMES = [
  'state:get',
  'events:list',
  'sessions:list',
  'briefing:get',
  'settings:get',
  'tools:get',
  'briefing:refresh',
  'pm:ask',
  'attention:dismiss',
  'settings:set',
  'hooks:install',
  'session:focus',
  'suggestions:list',
  'session:answer',
  'session:reply',
  'answering:get',
  'answering:set',
  'popover:hide',
  'tasks:list',
  'task:preview',
  'task:start',
  'task:reply',
  'task:cancel',
] as const

export const PUSH_CHANNEL_NAMES = [
  'state:changed',
  'events:appended',
  'briefing:changed',
  'pm:status',
  'pm:answer',
  'task:changed',
  'popover:navigate',
] as const
