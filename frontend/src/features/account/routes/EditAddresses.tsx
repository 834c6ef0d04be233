import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { AddressFields } from '@/components/address/AddressFields';
import {
  ADDRESS_FIELD_ORDER as ORDER,
  ADDRESS_LABELS as LABELS,
  ADDRESS_MESSAGES,
  DEFAULT_PREFECTURE,
  validateAddress,
  type AddressField,
} from '@/components/address/addressRules';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { paths } from '@/config/paths';
import { getApiErrorBody } from '@/lib/apiError';
import { useSaveAddressMutation, type AddressInput, type AuthUser } from '../api/accountApi';
import { AccountPage, WithAuthUser } from '../components/AccountPage';

const initialValues = (user: AuthUser): AddressInput => {
  const current = user.addresses.main[0];
  return {
    name: current?.name ?? '',
    telNumber: current?.telNumber ?? '',
    zip: current?.zip ?? '',
    pref: current?.pref ?? DEFAULT_PREFECTURE,
    city: current?.city ?? '',
    address: current?.address ?? '',
    building: current?.building ?? '',
  };
};

type Step = 'edit' | 'confirm' | 'saved';

function AddressForm({ user }: { user: AuthUser }) {
  const exists = user.addresses.main.length > 0;
  const [values, setValues] = useState<AddressInput>(() => initialValues(user));
  const [touched, setTouched] = useState<Partial<Record<AddressField, boolean>>>({});
  const [step, setStep] = useState<Step>('edit');
  const [mode, setMode] = useState<'register' | 'updater'>(exists ? 'updater' : 'register');
  const [failure, setFailure] = useState<{ detail: string | null } | null>(null);
  const [saveAddress, { isLoading }] = useSaveAddressMutation();

  const errors = validateAddress(values);
  const invalid = Object.keys(errors).length > 0;
  const shownError = (field: AddressField) => (touched[field] ? (errors[field] ?? null) : null);

  const touch = (field: AddressField) => setTouched((current) => ({ ...current, [field]: true }));

  const toConfirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(Object.fromEntries(ORDER.map((field) => [field, true])));
    if (invalid) return;
    setFailure(null);
    setStep('confirm');
  };

  const save = async () => {
    setFailure(null);
    const building = values.building?.trim() ?? '';
    try {
      await saveAddress({
        mode,
        address: {
          name: values.name.trim(),
          telNumber: values.telNumber,
          zip: values.zip,
          pref: values.pref,
          city: values.city.trim(),
          address: values.address.trim(),
          building: building === '' ? null : building,
        },
      }).unwrap();
      setStep('saved');
    } catch (error) {
      const message = getApiErrorBody(error)?.message;
      setFailure({ detail: message && message !== ADDRESS_MESSAGES.failed ? message : null });
    }
  };

  if (step === 'saved') {
    return (
      <>
        <Notice tone="success">
          <p>{mode === 'register' ? ADDRESS_MESSAGES.registered : ADDRESS_MESSAGES.updated}</p>
        </Notice>
        <p className="form__cancel">
          <button
            type="button"
            className="button"
            onClick={() => {
              setMode('updater');
              setStep('edit');
            }}
          >
            続けて編集する
          </button>
        </p>
      </>
    );
  }

  if (step === 'confirm') {
    return (
      <div>
        <p>以下の内容で{mode === 'register' ? '登録' : '更新'}します。よろしければ「登録する」を押してください。</p>
        {failure && (
          <Notice tone="error">
            <p>{ADDRESS_MESSAGES.failed}</p>
            {failure.detail && <p>{failure.detail}</p>}
          </Notice>
        )}
        <dl className="confirm-list">
          {ORDER.map((field) => (
            <div key={field}>
              <dt>{LABELS[field]}</dt>
              <dd>{values[field] || 'なし'}</dd>
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
      <AddressFields values={values} onChange={setValues} error={shownError} onBlur={touch} />
      <div className="form__actions">
        <SubmitButton busy={false} disabled={invalid}>
          確認する
        </SubmitButton>
        <Link className="button button--block" to={paths.account.getHref()}>
          戻る
        </Link>
      </div>
    </form>
  );
}

/** Delivery address (`/edit/addresses`): register the first one, or update it. */
export function EditAddresses() {
  return (
    <AccountPage title="お届け先住所の登録" lead="リターンのお届け先としてご利用いただく住所です。">
      <WithAuthUser>{(user) => <AddressForm user={user} />}</WithAuthUser>
    </AccountPage>
  );
}
