import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LoadError } from '@/components/form/LoadError';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { useAuthUserQuery, type AuthUser } from '../api/accountApi';

/** The frame of an account screen: title, lead text, content and a way back to my page. */
export function AccountPage({
  title,
  lead,
  children,
  backLink = true,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  backLink?: boolean;
}) {
  const titleId = useId();
  return (
    <section className="page account-page" aria-labelledby={titleId}>
      <h1 id={titleId} className="page__title">
        {title}
      </h1>
      {lead && <p className="account-page__lead">{lead}</p>}
      {children}
      {backLink && (
        <p className="account-page__back">
          <Link to={paths.account.getHref()}>マイページへ戻る</Link>
        </p>
      )}
    </section>
  );
}

/** Renders `children` with the logged-in user once loaded; a spinner before, a retry on failure. */
export function WithAuthUser({ children }: { children: (user: AuthUser) => ReactNode }) {
  const { data, isLoading, isError, error, refetch } = useAuthUserQuery();
  if (isLoading) return <PageLoading />;
  if (isError || !data) return <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  return <>{children(data)}</>;
}
