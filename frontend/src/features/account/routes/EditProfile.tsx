import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { FieldFrame, TextAreaField, TextField } from '@/components/form/TextField';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useUpdateProfileMutation, type AuthUser } from '../api/accountApi';
import { AccountPage, WithAuthUser } from '../components/AccountPage';
import { currentImageUrl } from '../images';
import { ImageUpload } from '../components/ImageUpload';

export const AGE_GROUPS = ['10代以下', '20代', '30代', '40代', '50代', '60代', '70代以上'] as const;

export const PROFILE_MESSAGES = {
  saved: 'プロフィールを更新しました。',
} as const;

interface ProfileValues {
  username: string;
  displayname: string;
  profile: string;
  ageGroup: string;
}

const valuesOf = (user: AuthUser): ProfileValues => ({
  username: user.username ?? '',
  displayname: user.displayname ?? '',
  profile: user.profile ?? '',
  ageGroup: user.ageGroup ?? '',
});

const FIELD_LABELS: Record<keyof ProfileValues, string> = {
  username: 'ユーザー名',
  displayname: '表示名',
  profile: '自己紹介',
  ageGroup: '年代',
};

type Step = 'edit' | 'confirm' | 'saved';

function ProfileForm({ user }: { user: AuthUser }) {
  const [values, setValues] = useState<ProfileValues>(() => valuesOf(user));
  const [step, setStep] = useState<Step>('edit');
  const [error, setError] = useState<string | null>(null);
  const [updateProfile, { isLoading }] = useUpdateProfileMutation();

  const set = (key: keyof ProfileValues) => (value: string) => setValues((current) => ({ ...current, [key]: value }));

  const toConfirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setStep('confirm');
  };

  const save = async () => {
    setError(null);
    try {
      await updateProfile({
        id: user.id,
        username: values.username.trim(),
        displayname: values.displayname.trim(),
        profile: values.profile,
        ageGroup: values.ageGroup,
      }).unwrap();
      setStep('saved');
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  };

  if (step === 'saved') {
    return (
      <>
        <Notice tone="success">
          <p>{PROFILE_MESSAGES.saved}</p>
        </Notice>
        <p className="form__cancel">
          <button type="button" className="button" onClick={() => setStep('edit')}>
            続けて編集する
          </button>
        </p>
      </>
    );
  }

  if (step === 'confirm') {
    return (
      <div>
        <p>以下の内容で登録します。よろしければ「登録する」を押してください。</p>
        {error && (
          <Notice tone="error">
            <p>{error}</p>
          </Notice>
        )}
        <dl className="confirm-list">
          {(Object.keys(FIELD_LABELS) as Array<keyof ProfileValues>).map((key) => (
            <div key={key}>
              <dt>{FIELD_LABELS[key]}</dt>
              <dd>{values[key].trim() === '' ? '未入力' : values[key]}</dd>
            </div>
          ))}
        </dl>
        <div className="form__actions">
          <SubmitButton type="button" busy={isLoading} onClick={() => void save()}>
            登録する
          </SubmitButton>
          <button type="button" className="button button--block" onClick={() => setStep('edit')} disabled={isLoading}>
            編集に戻る
          </button>
        </div>
      </div>
    );
  }

  return (
    <form className="form" noValidate onSubmit={toConfirm}>
      <TextField
        label={FIELD_LABELS.username}
        name="username"
        autoComplete="nickname"
        value={values.username}
        onChange={(event) => set('username')(event.target.value)}
      />
      <TextField
        label={FIELD_LABELS.displayname}
        name="displayname"
        value={values.displayname}
        onChange={(event) => set('displayname')(event.target.value)}
        hint="応援コメントなどに表示されるお名前です。"
      />
      <TextAreaField
        label={FIELD_LABELS.profile}
        name="profile"
        rows={6}
        value={values.profile}
        onChange={(event) => set('profile')(event.target.value)}
      />
      <FieldFrame label={FIELD_LABELS.ageGroup}>
        {({ id, describedBy }) => (
          <select
            id={id}
            className="field__input"
            name="ageGroup"
            aria-describedby={describedBy}
            value={values.ageGroup}
            onChange={(event) => set('ageGroup')(event.target.value)}
          >
            <option value="">選択してください</option>
            {AGE_GROUPS.map((group) => (
              <option key={group} value={group}>
                {group}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <div className="form__actions">
        <button type="submit" className="button button--primary button--block">
          確認する
        </button>
        <Link className="button button--block" to={paths.account.getHref()}>
          キャンセル
        </Link>
      </div>
    </form>
  );
}

/** Profile edit (`/edit/profile`): icon, then the fields; edit, confirm, saved (spec 001 §2). */
export function EditProfile() {
  return (
    <AccountPage title="プロフィール編集">
      <WithAuthUser>
        {(user) => (
          <>
            <ImageUpload type="icon" currentUrl={currentImageUrl(user.urls.icon)} />
            <ProfileForm user={user} />
          </>
        )}
      </WithAuthUser>
    </AccountPage>
  );
}
