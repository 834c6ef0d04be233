/** Shown when a page fails to load (for example a chunk lost after a deploy). */
export function RouteError() {
  return (
    <section className="page" role="alert">
      <h1 className="page__title">ページを表示できませんでした</h1>
      <p>お手数ですが、ページを再読み込みしてください。</p>
      <p>
        <a href="/">トップページへ戻る</a>
      </p>
    </section>
  );
}
