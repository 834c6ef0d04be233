import { useId, useState, type FormEvent } from 'react';
import { LoadError } from '@/components/form/LoadError';
import { Notice } from '@/components/form/Notice';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { useProjectSettingsQuery, useSaveProjectSettingsMutation } from '../api/contentApi';
import { AdminField, CheckBox, ChoiceGroup } from '../projects/fields';
import { messagesByField } from './rules';
import type { ProjectSettings, ProjectSettingsInput } from './types';

const SAVED = 'プロジェクトの設定を保存しました。';
const SAVE_FAILED = 'プロジェクトの設定を保存できませんでした。時間をおいて再度お試しください。';
const ACCOUNT_LOCKED = '公開後は変更できません';

type FeeSchedule = ProjectSettings['feeSchedule'];
/** The application fee's rates on sales paid to the connected account (none without one). */
const FEE_SCHEDULES: readonly { value: FeeSchedule; label: string }[] = [
  { value: 'standard', label: '標準（カード・コンビニ 13.6%、銀行振込 11.5%）' },
  { value: 'internal', label: '社内（カード・コンビニ 10.6%、銀行振込 8.5%）' },
];

/** The form's values as typed. */
interface SettingsDraft {
  label: string;
  text: string;
  description: string;
  alert: string;
  formLine: string;
  bank: { bank: string; branch: string; kinds: string; number: string; nominee: string };
  connectedAccountId: string;
  feeSchedule: FeeSchedule;
  usesManualSponsors: boolean;
  hideFooterSponsors: boolean;
}

const BANK_FIELDS = [
  { key: 'bank', label: '銀行名', max: 50 },
  { key: 'branch', label: '支店名', max: 50 },
  { key: 'kinds', label: '口座種別', max: 20 },
  { key: 'number', label: '口座番号', max: 20 },
  { key: 'nominee', label: '口座名義', max: 100 },
] as const;

const draftOf = (s: ProjectSettings): SettingsDraft => ({
  label: s.additional?.label ?? '',
  text: s.additional?.text ?? '',
  description: s.additional?.description ?? '',
  alert: s.additional?.alert ?? '',
  formLine: String(s.additional?.formLine ?? 1),
  bank: s.bank ?? { bank: '', branch: '', kinds: '', number: '', nominee: '' },
  connectedAccountId: s.connectedAccountId ?? '',
  feeSchedule: s.feeSchedule,
  usesManualSponsors: s.usesManualSponsors,
  hideFooterSponsors: s.hideFooterSponsors,
});

const blank = (s: string) => s.trim() === '';

/** A question with nothing written, and a bank account with all five blank, are sent as none. */
const inputOf = (d: SettingsDraft): ProjectSettingsInput => ({
  additional:
    blank(d.label) && blank(d.text) && blank(d.description) && blank(d.alert)
      ? null
      : {
          label: d.label,
          text: blank(d.text) ? null : d.text,
          description: blank(d.description) ? null : d.description,
          alert: blank(d.alert) ? null : d.alert,
          formLine: Number(d.formLine) || 0,
        },
  bank: Object.values(d.bank).every(blank) ? null : d.bank,
  connectedAccountId: blank(d.connectedAccountId) ? null : d.connectedAccountId.trim(),
  feeSchedule: d.feeSchedule,
  usesManualSponsors: d.usesManualSponsors,
  hideFooterSponsors: d.hideFooterSponsors,
});

