import { Notice } from '@/components/form/Notice';

/** What an operator's last action on a section came to; `null` before any. */
export type ActionMessage = { tone: 'success' | 'error'; text: string } | null;

/**
 * A section's answer to the operator: success in a polite live region (announced when it appears, the region
 * itself always present), a failure as an error notice below it.
 */
export function ActionNotice({ message }: { message: ActionMessage }) {
  return (
    <>
      <div aria-live="polite">
        {message?.tone === 'success' && (
          <Notice tone="success">
            <p>{message.text}</p>
          </Notice>
        )}
      </div>
      {message?.tone === 'error' && (
        <Notice tone="error">
          <p>{message.text}</p>
        </Notice>
      )}
    </>
  );
}
