import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { paths } from '@/config/paths';
import { getApiErrorBody } from '@/lib/apiError';
import { useOptOutMutation } from '../api/optOutApi';

export const OPT_OUT_MESSAGES = {
  done: '配信停止を受け付けました。今後、全会員向けのお知らせメールはお送りしません。',
  missing: '配信停止のリンクが正しくありません。メールに記載のリンクをそのまま開いてください。',
  failed: '配信停止を受け付けられませんでした。時間をおいて再度お試しください。',
} as const;

/** `/mail/optout/?token=...`: the link in every mail to all members (特定電子メール法); no login needed. */
export function MailOptOut() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [optOut, { isLoading }] = useOptOutMutation();
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);

  const confirm = async () => {
    try {
      await optOut(token).unwrap();
      setOutcome({ ok: true, message: OPT_OUT_MESSAGES.done });
    } catch (error) {
      const body = getApiErrorBody(error);
      setOutcome({ ok: false, message: body?.error === 'invalid_link' ? OPT_OUT_MESSAGES.missing : OPT_OUT_MESSAGES.failed });
    }
  };

  return (
    <section className="page" aria-labelledby="opt-out-title">
      <h1 id="opt-out-title">お知らせメールの配信停止</h1>
      {token === '' ? (
        <Notice tone="error">
          <p>{OPT_OUT_MESSAGES.missing}</p>
        </Notice>
      ) : outcome?.ok ? (
        <Notice tone="success">
          <p>{outcome.message}</p>
        </Notice>
      ) : (
        <>
          <p>全会員向けのお知らせメールの配信を停止します。ご支援やお手続きに関するメールは引き続き届きます。</p>
          <p>配信を停止してよろしいですか？</p>
          <button type="button" className="button button--block button--primary" disabled={isLoading} onClick={confirm}>
            {isLoading ? '処理中…' : '配信を停止する'}
          </button>
          <div aria-live="assertive">
            {outcome && !outcome.ok && (
              <Notice tone="error">
                <p>{outcome.message}</p>
              </Notice>
            )}
          </div>
        </>
      )}
      <p>
        <Link to={paths.home.getHref()}>トップページへ</Link>
      </p>
    </section>
  );
}
