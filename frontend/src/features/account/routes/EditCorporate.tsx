import { Link, useNavigate } from 'react-router-dom';
import { FormAlert } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { TextField } from '@/components/form/TextField';
import { useForm } from '@/components/form/useForm';
import { paths } from '@/config/paths';
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
  const [save] = useUpdateCorporateDataMutation();
  // Keys are the API's field names, so a field the server refuses is marked where it is typed.
  const form = useForm({
    initialValues: { corporatename: user.corporatename ?? '', corporateurl: user.corporateurl ?? '' },
    validators: {
      corporatename: (name) => (name.trim() === '' ? CORPORATE_MESSAGES.nameRequired : null),
      corporateurl: (url) => validateCorporateUrl(url.trim()),
    },
    onSubmit: async ({ corporatename, corporateurl }) => {
      await save({ id: user.id, corporatename: corporatename.trim(), corporateurl: corporateurl.trim() }).unwrap();
      void navigate(paths.account.getHref(), { state: { flash: CORPORATE_MESSAGES.saved } });
    },
  });

  return (
    <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={form.submitting}>
      <FormAlert message={form.formError} />
      <TextField label="企業名" autoComplete="organization" required {...form.field('corporatename')} />
      <ImageUpload type="logo" currentUrl={currentImageUrl(user.urls.logo)} />
      <TextField
        label="企業サイトURL"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.jp/"
        optional
        {...form.field('corporateurl')}
      />
      <div className="form__actions">
        <SubmitButton {...form.submitButton}>
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
