import { Fragment, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch } from '@/app/hooks';
import { noticeShown } from '@/app/session/sessionSlice';
import { useSession } from '@/app/session/useSession';
import { LoadError } from '@/components/form/LoadError';
import { NotFound } from '@/components/NotFound';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { usePageMetaOverride } from '@/hooks/pageMeta';
import { getErrorMessage } from '@/lib/apiError';
import { saveLoginRef } from '@/lib/storage';
import { usePaymentProjectQuery } from '../api/paymentApi';
import type { PaymentProject, PaymentReturn } from '../api/types';
import { PAYMENT_MESSAGES } from '../messages';
import { readStoredLot, readSupportType, returnKeyOf, type SupportType } from '../supportRecord';
import '../payment.css';

export type StepNumber = 1 | 2 | 3 | 4 | 5;

/** The step counter's labels, in the pieces a narrow column may wrap between ('お支払い|方法', never '方|法'). */
const STEP_LABELS: Record<StepNumber, readonly string[]> = {
  1: ['ご支援内容'],
  2: ['お支払い', '方法'],
  3: ['お支払い', '情報'],
  4: ['確認'],
  5: ['完了'],
};

/** Each step's own title (heading and document title), after its label in the step counter. */
export const STEP_TITLES: Record<StepNumber, string> = {
  1: 'ご支援内容の入力',
  2: 'お支払い方法の選択',
  3: 'お支払い情報の入力',
  4: 'ご支援内容の確認',
  5: 'お申し込み完了',
};

/** The Invalid page's title: the flow's page title of spec 001 (confirm support content). */
export const INVALID_TITLE = 'ご支援内容の確認';

/** The step counter of spec 001 §2: 1 to 5, the current one marked for assistive technology. */
export function StepIndicator({ current }: { current: StepNumber }) {
  return (
    <ol className="payment-steps" aria-label="お申し込みの手順">
      {([1, 2, 3, 4, 5] as const).map((step) => (
        <li
          key={step}
          className={`payment-steps__item${step === current ? ' is-current' : ''}${step < current ? ' is-done' : ''}`}
          aria-current={step === current ? 'step' : undefined}
        >
          <span className="payment-steps__number">{step}</span>
          <span className="payment-steps__label">
            {STEP_LABELS[step].map((piece, index) => (
              <Fragment key={piece}>
                {index > 0 && <wbr />}
                {piece}
              </Fragment>
            ))}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Spec 001 §2: a step reached without what the earlier steps store, with a way to start again. */
export function InvalidMessage() {
  return (
    <>
      <p role="alert">{PAYMENT_MESSAGES.invalidOperation}</p>
      <p>
        <Link className="button" to={paths.home.getHref()}>
          トップページへ戻る
        </Link>
      </p>
    </>
  );
}

/** The Invalid page (spec 001 §2). */
export function InvalidOperation() {
  return (
    <section className="page payment-page" aria-labelledby="payment-invalid-title">
      <h1 id="payment-invalid-title" className="page__title">
        {INVALID_TITLE}
      </h1>
      <InvalidMessage />
    </section>
  );
}

export interface FlowContext {
  project: PaymentProject;
  ret: PaymentReturn;
  projectSlug: string;
  returnSlug: string;
  returnKey: string;
  supportType: SupportType;
  /** Logged in: saved cards, addresses and logos; otherwise a guest. */
  isMember: boolean;
  /** The stored lot; set on every step after the first (the frame shows the Invalid page otherwise). */
  lot: number | null;
  /** Replaces the step's title (the complete page of a support that failed); null restores it. */
  retitle: (title: string | null) => void;
}

interface PaymentFlowProps {
  step: StepNumber;
  /** Steps after the first need step 1's lot. */
  needsLot?: boolean;
  /** Where the back link goes; none on the last step. */
  backHref?: (slugs: { project: string; ret: string }) => string;
  children: (flow: FlowContext) => ReactNode;
}

/**
 * The frame of every step: the rules of spec 001 §2 (not found without a support type, the Invalid page without
 * the stored lot, login-type support only when logged in), the project and its return, the step counter and the
 * back link.
 */
export function PaymentFlow({ step, needsLot = true, backHref, children }: PaymentFlowProps) {
  const { project: projectSlug = '', return: returnSlug = '' } = useParams();
  const supportType = readSupportType();
  const session = useSession();
  const titleId = useId();
  const [retitled, retitle] = useState<string | null>(null);
  const { data: project, error, isLoading, refetch } = usePaymentProjectQuery(projectSlug, {
    skip: supportType === null || projectSlug === '',
  });
  const mustLogin = supportType === 'login' && session.status === 'guest';
  useLoginRedirect(mustLogin);

  if (supportType === null) return <NotFound />;
  if (mustLogin) return null;
  if (session.isChecking || isLoading) return <PageLoading />;
  if (error) {
    if ('status' in error && error.status === 404) return <NotFound />;
    return <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  }
  const ret = project?.returns.find((candidate) => candidate.slug === returnSlug);
  if (!project || !ret) return <NotFound />;
  const returnKey = returnKeyOf(projectSlug, returnSlug);
  const lot = readStoredLot(returnKey);
  if (needsLot && lot === null) return <InvalidOperation />;

  return (
    <section className="page payment-page" aria-labelledby={titleId}>
      <StepTitle id={titleId} title={retitled ?? STEP_TITLES[step]} />
      <StepIndicator current={step} />
      {children({
        project,
        ret,
        projectSlug,
        returnSlug,
        returnKey,
        supportType,
        isMember: session.isLoggedIn,
        lot,
        retitle,
      })}
      {backHref && (
        <p className="payment-page__back">
          <Link to={backHref({ project: projectSlug, ret: returnSlug })}>戻る</Link>
        </p>
      )}
    </section>
  );
}

/** The step's heading, also the document's title while the step is shown. */
function StepTitle({ id, title }: { id: string; title: string }) {
  usePageMetaOverride({ title });
  return (
    <h1 id={id} className="page__title">
      {title}
    </h1>
  );
}

/** Sets the step's title while mounted (`FlowContext.retitle`). */
export function Retitle({ flow, title }: { flow: FlowContext; title: string }) {
  const { retitle } = flow;
  useEffect(() => {
    retitle(title);
    return () => retitle(null);
  }, [retitle, title]);
  return null;
}

/** Spec 001 §5: login-type support without a session: the login-required alert, then the login page. */
function useLoginRedirect(mustLogin: boolean) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const done = useRef(false);
  useEffect(() => {
    if (!mustLogin || done.current) return;
    done.current = true;
    dispatch(noticeShown('loginRequired'));
    saveLoginRef(`${pathname}${search}`);
    void navigate(paths.login.getHref(), { replace: true });
  }, [mustLogin, dispatch, navigate, pathname, search]);
}
