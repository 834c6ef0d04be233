import { Link, useMatches } from 'react-router-dom';
import { paths } from '@/config/paths';
import { getRouteHandle } from '@/config/routeHandle';

/** The page of a screen that is not built yet, titled like its route. */
export function ComingSoon({ title }: { title?: string }) {
  const handle = getRouteHandle(useMatches());
  return (
    <section className="page coming-soon" aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title" className="page__title">
        {title ?? handle?.title}
      </h1>
      <p className="coming-soon__badge">準備中</p>
      <p>このページは現在準備中です。公開まで今しばらくお待ちください。</p>
      <p>
        <Link to={paths.home.getHref()}>トップページへ戻る</Link>
      </p>
    </section>
  );
}
