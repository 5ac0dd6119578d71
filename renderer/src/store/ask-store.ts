import { create } from 'zustand'
import type { PmAnswer } from '../../../shared/schemas/ask.ts'
import { invoke } from '../lib/api.ts'

interface AskStore {
  /** The question box is shown (it takes room from the briefing only when asked for). */
  open: boolean
  /** The question being answered, or last answered. */
  question: string | null
  pending: boolean
  answer: PmAnswer | null
  /** The answer as the PM writes it (`pm:answer` pushes), until the answer is done. */
  partial: string | null
  error: string | null
  ask(question: string): Promise<void>
  /** A push of the answer so far; ignored unless it is for the question being answered. */
  progress(question: string, text: string): void
  toggle(): void
  clear(): void
}

/** The popover's question to the PM (`pm:ask`): one at a time, the last answer kept until cleared. */
export const useAskStore = create<AskStore>()((set, get) => ({
  open: false,
  question: null,
  pending: false,
  answer: null,
  partial: null,
  error: null,
  ask: async (question) => {
    const text = question.trim()
    if (text === '' || get().pending) return
    set({ question: text, pending: true, answer: null, partial: null, error: null })
    const result = await invoke('pm:ask', { question: text })
    if (!result.ok) set({ pending: false, partial: null, error: result.error.message })
    else {
      set({ pending: false, partial: null, answer: result.data.answer, error: result.data.error })
    }
  },
  progress: (question, text) => {
    const state = get()
    if (state.pending && state.question === question) set({ partial: text })
  },
  toggle: () => set({ open: !get().open }),
  clear: () =>
    set({ open: false, question: null, pending: false, answer: null, partial: null, error: null }),
}))
