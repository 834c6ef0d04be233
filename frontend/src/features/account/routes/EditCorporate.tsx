import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { TextField } from '@/components/form/TextField';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useUpdateCorporateDataMutation, type AuthUser } from '../api/accountApi';
import { AccountPage, WithAuthUser } from '../components/AccountPage';
import { currentImageUrl } from '../images';
import { ImageUpload } from '../components/ImageUpload';

export const CORPORATE_MESSAGES = {
  nameRequired: '企業名を入力してください。',
  urlFormat: '正しいURLの形式で入力してください。',
  saved: '企業情報を更新しました。',
} as const;

/** An http(s) URL with a host that has a dot; empty is allowed (the site is optional). */
export const validateCorporateUrl = (value: string): string | null => {
  if (value === '') return null;
  try {
    const url = new URL(value);
    const ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
    return ok ? null : CORPORATE_MESSAGES.urlFormat;
  } catch {
    return CORPORATE_MESSAGES.urlFormat;
  }
};

function CorporateForm({ user }: { user: AuthUser }) {
  const navigate = useNavigate();
  const [save, { isLoading }] = useUpdateCorporateDataMutation();
  const [name, setName] = useState(user.corporatename ?? '');
  const [url, setUrl] = useState(user.corporateurl ?? '');
  const [touched, setTouched] = useState({ name: false, url: false });
  const [error, setError] = useState<string | null>(null);

  const nameError = name.trim() === '' ? CORPORATE_MESSAGES.nameRequired : null;
  const urlError = validateCorporateUrl(url.trim());
  const invalid = nameError !== null || urlError !== null;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ name: true, url: true });
    if (invalid || isLoading) return;
    setError(null);
    try {
      await save({ id: user.id, corporatename: name.trim(), corporateurl: url.trim() }).unwrap();
      void navigate(paths.account.getHref(), { state: { flash: CORPORATE_MESSAGES.saved } });
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  };

  return (
    <form className="form" noValidate onSubmit={onSubmit} aria-busy={isLoading}>
      {error && (
        <Notice tone="error">
          <p>{error}</p>
        </Notice>
      )}
      <TextField
        label="企業名"
        name="corporatename"
        autoComplete="organization"
        value={name}
        onChange={(event) => setName(event.target.value)}
        onBlur={() => setTouched((current) => ({ ...current, name: true }))}
        error={touched.name ? nameError : null}
        required
      />
      <ImageUpload type="logo" currentUrl={currentImageUrl(user.urls.logo)} />
      <TextField
        label="企業サイトURL"
        name="corporateurl"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.jp/"
        optional
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        onBlur={() => setTouched((current) => ({ ...current, url: true }))}
        error={touched.url ? urlError : null}
      />
      <div className="form__actions">
        <SubmitButton busy={isLoading} disabled={invalid}>
          登録する
        </SubmitButton>
        <Link className="button button--block" to={paths.account.getHref()}>
          キャンセル
        </Link>
      </div>
    </form>
  );
}

/** Company data (`/edit/corporate`): name, logo and site; back to my page when saved. */
export function EditCorporate() {
  return (
    <AccountPage
      title="企業情報の編集"
      lead="企業・団体としてご支援いただく場合の情報です。協賛企業として掲載される際に使用します。"
    >
      <WithAuthUser>{(user) => <CorporateForm user={user} />}</WithAuthUser>
    </AccountPage>
  );
}
