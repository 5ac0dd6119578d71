/**
 * The checks Navi makes on a pane's screen before it types into it (engine/core/tmux-dialog.ts), on
 * screens as claude 2.1.331 and 2.1.197 and codex 0.169 drew them in tmux (`capture-pane -p`, observed;
 * shortened rules and paths).
 */
import { describe, expect, it } from 'vitest'
import {
  dialogShowsRequest,
  keyFor,
  readPermissionDialog,
  readyForInput,
  typedLine,
} from '../../electron/engine/core/tmux-dialog.ts'
import type { PendingRequest } from '../../shared/schemas/session.ts'

const RULE = '╌'.repeat(60)
const LONG_COMMAND =
  'echo word000 word001 word002 word003 word004 word005 word006 word007 word008 word009 > /tmp/out/long.txt'

const bash331 = [
  '❯ please create the marker file',
  '',
  '─'.repeat(60),
  ' Bash command',
  ' Tip: auto mode handles these prompts for you — choose "switch to auto mode" below',
  ' Create a marker file',
  RULE,
  ' │ echo word000 word001 word002 word003 word004',
  ' │ word005 word006 word007 word008 word009 >',
  ' │ /tmp/out/long.txt',
  RULE,
  ' Do you want to proceed?',
  ' ❯ 1. Yes',
  '   2. Yes, and always allow access to /tmp/out from this project',
  '   3. Yes, and switch to auto mode · auto mode handles these prompts for you',
  '   4. No',
  '',
  ' Esc to cancel · Tab to amend',
].join('\n')

const bash197 = [
  '● Bash(touch /tmp/x/marker.txt)',
  '  ⎿  Waiting…',
  '─'.repeat(60),
  ' Bash command',
  '   touch /tmp/x/marker.txt',
  '   Create a marker file',
  ' Do you want to proceed?',
  ' ❯ 1. Yes',
  '   2. Yes, and always allow access to x/ from this project',
  '   3. No',
  ' Esc to cancel · Tab to amend · ctrl+e to explain',
].join('\n')

const write331 = [
  ' Create file',
  ' inter.md',
  RULE,
  '  1 # hi',
  RULE,
  ' Do you want to create inter.md?',
  ' ❯ 1. Yes',
  '   2. Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)',
  '   3. No',
  '',
  ' Esc to cancel · Tab to amend',
].join('\n')

const idle331 = [
  '● Marked.',
  '',
  '─'.repeat(60),
  '❯ ',
  '─'.repeat(60),
  '  ⏸ manual mode on · ? for shortcuts',
].join('\n')

const codexDialog = [
  '› write the marker',
  '',
  '• Running echo ran > /tmp/navi-marker',
  '',
  '  Would you like to run the following command?',
  '',
  '  Environment: local',
  '',
  '  Reason: Write the marker outside the workspace',
  '',
  '  $ echo ran > /tmp/navi-marker',
  '',
  '› 1. Yes, proceed (y)',
  "  2. Yes, and don't ask again for commands that start with `echo ran > /tmp/navi-marker` (p)",
  '  3. No, and tell Codex what to do differently (esc)',
  '',
  '  Press enter to confirm or esc to cancel',
].join('\n')

const codexIdle = [
  '› write the marker',
  '',
  '• done',
  '',
  '› Ask Codex to do anything',
  '',
  '  gpt-fake-1 default · /tmp/repo',
  '  ← for agents · ? for shortcuts',
].join('\n')

const request = (tool: string, detail: string): PendingRequest => ({
  tool,
  detail,
  description: null,
  since: null,
  request_id: 'Req0000001',
  input_digest: '0123456789abcdef',
  answer_until: null,
})

