import { useState } from 'react'
import { settingPatchSchema, type SettingPatch } from '../../../shared/schemas/settings.ts'
import { useSettingsStore } from '../store/settings-store.ts'

type TextKey =
  | 'commit_group_window'
  | 'poll_interval'
  | 'batch_window'
  | 'model'
  | 'claude_path'
  | 'global_shortcut'

interface Props {
  name: TextKey
  label: string
  value: string | number | undefined
  placeholder?: string
}

/** Whether the contract lets `name` be removed (null: back to config.yaml) rather than only changed. */
const clearable = (name: TextKey) => settingPatchSchema.safeParse({ [name]: null }).success

/**
 * A text setting, checked against the schema and saved on Enter or when the field loses focus. Emptying
 * an override (poll interval, model…) removes it; the placeholder then says what applies instead.
 */
export function SettingText({ name, label, value, placeholder }: Props) {
  const save = useSettingsStore((s) => s.set)
  const saved = value === undefined ? '' : String(value)
  const [draft, setDraft] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const text = draft ?? saved

  const commit = () => {
    const typed = draft?.trim() ?? saved
    if (typed === saved) {
      setProblem(null)
      return setDraft(null)
    }
    if (typed === '' && !clearable(name)) return setProblem('Cannot be empty')
    const checked = settingPatchSchema.safeParse({ [name]: typed === '' ? null : typed })
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'invalid')
    setProblem(null)
    setDraft(null)
    save(checked.data satisfies SettingPatch)
  }

  return (
    <label className="setting setting--text">
      <span className="setting-label">{label}</span>
      <input
        type="text"
        data-testid={`setting-${name}`}
        value={text}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={problem !== null}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit()
        }}
      />
      {problem && <span className="setting-problem">{problem}</span>}
    </label>
  )
}
