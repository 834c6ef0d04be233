/** Names of the routes, as the specs call them where they do. */
export type RouteName =
  | 'Home' | 'Projects' | 'Project' | 'Policy' | 'Terms' | 'Commercial'
  | 'Login' | 'Signup' | 'SignupPassword' | 'ForgotPassword' | 'ResetPassword' | 'Account'
  | 'EditProfile' | 'EditEmail' | 'EditEmailUpdated' | 'EditPassword' | 'EditCorporate'
  | 'EditAddresses' | 'EditPayment' | 'EditPaymentList' | 'AccountReceipt' | 'Receipt' | 'MonthlyAuthentication'
  | 'PaymentInfo' | 'PaymentMethod' | 'PaymentCard' | 'PaymentBank' | 'PaymentConfirm' | 'PaymentComplete'
  | 'Admin' | 'AdminResendRegisterMail' | 'AdminMail' | 'AdminMailRegister' | 'AdminMailDetail'
  | 'AdminRefund' | 'AdminRefundDetail'
  | 'AdminProjects' | 'AdminProjectNew' | 'AdminProjectEdit' | 'AdminProjectPreview' | 'AdminDeliveries'
  | 'AdminPayouts' | 'AdminPayoutStatement'
  | 'MailOptOut'
  | 'NotFound';

/** What each route carries in its `handle`. */
export interface RouteHandle {
  name: RouteName;
  title: string;
  description?: string;
}

/** Routes on which the header is hidden (spec 000 §2). */
export const HEADERLESS_ROUTES: ReadonlySet<RouteName> = new Set([
  'Home', 'Login', 'Signup', 'ForgotPassword', 'ResetPassword',
]);

const isRouteHandle = (handle: unknown): handle is RouteHandle =>
  typeof handle === 'object' && handle !== null && 'name' in handle && 'title' in handle;

/** The handle of the deepest matched route that has one (`matches` as `matchRoutes` gives them). */
export const getRouteHandle = (
  matches: readonly { route: { handle?: unknown } }[] | null,
): RouteHandle | undefined => {
  if (!matches) return undefined;
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.route.handle;
    if (isRouteHandle(handle)) return handle;
  }
  return undefined;
};
