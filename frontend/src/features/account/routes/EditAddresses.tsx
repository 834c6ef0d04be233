import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { FieldFrame, TextField } from '@/components/form/TextField';
import { paths } from '@/config/paths';
import { getApiErrorBody } from '@/lib/apiError';
import { useLazyZipAddressQuery, useSaveAddressMutation, type AddressInput, type AuthUser } from '../api/accountApi';
import {
  ADDRESS_MESSAGES,
  DEFAULT_PREFECTURE,
  PREFECTURES,
  ZIP_PATTERN,
  validateAddress,
  type AddressField,
} from '../addressRules';
import { AccountPage, WithAuthUser } from '../components/AccountPage';

const LABELS: Record<AddressField, string> = {
  name: 'お名前',
  telNumber: '電話番号',
  zip: '郵便番号',
  pref: '都道府県',
  city: '市区町村',
  address: '番地',
  building: '建物名・部屋番号',
};

const ORDER: AddressField[] = ['name', 'telNumber', 'zip', 'pref', 'city', 'address', 'building'];

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

/** Digits typed in full width become half-width; anything else (hyphens, spaces) is dropped. */
const digitsOnly = (value: string): string =>
  value.replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0)).replace(/[^0-9]/g, '');

type Step = 'edit' | 'confirm' | 'saved';

function AddressForm({ user }: { user: AuthUser }) {
  const exists = user.addresses.main.length > 0;
  const [values, setValues] = useState<AddressInput>(() => initialValues(user));
  const [touched, setTouched] = useState<Partial<Record<AddressField, boolean>>>({});
  const [step, setStep] = useState<Step>('edit');
  const [mode, setMode] = useState<'register' | 'updater'>(exists ? 'updater' : 'register');
  const [failure, setFailure] = useState<{ detail: string | null } | null>(null);
  const [zipNote, setZipNote] = useState<string | null>(null);
  const [lookupZip, { isFetching: isLookingUp }] = useLazyZipAddressQuery();
  const [saveAddress, { isLoading }] = useSaveAddressMutation();

  const errors = validateAddress(values);
  const invalid = Object.keys(errors).length > 0;
  const shownError = (field: AddressField) => (touched[field] ? (errors[field] ?? null) : null);

  const set = (field: AddressField, value: string) => setValues((current) => ({ ...current, [field]: value }));
  const touch = (field: AddressField) => () => setTouched((current) => ({ ...current, [field]: true }));

  const onZip = async (raw: string) => {
    const zip = digitsOnly(raw).slice(0, 7);
    set('zip', zip);
    setZipNote(null);
    if (!ZIP_PATTERN.test(zip)) return;
    try {
      const found = await lookupZip(zip, true).unwrap();
      setValues((current) =>
        current.zip === zip ? { ...current, pref: found.pref, city: found.city, address: found.address } : current,
      );
      setZipNote(`${found.pref}${found.city}${found.address} を入力しました。番地以降を追記してください。`);
    } catch {
      setZipNote(ADDRESS_MESSAGES.zipNotFound);
    }
  };

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
      <TextField
        label={LABELS.name}
        name="name"
        autoComplete="name"
        value={values.name}
        onChange={(event) => set('name', event.target.value)}
        onBlur={touch('name')}
        error={shownError('name')}
        required
      />
      <TextField
        label={LABELS.telNumber}
        name="telNumber"
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        placeholder="0272000000"
        hint="半角数字・ハイフンなしで入力してください。"
        value={values.telNumber}
        onChange={(event) => set('telNumber', digitsOnly(event.target.value))}
        onBlur={touch('telNumber')}
        error={shownError('telNumber')}
        required
      />
      <TextField
        label={LABELS.zip}
        name="zip"
        inputMode="numeric"
        autoComplete="postal-code"
        placeholder="3710023"
        maxLength={8}
        hint={isLookingUp ? '住所を検索しています…' : (zipNote ?? '半角数字7桁・ハイフンなしで入力すると住所を自動で入力します。')}
        value={values.zip}
        onChange={(event) => void onZip(event.target.value)}
        onBlur={touch('zip')}
        error={shownError('zip')}
        required
      />
      <FieldFrame label={LABELS.pref} error={shownError('pref')}>
        {({ id, describedBy, invalid: prefInvalid }) => (
          <select
            id={id}
            className="field__input"
            name="pref"
            autoComplete="address-level1"
            aria-describedby={describedBy}
            aria-invalid={prefInvalid}
            value={values.pref}
            onChange={(event) => set('pref', event.target.value)}
            required
          >
            {PREFECTURES.map((pref) => (
              <option key={pref} value={pref}>
                {pref}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <TextField
        label={LABELS.city}
        name="city"
        autoComplete="address-level2"
        value={values.city}
        onChange={(event) => set('city', event.target.value)}
        onBlur={touch('city')}
        error={shownError('city')}
        required
      />
      <TextField
        label={LABELS.address}
        name="address"
        autoComplete="address-line1"
        value={values.address}
        onChange={(event) => set('address', event.target.value)}
        onBlur={touch('address')}
        error={shownError('address')}
        required
      />
      <TextField
        label={LABELS.building}
        name="building"
        autoComplete="address-line2"
        optional
        value={values.building ?? ''}
        onChange={(event) => set('building', event.target.value)}
      />
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
