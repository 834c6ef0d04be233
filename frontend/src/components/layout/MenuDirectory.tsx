import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useGetTaxonomyQuery, type Taxon } from '@/components/taxonomy/taxonomyApi';

/** A group of the menu's ways to the project list, one link per area or category. */
function TaxonLinks({ title, taxa, href }: { title: string; taxa: Taxon[] | undefined; href: (slug: string) => string }) {
  if (!taxa || taxa.length === 0) return null;
  return (
    <section className="menu-overlay__group" aria-label={title}>
      <h2 className="menu-overlay__heading">{title}</h2>
      <ul className="menu-overlay__chips">
        {taxa.map((taxon) => (
          <li key={taxon.slug}>
            <Link className="menu-overlay__chip" to={href(taxon.slug)}>
              {taxon.name}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The site menu's part for members and visitors alike, below the account links: the project list (all, and the
 * open ones ending soon), by area and by category, and the legal pages. Rendered, and the areas read, only while
 * the menu is open.
 */
export default function MenuDirectory() {
  const { data: taxonomy } = useGetTaxonomyQuery();
  return (
    <>
      <ul className="menu-overlay__list" aria-label="プロジェクトを探す">
        <li>
          <Link className="menu-overlay__item" to={paths.projects.getHref()}>プロジェクトを探す</Link>
        </li>
        <li>
          <Link className="menu-overlay__item" to={paths.projects.getHref({ state: 'open', sort: 'ending' })}>
            まもなく終了
          </Link>
        </li>
      </ul>
      <TaxonLinks title="地域から探す" taxa={taxonomy?.areas} href={(area) => paths.projects.getHref({ area })} />
      <TaxonLinks
        title="カテゴリーから探す"
        taxa={taxonomy?.categories}
        href={(category) => paths.projects.getHref({ category })}
      />
      <ul className="menu-overlay__legal" aria-label="規約とポリシー">
        <li>
          <Link to={paths.terms.getHref()}>利用規約</Link>
        </li>
        <li>
          <Link to={paths.policy.getHref()}>プライバシーポリシー</Link>
        </li>
        <li>
          <Link to={paths.commercial.getHref()}>特定商取引法に基づく表記</Link>
        </li>
      </ul>
    </>
  );
}
