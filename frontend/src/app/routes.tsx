import { lazy, type ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { paths } from '@/config/paths';
import type { RouteHandle, RouteName } from '@/config/routeHandle';
import { NOT_FOUND_TITLE, NotFound } from '@/components/NotFound';
import { Home, Project, ProjectView } from '@/features/public/routes';
import { AppLayout } from './AppLayout';

/** A named export of a lazily loaded module, as a component for `React.lazy`. */
const lazyNamed = <M extends Record<K, ComponentType>, K extends keyof M & string>(
  load: () => Promise<M>,
  key: K,
) => lazy(() => load().then((module) => ({ default: module[key] })));

// Home and project pages are where visitors land: they ship in the main bundle so their first
// screen needs no further round trip. Every other area is one chunk, loaded on first visit.
const legalPages = () => import(/* webpackChunkName: "legal" */ '@/features/public/routes/Legal');
const listPage = () => import(/* webpackChunkName: "projects" */ '@/features/public/routes/ProjectList');
const authPages = () => import(/* webpackChunkName: "auth" */ '@/features/auth/routes');
const accountPages = () => import(/* webpackChunkName: "account" */ '@/features/account/routes');
const paymentPages = () => import(/* webpackChunkName: "payment" */ '@/features/payment/routes');
const adminPages = () => import(/* webpackChunkName: "admin" */ '@/features/admin/routes');
const mailPages = () => import(/* webpackChunkName: "mail" */ '@/features/mail/routes');
const receiptPages = () => import(/* webpackChunkName: "receipts" */ '@/features/receipts/routes');

const PAYMENT_TITLE = 'ご支援内容の確認';

/**
 * The preview draws a draft with the public project page's own view. One feature never imports another
 * (boundaries.test.ts): the router, which may name both, hands the view (in the main bundle already) to the
 * admin chunk's page.
 */
const AdminProjectPreview = lazy(() =>
  adminPages().then(({ AdminProjectPreview: Preview }) => ({
    default: function AdminProjectPreviewPage() {
      return <Preview View={ProjectView} />;
    },
  })),
);

const page = (
  path: string,
  name: RouteName,
  title: string,
  Component: ComponentType,
): RouteObject => {
  const handle: RouteHandle = { name, title };
  return { path, handle, Component };
};

/** The route tree, rendered by `AppRoutes`; a page's failure shows `RouteError` (see there). */
export const routes: RouteObject[] = [
  {
    Component: AppLayout,
    children: [
      page(paths.home.path, 'Home', '地域の挑戦を応援するクラウドファンディング', Home),
      page(paths.projects.path, 'Projects', 'プロジェクトを探す', lazyNamed(listPage, 'ProjectList')),
      page(paths.project.path, 'Project', 'プロジェクト', Project),
      page(paths.policy.path, 'Policy', 'プライバシーポリシー', lazyNamed(legalPages, 'Policy')),
      page(paths.terms.path, 'Terms', '利用規約', lazyNamed(legalPages, 'Terms')),
      page(paths.commercial.path, 'Commercial', '特定商取引法に基づく表記', lazyNamed(legalPages, 'Commercial')),

      page(paths.login.path, 'Login', 'ログイン', lazyNamed(authPages, 'Login')),
      page(paths.signup.path, 'Signup', '新規会員登録', lazyNamed(authPages, 'Signup')),
      page(paths.signupPassword.path, 'SignupPassword', 'パスワード設定', lazyNamed(authPages, 'SignupPassword')),
      page(paths.forgotPassword.path, 'ForgotPassword', 'パスワード再発行', lazyNamed(authPages, 'ForgotPassword')),
      page(paths.resetPassword.path, 'ResetPassword', 'パスワード再設定', lazyNamed(authPages, 'ResetPassword')),

      page(paths.account.path, 'Account', 'マイページ', lazyNamed(accountPages, 'Account')),
      page(paths.editProfile.path, 'EditProfile', 'プロフィール編集', lazyNamed(accountPages, 'EditProfile')),
      page(paths.editEmail.path, 'EditEmail', 'メールアドレス変更', lazyNamed(accountPages, 'EditEmail')),
      page(paths.editEmailUpdated.path, 'EditEmailUpdated', 'メールアドレス変更完了', lazyNamed(accountPages, 'EditEmailUpdated')),
      page(paths.editPassword.path, 'EditPassword', 'パスワード変更', lazyNamed(accountPages, 'EditPassword')),
      page(paths.editCorporate.path, 'EditCorporate', '企業情報の編集', lazyNamed(accountPages, 'EditCorporate')),
      page(paths.editAddresses.path, 'EditAddresses', 'お届け先住所の登録', lazyNamed(accountPages, 'EditAddresses')),
      page(paths.editPayment.path, 'EditPayment', 'お支払い方法の管理', lazyNamed(paymentPages, 'EditPayment')),
      page(paths.editPaymentList.path, 'EditPaymentList', 'お支払い履歴', lazyNamed(accountPages, 'EditPaymentList')),
      page(paths.accountReceipt.path, 'AccountReceipt', '領収書', lazyNamed(receiptPages, 'MemberReceipt')),
      page(paths.receipt.path, 'Receipt', '領収書', lazyNamed(receiptPages, 'LinkReceipt')),
      page(
        paths.monthlyAuthentication.path,
        'MonthlyAuthentication',
        '毎月のご支援の本人認証',
        lazyNamed(paymentPages, 'MonthlyAuthentication'),
      ),

      page(paths.paymentInfo.path, 'PaymentInfo', PAYMENT_TITLE, lazyNamed(paymentPages, 'PaymentInfo')),
      page(paths.paymentMethod.path, 'PaymentMethod', PAYMENT_TITLE, lazyNamed(paymentPages, 'PaymentMethod')),
      page(paths.paymentCard.path, 'PaymentCard', PAYMENT_TITLE, lazyNamed(paymentPages, 'PaymentCard')),
      page(paths.paymentBank.path, 'PaymentBank', PAYMENT_TITLE, lazyNamed(paymentPages, 'PaymentBank')),
      page(paths.paymentConfirm.path, 'PaymentConfirm', PAYMENT_TITLE, lazyNamed(paymentPages, 'PaymentConfirm')),
      page(paths.paymentComplete.path, 'PaymentComplete', PAYMENT_TITLE, lazyNamed(paymentPages, 'PaymentComplete')),

      page(paths.admin.path, 'Admin', '管理画面', lazyNamed(adminPages, 'Admin')),
      page(paths.adminResendRegisterMail.path, 'AdminResendRegisterMail', '登録メールの再送', lazyNamed(adminPages, 'AdminResendRegisterMail')),
      page(paths.adminMail.path, 'AdminMail', '送信メール一覧', lazyNamed(adminPages, 'AdminMail')),
      page(paths.adminMailRegister.path, 'AdminMailRegister', 'メールの作成', lazyNamed(adminPages, 'AdminMailRegister')),
      page(paths.adminMailDetail.path, 'AdminMailDetail', '送信メール詳細', lazyNamed(adminPages, 'AdminMailDetail')),
      page(paths.adminRefund.path, 'AdminRefund', '返金', lazyNamed(adminPages, 'AdminRefund')),
      page(paths.adminRefundDetail.path, 'AdminRefundDetail', '返金詳細', lazyNamed(adminPages, 'AdminRefundDetail')),
      page(paths.adminProjects.path, 'AdminProjects', 'プロジェクト管理', lazyNamed(adminPages, 'AdminProjects')),
      page(paths.adminProjectNew.path, 'AdminProjectNew', '新しいプロジェクト', lazyNamed(adminPages, 'AdminProjectNew')),
      page(paths.adminProjectEdit.path, 'AdminProjectEdit', 'プロジェクトの編集', lazyNamed(adminPages, 'AdminProjectEdit')),
      page(paths.adminProjectPreview.path, 'AdminProjectPreview', 'プロジェクトのプレビュー', AdminProjectPreview),
      page(paths.adminProjectDeliveries.path, 'AdminDeliveries', 'リターンの発送', lazyNamed(adminPages, 'AdminDeliveries')),
      page(paths.adminPayouts.path, 'AdminPayouts', '精算', lazyNamed(adminPages, 'AdminPayouts')),
      page(paths.adminPayoutStatement.path, 'AdminPayoutStatement', '精算書', lazyNamed(adminPages, 'AdminPayoutStatement')),
      page(paths.mailOptOut.path, 'MailOptOut', 'お知らせメールの配信停止', lazyNamed(mailPages, 'MailOptOut')),

      page('*', 'NotFound', NOT_FOUND_TITLE, NotFound),
    ],
  },
];
