import type { NotificationToggles, Settings } from '../../../shared/schemas/settings.ts'
import { useSettingsStore } from '../store/settings-store.ts'
import { useUiStore } from '../store/ui-store.ts'
import { SettingText } from './SettingText.tsx'
import { BackButton } from './BackButton.tsx'

const TOGGLES: { key: keyof NotificationToggles; label: string }[] = [
  { key: 'commits', label: 'Commits' },
  { key: 'task_completed', label: 'Tasks completed' },
  { key: 'needs_human', label: 'A session needs you' },
  { key: 'attention_items', label: 'PM attention items' },
  { key: 'delegated_tasks', label: 'Delegated tasks (their notes, questions, plans, done)' },
]

const HOUR = 3_600_000

/** Every setting of `settings.json`; each change is saved at once through `settings:set`. */
export function SettingsView() {
  const settings = useSettingsStore((s) => s.settings)
  const error = useSettingsStore((s) => s.error)
  const back = useUiStore((s) => s.back)
  return (
    <section className="detail settings" data-testid="settings-view">
      <header className="detail-head">
        <BackButton testId="settings-back" onBack={back} />
        <h2 className="detail-title">Settings</h2>
      </header>
      <div className="detail-body">
        {error && (
          <p className="detail-error" data-testid="settings-error">
            {error}
          </p>
        )}
        {settings ? <SettingsForm settings={settings} /> : <p className="empty">Loading…</p>}
      </div>
    </section>
  )
}

function SettingsForm({ settings }: { settings: Settings }) {
  const save = useSettingsStore((s) => s.set)
  const installHooks = useSettingsStore((s) => s.installHooks)
  const hooksMessage = useSettingsStore((s) => s.hooksMessage)
  const now = useUiStore((s) => s.now)
  const pausedUntil = settings.paused_until ? Date.parse(settings.paused_until) : NaN
  const paused = Number.isFinite(pausedUntil) && pausedUntil > now
  const pauseFor = (hours: number) =>
    save({ paused_until: new Date(Date.now() + hours * HOUR).toISOString() })

  return (
    <>
      <h3 className="detail-section">Notifications</h3>
      {TOGGLES.map(({ key, label }) => (
        <label key={key} className="setting setting--check">
          <input
            type="checkbox"
            data-testid={`setting-notify-${key}`}
            checked={settings.notifications[key]}
            onChange={(e) =>
              save({ notifications: { ...settings.notifications, [key]: e.target.checked } })
            }
          />
          {label}
        </label>
      ))}
      <div className="setting" data-testid="setting-pause">
        <span className="setting-label">
          {paused
            ? `Paused until ${new Date(pausedUntil).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`
            : 'Pause notifications'}
        </span>
        {paused ? (
          <button
            type="button"
            className="small-button"
            onClick={() => save({ paused_until: null })}
          >
            Resume
          </button>
        ) : (
          <span className="button-group">
            <button type="button" className="small-button" onClick={() => pauseFor(1)}>
              1 h
            </button>
            <button type="button" className="small-button" onClick={() => pauseFor(8)}>
              8 h
            </button>
          </span>
        )}
      </div>
      <SettingText
        name="commit_group_window"
        label="Group commits within"
        value={settings.commit_group_window}
        placeholder="30s"
      />

      <h3 className="detail-section">Engine and PM</h3>
      <SettingText
        name="poll_interval"
        label="Poll interval"
        value={settings.poll_interval}
        placeholder="as config.yaml"
      />
      <SettingText
        name="batch_window"
        label="PM batching window"
        value={settings.batch_window}
        placeholder="as config.yaml"
      />
      <SettingText
        name="model"
        label="PM model"
        value={settings.model}
        placeholder="as config.yaml"
      />
      <SettingText
        name="claude_path"
        label="Claude path"
        value={settings.claude_path}
        placeholder="found on PATH"
      />

      <h3 className="detail-section">App</h3>
      <label className="setting setting--check">
        <input
          type="checkbox"
          data-testid="setting-launch_at_login"
          checked={settings.launch_at_login}
          onChange={(e) => save({ launch_at_login: e.target.checked })}
        />
        Launch at login
      </label>
      <SettingText
        name="global_shortcut"
        label="Global shortcut"
        value={settings.global_shortcut}
      />
      <div className="setting">
        <span className="setting-label">Claude Code hooks</span>
        <button
          type="button"
          className="small-button"
          data-testid="install-hooks"
          onClick={() => installHooks()}
        >
          Install hooks
        </button>
      </div>
      {hooksMessage && (
        <p className="setting-note" data-testid="install-hooks-result">
          {hooksMessage}
        </p>
      )}
    </>
  )
}
