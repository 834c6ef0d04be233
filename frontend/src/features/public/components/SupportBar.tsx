import type { ProjectDetail } from '../api/types';
import { formatYen, lowestPrice } from '../format';

/**
 * The bar at the bottom of a phone's screen: the lowest price and 支援する, which jumps to the returns;
 * for an ended project a disabled 募集終了 (styles show it on narrow screens only).
 */
export function SupportBar({ project, onSupport }: { project: ProjectDetail; onSupport: () => void }) {
  const lowest = lowestPrice(project.returns);
  return (
    <div className="support-bar" role="region" aria-label="支援のご案内">
      <p className="support-bar__price">
        {lowest === null ? (
          <span className="support-bar__label">{project.isOpen ? '選択できるリターンはありません' : '募集は終了しました'}</span>
        ) : (
          <>
            <span className="support-bar__label">最低支援額</span>
            <strong>{formatYen(lowest)}〜</strong>
          </>
        )}
      </p>
      {project.isOpen ? (
        <button type="button" className="button button--cta support-bar__button" onClick={onSupport}>
          支援する
        </button>
      ) : (
        <button type="button" className="button button--closed support-bar__button" disabled>
          募集終了
        </button>
      )}
    </div>
  );
}