describe('readPermissionDialog', () => {
  it('reads the 2.1.331 dialog: question, options, the wrapped command rejoined', () => {
    const dialog = readPermissionDialog(bash331)
    expect(dialog?.question).toBe('Do you want to proceed?')
    expect(dialog?.options.map((o) => o.n)).toEqual([1, 2, 3, 4])
    expect(dialogShowsRequest(dialog!, request('Bash', LONG_COMMAND))).toBe(true)
    expect(keyFor(dialog!, 'allow')).toBe('1')
    expect(keyFor(dialog!, 'deny')).toBe('4')
  })

  it('reads the 2.1.197 dialog (three options) and a Write dialog (the file by its base name)', () => {
    const old = readPermissionDialog(bash197)!
    expect(dialogShowsRequest(old, request('Bash', 'touch /tmp/x/marker.txt'))).toBe(true)
    expect(keyFor(old, 'deny')).toBe('3')
    const write = readPermissionDialog(write331)!
    expect(dialogShowsRequest(write, request('Write', '/home/u/proj/inter.md'))).toBe(true)
    expect(keyFor(write, 'allow')).toBe('1')
    expect(keyFor(write, 'deny')).toBe('3')
  })

  it("reads codex 0.169's dialog: the command below the question, each option's shortcut", () => {
    const dialog = readPermissionDialog(codexDialog)!
    expect(dialog.question).toBe('Would you like to run the following command?')
    expect(dialog.options.map((o) => o.key)).toEqual(['y', 'p', 'esc'])
    expect(dialogShowsRequest(dialog, request('Bash', 'echo ran > /tmp/navi-marker'))).toBe(true)
    expect(dialogShowsRequest(dialog, request('Bash', 'echo ran > /tmp/other'))).toBe(false)
    // Its shortcut answers at once ("don't ask again" is never chosen for the user).
    expect(keyFor(dialog, 'allow')).toBe('y')
    expect(keyFor(dialog, 'deny')).toBe('Escape')
  })

  it('refuses a dialog for another call, and a request Navi knows too little of', () => {
    const dialog = readPermissionDialog(bash331)!
    expect(dialogShowsRequest(dialog, request('Bash', 'rm -rf /'))).toBe(false)
    expect(dialogShowsRequest(dialog, request('Bash', ''))).toBe(false)
    expect(dialogShowsRequest(dialog, request('Bash', 'ec'))).toBe(false)
    // A detail Navi cut short matches up to the cut.
    expect(dialogShowsRequest(dialog, request('Bash', 'echo word000 word001 word0…'))).toBe(true)
  })

  it('sees no dialog on a prompt, or one not fully drawn (no footer yet)', () => {
    expect(readPermissionDialog(idle331)).toBeNull()
    expect(readPermissionDialog(bash331.split('\n').slice(0, -2).join('\n'))).toBeNull()
  })

  it('takes the last question on screen: a command that prints the question is not the dialog', () => {
    const tricky = ['  ⎿  Do you want to proceed?', '  ⎿  1. Yes', bash197].join('\n')
    expect(readPermissionDialog(tricky)?.options).toHaveLength(3)
  })
})

describe('readyForInput', () => {
  it('is true at the prompt, false on a dialog or while a turn runs', () => {
    expect(readyForInput(idle331)).toBe(true)
    expect(readyForInput(bash331)).toBe(false)
    expect(readyForInput(`${idle331}\n  esc to interrupt`)).toBe(false)
    expect(readyForInput('')).toBe(false)
  })

  it("reads codex's prompt (`›`), and not a dialog's selected option as one", () => {
    expect(readyForInput(codexIdle)).toBe(true)
    expect(readyForInput(codexDialog)).toBe(false)
    expect(readyForInput(`${codexIdle}\n• Working (3s • esc to interrupt)`)).toBe(false)
  })
})

describe('typedLine', () => {
  it('keeps a reply to one line with no control character (no early Enter, no escape)', () => {
    expect(typedLine('  use\nmake clean\r\u001b[2J\u0003 please ')).toBe(
      'use make clean [2J please',
    )
  })
})
