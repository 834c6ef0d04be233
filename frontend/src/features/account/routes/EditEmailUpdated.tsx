import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { useAppDispatch } from '@/app/hooks';
import { api } from '@/lib/api';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { useLogout, useStoreToken } from '@/app/session/useSession';
import { useAuthUserQuery, useUpdateLoginEmailMutation } from '../api/accountApi';
import { AccountPage } from '../components/AccountPage';

export const EMAIL_UPDATED_MESSAGES = {
  done: 'メールアドレスの変更が完了しました。',
  invalid:
    'アクティベートキーが無効です。お手数ですが、メールアドレス変更時のメールに記載されたURLから再度アクセスするか、もう一度変更の手続きを行ってください。',
} as const;

type State = { kind: 'pending' } | { kind: 'done'; email: string | null } | { kind: 'failed'; message: string };

/** The new login address: from the answer, else from the user data loaded with the new token. */
function NewEmail({ email }: { email: string | null }) {
  const { data } = useAuthUserQuery(undefined, { skip: email !== null });
  const shown = email ?? data?.email;
  if (!shown) return null;
  return (
    <p>
      新しいメールアドレス：<strong>{shown}</strong>
    </p>
  );
}

/**
 * Completes an e-mail change from the mailed link (`/edit/email/updated?activate=KEY`).
 * The page is protected, so the user is logged in here; the key is used once.
 */
export function EditEmailUpdated() {
  const [params] = useSearchParams();
  const activatekey = params.get('activate')?.trim() ?? '';
  const logout = useLogout();
  const storeToken = useStoreToken();
  const dispatch = useAppDispatch();
  const [updateLoginEmail] = useUpdateLoginEmailMutation();
  const [state, setState] = useState<State>(
    activatekey === '' ? { kind: 'failed', message: EMAIL_UPDATED_MESSAGES.invalid } : { kind: 'pending' },
  );
  // A key works once: never send it twice (StrictMode runs effects twice in development).
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (activatekey === '' || sent.current === activatekey) return;
    sent.current = activatekey;
    updateLoginEmail({ activatekey })
      .unwrap()
      .then(({ updated, email, token, type }) => {
        if (!updated) {
          setState({ kind: 'failed', message: EMAIL_UPDATED_MESSAGES.invalid });
          return;
        }
        // The change ends every other session, this one's token included: the answer's token replaces
        // it and the session is checked again, as after a password change.
        if (token) storeToken({ type: type || 'Bearer', token });
        dispatch(api.util.invalidateTags(['User']));
        setState({ kind: 'done', email: email ?? null });
      })
      .catch((error: unknown) => {
        const invalid = getApiErrorBody(error)?.error === 'invalid_key';
        setState({ kind: 'failed', message: invalid ? EMAIL_UPDATED_MESSAGES.invalid : getErrorMessage(error) });
      });
  }, [activatekey, updateLoginEmail, storeToken, dispatch]);

  return (
    <AccountPage title="メールアドレス変更完了" backLink={false}>
      {state.kind === 'pending' && <PageLoading />}
      {state.kind === 'done' && (
        <>
          <Notice tone="success">
            <p>{EMAIL_UPDATED_MESSAGES.done}</p>
            <NewEmail email={state.email} />
            <p>次回から新しいメールアドレスでログインしてください。</p>
          </Notice>
          <div className="form__actions">
            <Link className="button button--primary button--block" to={paths.account.getHref()}>
              マイページへ
            </Link>
            <button type="button" className="button button--block" onClick={logout}>
              ログアウト
            </button>
          </div>
        </>
      )}
      {state.kind === 'failed' && (
        <>
          <Notice tone="error">
            <p>{state.message}</p>
          </Notice>
          <p className="account-page__back">
            <Link to={paths.editEmail.getHref()}>メールアドレス変更の手続きへ</Link>
            {' / '}
            <Link to={paths.account.getHref()}>マイページへ戻る</Link>
          </p>
        </>
      )}
    </AccountPage>
  );
}
