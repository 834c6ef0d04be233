import type { PaymentProject, PaymentReturn } from '../api/types';
import { formatLotPrice } from '../format';

/** What is being backed: the project, the return (course) and the price of one lot. */
export function ReturnSummary({ project, ret }: { project: PaymentProject; ret: PaymentReturn }) {
  return (
    <section className="payment-section payment-summary" aria-label="ご支援いただくリターン">
      <p className="payment-summary__project">{project.title}</p>
      <p className="payment-summary__return">
        {ret.course ? `${ret.course}：` : ''}
        {ret.title}
      </p>
      <p className="payment-summary__price">1口 {formatLotPrice(ret)}</p>
    </section>
  );
}
