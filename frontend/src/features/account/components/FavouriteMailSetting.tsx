import { useId, useState } from 'react';
import { Notice } from '@/components/form/Notice';
import { getErrorMessage } from '@/lib/apiError';
import { useFavouriteMailQuery, useSetFavouriteMailMutation } from '../api/accountApi';

export const FAVOURITE_MAIL_LABEL = 'お気に入りのプロジェクトについてメールで受け取る';
export const FAVOURITE_MAIL_HINT =
  '終了の48時間前と、活動報告が公開されたときにお知らせします。メールの配信停止リンクからも止められます。';

/** My page's opt-in: mail about kept projects (off until the member turns it on). */
export function FavouriteMailSetting() {
  const hintId = useId();
  const { data, isError, error } = useFavouriteMailQuery();
  const [save, { isLoading }] = useSetFavouriteMailMutation();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  // The box follows the tap at once; the stored value takes over when the server answers (or refuses).
  const [wanted, setWanted] = useState<boolean | null>(null);

  const change = async (enabled: boolean) => {
    setMessage(null);
    setWanted(enabled);
    try {
      const stored = await save({ enabled }).unwrap();
      setMessage({
        tone: 'success',
        text: stored.enabled ? 'お気に入りのメールを受け取る設定にしました。' : 'お気に入りのメールを止めました。',
      });
    } catch (failure) {
      setMessage({ tone: 'error', text: getErrorMessage(failure) });
    } finally {
      setWanted(null);
    }
  };

  if (isError) return <Notice tone="error"><p>{getErrorMessage(error)}</p></Notice>;
  return (
    <div className="favourite-mail">
      <label className="favourite-mail__choice">
        <input
          type="checkbox"
          checked={wanted ?? data?.enabled ?? false}
          disabled={!data || isLoading}
          aria-describedby={hintId}
          onChange={(e) => void change(e.target.checked)}
        />
        <span>{FAVOURITE_MAIL_LABEL}</span>
      </label>
      <p id={hintId} className="field__hint">
        {FAVOURITE_MAIL_HINT}
      </p>
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
    </div>
  );
}