function SettingsForm({ settings }: { settings: ProjectSettings }) {
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [save, { isLoading }] = useSaveProjectSettingsMutation();
  const edit = (next: Partial<SettingsDraft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setSaved(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    setErrors({});
    setSaved(false);
    try {
      const answer = await save({ projectId: settings.projectId, input: inputOf(draft) }).unwrap();
      setDraft(draftOf(answer));
      setSaved(true);
    } catch (failure) {
      setErrors(messagesByField(getApiErrorBody(failure), SAVE_FAILED));
    }
  };

  const text = (
    key: 'label' | 'text' | 'description' | 'alert',
    label: string,
    max: number,
    hint?: string,
  ) => (
    <AdminField label={label} error={errors[`additional.${key}`]} hint={hint} optional={key !== 'label'}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="field__input"
          value={draft[key]}
          maxLength={max}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(e) => edit({ [key]: e.target.value })}
        />
      )}
    </AdminField>
  );

  return (
    <form className="form" noValidate onSubmit={(e) => void submit(e)} aria-busy={isLoading}>
      {errors.form && (
        <Notice tone="error">
          <p>{errors.form}</p>
        </Notice>
      )}
      <fieldset className="admin-fieldset">
        <legend>支援時の追加質問（ステップ1）</legend>
        <p className="admin-note">見出しを空欄にすると質問しません。質問すると回答は必須です。</p>
        {text('label', '質問の見出し', 50, '例：Tシャツのサイズ')}
        {text('text', '質問の説明', 500)}
        {text('description', '入力欄の補足', 500)}
        {text('alert', '未入力時のメッセージ', 100, '空欄なら「（見出し）を入力してください」と表示します。')}
        <AdminField label="入力欄の行数" error={errors['additional.formLine']} hint="1〜10。1は1行の入力欄です。">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="field__input"
              inputMode="numeric"
              value={draft.formLine}
              maxLength={2}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => edit({ formLine: e.target.value.replace(/\D/g, '') })}
            />
          )}
        </AdminField>
      </fieldset>
      <fieldset className="admin-fieldset">
        <legend>匿名の銀行振込で表示する振込先</legend>
        {errors.bank && (
          <p className="field__error" role="alert">
            {errors.bank}
          </p>
        )}
        <p className="admin-note">5項目すべてを入力するか、すべて空欄にします。</p>
        {BANK_FIELDS.map(({ key, label, max }) => (
          <AdminField key={key} label={label} error={errors[`bank.${key}`]}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="field__input"
                value={draft.bank[key]}
                maxLength={max}
                aria-invalid={invalid || Boolean(errors.bank)}
                aria-describedby={describedBy}
                onChange={(e) => edit({ bank: { ...draft.bank, [key]: e.target.value } })}
              />
            )}
          </AdminField>
        ))}
      </fieldset>
      <AdminField
        label="連結アカウントID"
        optional
        error={errors.connectedAccountId}
        note={settings.connectedAccountLocked ? ACCOUNT_LOCKED : null}
        hint="決済サービスの連結アカウント（acct_…）。空欄ならサイト運営者の口座で受け取ります。"
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            className="field__input"
            value={draft.connectedAccountId}
            maxLength={64}
            autoComplete="off"
            disabled={settings.connectedAccountLocked}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => edit({ connectedAccountId: e.target.value })}
          />
        )}
      </AdminField>
      <ChoiceGroup
        legend="手数料の区分（連結アカウントへの支払いから差し引く割合）"
        name="fee-schedule"
        options={FEE_SCHEDULES}
        value={draft.feeSchedule}
        onChange={(value) => edit({ feeSchedule: value })}
        disabled={settings.connectedAccountLocked}
        note={settings.connectedAccountLocked ? ACCOUNT_LOCKED : null}
        error={errors.feeSchedule}
      />
      <fieldset className="admin-fieldset">
        <legend>スポンサー表示</legend>
        <CheckBox
          label="スポンサー一覧を手動の名簿で表示する"
          checked={draft.usesManualSponsors}
          onChange={(checked) => edit({ usesManualSponsors: checked })}
        />
        <CheckBox
          label="このプロジェクトのページでフッターのスポンサーを隠す"
          checked={draft.hideFooterSponsors}
          onChange={(checked) => edit({ hideFooterSponsors: checked })}
        />
      </fieldset>
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isLoading}>
          {isLoading ? '保存しています…' : 'プロジェクトの設定を保存する'}
        </button>
      </div>
      <div aria-live="polite">
        {saved && (
          <Notice tone="success">
            <p>{SAVED}</p>
          </Notice>
        )}
      </div>
    </form>
  );
}

/** `プロジェクトの設定`: the additional question, the bank account for anonymous transfers, the connected account, sponsors. */
export function Settings({ projectId }: { projectId: number }) {
  const titleId = useId();
  const { data, isError, error, refetch } = useProjectSettingsQuery(projectId);
  let body;
  if (data) {
    body = <SettingsForm key={projectId} settings={data} />;
  } else if (isError) {
    body = <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  } else {
    body = <p role="status">読み込み中…</p>;
  }
  return (
    <section className="admin-section admin-settings" aria-labelledby={titleId}>
      <h2 id={titleId} className="admin-section__title">
        プロジェクトの設定（追加質問・振込先・スポンサー）
      </h2>
      {body}
    </section>
  );
}
