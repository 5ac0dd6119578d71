/** "‹ Back" at the top of the project detail and Settings views (Esc does the same). */
export function BackButton({ testId, onBack }: { testId: string; onBack: () => void }) {
  return (
    <button
      type="button"
      className="back-button"
      data-testid={testId}
      title="Back (Esc)"
      onClick={() => onBack()}
    >
      ‹ Back
    </button>
  )
}
