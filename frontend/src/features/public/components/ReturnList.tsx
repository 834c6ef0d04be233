import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ProjectDetail, ProjectReturn } from '../api/types';
import { LoginRequiredModal } from '@/components/modals/LoginRequiredModal';
import { Phrase } from '@/components/Phrase';
import {
  formatDeliveryMonth,
  formatPeople,
  formatReturnPrice,
  formatStock,
  formatTaxExcludedPrice,
  isMonthly,
} from '../format';
import { paymentInfoHref, storeSupportStart } from '../support';
import { ServerHtml } from './ServerHtml';
import { SupportTypeModal } from './SupportTypeModal';

/** Spec 000 §4: shown when a return can no longer be supported. */
export const SUPPORT_LIMIT_REACHED = '支援上限に達しました';

const buttonLabel = (ret: ProjectReturn): string => {
  if (ret.purchasable) return 'このリターンで支援する';
  if (ret.blockReason === 'ended') return '募集終了';
  if (ret.blockReason === 'sold_out') return '受付終了（上限）';
  return '受付停止中';
};

function ReturnItem({ ret, onSupport }: { ret: ProjectReturn; onSupport: (ret: ProjectReturn) => void }) {
  const titleId = `return-${ret.id}-title`;
  const taxExcluded = formatTaxExcludedPrice(ret);
  const delivery = formatDeliveryMonth(ret.deliveryMonth);
  return (
    <li className={`return-card${ret.purchasable ? '' : ' return-card--blocked'}`}>
      <article aria-labelledby={titleId}>
        {ret.imageSrc && (
          <img
            className="return-card__image"
            src={ret.imageSrc}
            alt={ret.title}
            width={640}
            height={427}
            loading="lazy"
            decoding="async"
          />
        )}
        <div className="return-card__body">
          {ret.course && <p className="return-card__course">コース{ret.course}</p>}
          {isMonthly(ret) && <p className="return-card__monthly">毎月のご支援</p>}
          <h3 id={titleId} className="return-card__title">
            <Phrase text={ret.title} />
          </h3>
          <p className="return-card__price">
            <span>{formatReturnPrice(ret)}</span>
            {taxExcluded && <span className="return-card__price-sub">{taxExcluded}</span>}
          </p>
          <dl className="return-card__facts">
            <div>
              <dt>支援者</dt>
              <dd>{formatPeople(ret.supporters)}</dd>
            </div>
            {isMonthly(ret) ? (
              <div>
                <dt>お支払い</dt>
                <dd className="return-card__remaining">
                  毎月同じ日にクレジットカードでお支払いいただきます。マイページからいつでも停止できます。
                </dd>
              </div>
            ) : (
              <div>
                <dt>数量</dt>
                <dd className="return-card__remaining">{formatStock(ret.remaining, ret.limit)}</dd>
              </div>
            )}
            {delivery && (
              <div>
                <dt>お届け</dt>
                <dd>{delivery}</dd>
              </div>
            )}
          </dl>
          <ServerHtml className="return-card__description" html={ret.description} />
          {ret.descriptionImage && (
            <img
              className="return-card__description-image"
              src={ret.descriptionImage}
              alt={ret.descriptionComment ?? `${ret.title}の説明画像`}
              width={640}
              height={427}
              loading="lazy"
              decoding="async"
            />
          )}
          {ret.descriptionComment && <p className="return-card__note">{ret.descriptionComment}</p>}
          {ret.blockMessage && <p className="return-card__blocked" role="note">{ret.blockMessage}</p>}
          {ret.disabled && ret.disabledComment && <p className="return-card__disabled-comment">{ret.disabledComment}</p>}
          <button
            type="button"
            className={`button button--block ${ret.blockReason === 'ended' ? 'button--closed' : 'button--cta'}`}
            disabled={!ret.purchasable}
            onClick={() => onSupport(ret)}
            aria-describedby={titleId}
          >
            {buttonLabel(ret)}
          </button>
        </div>
      </article>
    </li>
  );
}

export interface ReturnListProps {
  project: ProjectDetail;
  isLoggedIn: boolean;
}

/** The returns of a project (id="returns"), with the support start of spec 000 §4. */
export function ReturnList({ project, isLoggedIn }: ReturnListProps) {
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<ProjectReturn | null>(null);

  const onSupport = (ret: ProjectReturn) => {
    if (!ret.purchasable) return;
    if (isLoggedIn) {
      // The payment flow needs the support type (spec 001 §2); a member supports as 'login'.
      const href = paymentInfoHref(project.slug, ret.slug);
      storeSupportStart({ loginRef: href, supportType: 'login' });
      navigate(href);
      return;
    }
    setChosen(ret);
  };

  return (
    <>
      {project.returns.length === 0 ? (
        <p className="empty">現在選択できるリターンはありません。</p>
      ) : (
        <ul className="return-list">
          {project.returns.map((ret) => (
            <ReturnItem key={ret.id} ret={ret} onSupport={onSupport} />
          ))}
        </ul>
      )}
      {chosen && isMonthly(chosen) && (
        <LoginRequiredModal
          title="毎月のご支援"
          onClose={() => setChosen(null)}
          onBeforeNavigate={() => {
            const href = paymentInfoHref(project.slug, chosen.slug);
            storeSupportStart({ loginRef: href, supportType: 'login' });
          }}
        />
      )}
      {chosen && !isMonthly(chosen) && (
        <SupportTypeModal
          projectSlug={project.slug}
          returnSlug={chosen.slug}
          returnTitle={chosen.title}
          anonymousBank={project.hasAnonymousBank ? project.anonymousBank : null}
          onClose={() => setChosen(null)}
        />
      )}
    </>
  );
}
