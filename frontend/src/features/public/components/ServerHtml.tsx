/**
 * Rich text the server has already sanitised: project bodies and the descriptions of returns and news
 * (docs/decisions.md, "Project HTML"). Never pass anything else here.
 */
export function ServerHtml({ html, className }: { html: string; className: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
