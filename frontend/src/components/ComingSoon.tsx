import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useCurrentRoute } from '@/hooks/currentRoute';

/** The page of a screen that is not built yet, titled like its route. */
export function ComingSoon({ title }: { title?: string }) {
  const { handle } = useCurrentRoute();
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
