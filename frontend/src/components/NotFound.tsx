import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { usePageMetaOverride } from '@/hooks/pageMeta';

export const NOT_FOUND_TITLE = 'お探しのページが見つかりませんでした';

/** Shown for unknown paths, and by pages whose subject does not exist. */
export function NotFound() {
  usePageMetaOverride({ title: NOT_FOUND_TITLE });
  return (
    <section className="page not-found" aria-labelledby="not-found-title">
      <p className="not-found__code" aria-hidden="true">404</p>
      <h1 id="not-found-title" className="not-found__title">Page Not Found</h1>
      <p>お探しのページが見つかりませんでした。</p>
      <p>URLが間違っているか、ページが移動または削除された可能性があります。</p>
      <p>
        <Link className="button" to={paths.home.getHref()}>トップページへ戻る</Link>
      </p>
    </section>
  );
}
