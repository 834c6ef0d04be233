import { Link, useLocation } from 'react-router-dom';
import { Notice } from '@/components/form/Notice';
import { paths } from '@/config/paths';
import type { AuthUser } from '../api/accountApi';
import { AccountPage, WithAuthUser } from '../components/AccountPage';
import { Favourites } from '../components/Favourites';
import { MonthlySupports } from '../components/MonthlySupports';
import { SupportedProjects } from '../components/SupportedProjects';
import { currentImageUrl } from '../images';

/** The edit pages, as linked from my page (spec 000 §2). */
export const ACCOUNT_LINKS = [
  { href: paths.editEmail.getHref(), label: 'メールアドレスの変更' },
  { href: paths.editPassword.getHref(), label: 'パスワードの変更' },
  { href: paths.editProfile.getHref(), label: 'プロフィールの編集' },
  { href: paths.editCorporate.getHref(), label: '企業情報の編集' },
  { href: paths.editAddresses.getHref(), label: 'お届け先住所の登録・変更' },
  { href: paths.editPayment.getHref(), label: 'お支払い方法の管理' },
  { href: paths.editPaymentList.getHref(), label: 'お支払い履歴' },
] as const;

/** A message handed over by an edit page that went back to my page. */
const flashOf = (state: unknown): string | null =>
  typeof state === 'object' && state !== null && typeof (state as { flash?: unknown }).flash === 'string'
    ? (state as { flash: string }).flash
    : null;

const orUnset = (value: string | null | undefined) =>
  value && value.trim() !== '' ? value : <span className="account-summary__unset">未設定</span>;

function Summary({ user }: { user: AuthUser }) {
  const icon = currentImageUrl(user.urls.icon);
  const address = user.addresses.main[0];
  return (
    <div className="account-summary">
      <div className="account-summary__head">
        {icon ? (
          <img className="account-summary__icon" src={icon} alt="プロフィールアイコン" width={72} height={72} />
        ) : (
          <span className="account-summary__icon account-summary__icon--empty" aria-hidden="true" />
        )}
        <div>
          <p className="account-summary__name">{user.displayname || user.username || '会員'} さん</p>
          <p className="account-summary__email">{user.email}</p>
        </div>
      </div>
      {user.updateEmail && (
        <Notice tone="info">
          <p>{`${user.updateEmail} への変更手続き中です。確認メールに記載されたURLを開くと変更が完了します。`}</p>
        </Notice>
      )}
      <dl className="confirm-list">
        <div>
          <dt>ユーザー名</dt>
          <dd>{orUnset(user.username)}</dd>
        </div>
        <div>
          <dt>表示名</dt>
          <dd>{orUnset(user.displayname)}</dd>
        </div>
        <div>
          <dt>年代</dt>
          <dd>{orUnset(user.ageGroup)}</dd>
        </div>
        <div>
          <dt>自己紹介</dt>
          <dd>{orUnset(user.profile)}</dd>
        </div>
        <div>
          <dt>企業名</dt>
          <dd>{orUnset(user.corporatename)}</dd>
        </div>
        <div>
          <dt>企業サイト</dt>
          <dd>{orUnset(user.corporateurl)}</dd>
        </div>
        <div>
          <dt>お届け先</dt>
          <dd>
            {address ? (
              <>
                〒{address.zip} {address.pref}
                {address.city}
                {address.address}
                {address.building ? ` ${address.building}` : ''}
                <br />
                {address.name}（{address.telNumber}）
              </>
            ) : (
              orUnset(null)
            )}
          </dd>
        </div>
      </dl>
    </div>
  );
}

/** My page (`/account/`): the user's data and the edit pages. */
export function Account() {
  const flash = flashOf(useLocation().state);
  return (
    <AccountPage title="マイページ" backLink={false}>
      {flash && (
        <Notice tone="success">
          <p>{flash}</p>
        </Notice>
      )}
      <WithAuthUser>{(user) => <Summary user={user} />}</WithAuthUser>
      <SupportedProjects />
      <MonthlySupports />
      <Favourites />
      <nav aria-label="アカウント設定">
        <h2 className="account-page__subtitle">アカウント設定</h2>
        <ul className="account-menu">
          {ACCOUNT_LINKS.map((link) => (
            <li key={link.href}>
              <Link className="account-menu__item" to={link.href}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </AccountPage>
  );
}
