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

/** A text setting, checked against the schema and saved on Enter or when the field loses focus. */
export function SettingText({ name, label, value, placeholder }: Props) {
  const save = useSettingsStore((s) => s.set)
  const saved = value === undefined ? '' : String(value)
  const [draft, setDraft] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const text = draft ?? saved

  const commit = () => {
    if (draft === null || draft.trim() === saved) return setDraft(null)
    const checked = settingPatchSchema.safeParse({ [name]: draft.trim() })
    if (draft.trim() === '' || !checked.success) {
      setProblem(
        draft.trim() === ''
          ? 'Cannot be emptied here: edit settings.json'
          : (checked.error?.issues[0]?.message ?? 'invalid'),
      )
      return
    }
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
