import { matchPath } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { isProtectedPath, paths } from './paths';

describe('paths', () => {
  it('holds every route of both specifications, and the opt-out page, exactly once', () => {
    const patterns = Object.values(paths).map((route) => route.path);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(patterns).toEqual(
      expect.arrayContaining([
        '/', '/projects/:slug/', '/policy/', '/terms/', '/commercial/',
        '/login/', '/signup/', '/signup/password/', '/forgot-password/', '/reset-password/', '/account/',
        '/edit/profile', '/edit/email', '/edit/email/updated', '/edit/password', '/edit/corporate',
        '/edit/addresses', '/edit/payment', '/edit/payment-list',
        '/payment/info/:project/:return/', '/payment/method/:project/:return/', '/payment/card/:project/:return/',
        '/payment/bank/:project/:return/', '/payment/confirm/:project/:return/', '/payment/complete/:project/:return/',
        '/admin/', '/admin/resendRegisterMail/', '/admin/mail/', '/admin/mail/register/', '/admin/mail/:id/',
        '/admin/refund/', '/admin/refund/:slug',
        // Ours: the operator's project screens.
        '/admin/projects/', '/admin/projects/new', '/admin/projects/:id/', '/admin/projects/:id/preview',
        '/admin/projects/:id/deliveries',
        // Ours: payouts to the owners of successful projects.
        '/admin/payouts/', '/admin/payouts/:id/',
        // Ours: the opt-out link of mass mail (特定電子メール法).
        '/mail/optout/',
        // Ours: receipts, a member's from the payment history and anyone's from the paid mail's link.
        '/account/receipts/:saleId', '/receipt/:token',
      ]),
    );
    expect(patterns).toHaveLength(44);
  });

  it('builds project links with an optional hash anchor', () => {
    expect(paths.project.getHref('maebashi-fes')).toBe('/projects/maebashi-fes/');
    expect(paths.projects.getHref()).toBe('/projects/');
    expect(paths.projects.getHref({ area: 'maebashi', sort: 'new', q: ' バラ ', page: 1 })).toBe(
      '/projects/?area=maebashi&q=%E3%83%90%E3%83%A9',
    );
    expect(paths.projects.getHref({ category: 'sports', state: 'open', sort: 'ending', page: 3 })).toBe(
      '/projects/?category=sports&state=open&sort=ending&page=3',
    );
    expect(paths.project.getHref('maebashi-fes', 'mainContents_wrapper')).toBe(
      '/projects/maebashi-fes/#mainContents_wrapper',
    );
  });

  it('encodes path parameters', () => {
    expect(paths.paymentInfo.getHref('a b', 'c/d')).toBe('/payment/info/a%20b/c%2Fd/');
    expect(paths.adminMailDetail.getHref(42)).toBe('/admin/mail/42/');
    expect(paths.adminRefundDetail.getHref('fes')).toBe('/admin/refund/fes');
    expect(paths.adminProjectEdit.getHref(12)).toBe('/admin/projects/12/');
    expect(paths.adminProjectPreview.getHref(12)).toBe('/admin/projects/12/preview');
    expect(paths.adminPayoutStatement.getHref(12)).toBe('/admin/payouts/12/');
    expect(paths.accountReceipt.getHref(41)).toBe('/account/receipts/41');
    expect(paths.receipt.getHref('a.b_c-d')).toBe('/receipt/a.b_c-d');
  });

  it('adds the payment type to the confirm step', () => {
    expect(paths.paymentConfirm.getHref('fes', 'gold', 2)).toBe('/payment/confirm/fes/gold/?paymentType=2');
  });

  it('adds query values only when given', () => {
    expect(paths.login.getHref()).toBe('/login/');
    expect(paths.login.getHref({ expired: 1 })).toBe('/login/?expired=1');
    expect(paths.signupPassword.getHref('abc')).toBe('/signup/password/?activate=abc');
    expect(paths.resetPassword.getHref()).toBe('/reset-password/');
    expect(paths.editEmailUpdated.getHref('k')).toBe('/edit/email/updated?activate=k');
    expect(paths.adminProjects.getHref()).toBe('/admin/projects/');
    expect(paths.adminProjects.getHref('draft')).toBe('/admin/projects/?state=draft');
  });

  it('marks member, admin, account and edit pages as protected', () => {
    expect(isProtectedPath('/account/')).toBe(true);
    expect(isProtectedPath('/account/receipts/41')).toBe(true);
    expect(isProtectedPath('/receipt/a.b.c')).toBe(false);
    expect(isProtectedPath('/edit/profile')).toBe(true);
    expect(isProtectedPath('/admin/mail/3/')).toBe(true);
    expect(isProtectedPath('/signup/')).toBe(false);
    expect(isProtectedPath('/projects/edit-your-town/')).toBe(false);
  });

  it.each(['editProfile', 'editEmail', 'editEmailUpdated', 'editPassword', 'editCorporate', 'editAddresses', 'editPayment', 'editPaymentList', 'account'] as const)(
    'matches %s with and without a trailing slash',
    (key) => {
      const { path } = paths[key];
      const bare = path.replace(/\/$/, '');
      expect(matchPath(path, bare)).not.toBeNull();
      expect(matchPath(path, `${bare}/`)).not.toBeNull();
      expect(isProtectedPath(`${bare}/`)).toBe(true);
    },
  );

  it('tells a new project from an existing one', () => {
    expect(matchPath(paths.adminProjectNew.path, '/admin/projects/new')).not.toBeNull();
    expect(matchPath(paths.adminProjectEdit.path, '/admin/projects/12/')?.params.id).toBe('12');
    expect(matchPath(paths.adminProjectEdit.path, '/admin/projects/12/preview')).toBeNull();
    expect(isProtectedPath('/admin/projects/12/preview')).toBe(true);
  });

  it('keeps the e-mail change and its completion apart', () => {
    expect(matchPath(paths.editEmail.path, '/edit/email/updated')).toBeNull();
    expect(matchPath(paths.editEmailUpdated.path, '/edit/email/updated/')).not.toBeNull();
  });
});
