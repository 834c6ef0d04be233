import { useRef } from 'react';
import { useInView } from '@/hooks/useInView';
import { formatPercent } from '../format';

/** Spec 000 §9: the ring's circumference is 488. */
export const RING_CIRCUMFERENCE = 488;
const RADIUS = RING_CIRCUMFERENCE / (2 * Math.PI);
const SIZE = 180;

/** Dash offset of the drawn arc for a percent, capped to 0..100. */
export const ringOffset = (percent: number): number => {
  const capped = Math.min(100, Math.max(0, percent));
  return RING_CIRCUMFERENCE * (1 - capped / 100);
};

export interface ProgressRingProps {
  /** The percent shown as text (not capped). */
  percent: number;
  /** The percent drawn, capped at 100. */
  capped: number;
  decimals: 1 | 2;
  size?: 'small' | 'large';
}

/** The progress circle: fills when scrolled into view, labelled with the achieved percent. */
export function ProgressRing({ percent, capped, decimals, size = 'small' }: ProgressRingProps) {
  const ref = useRef<SVGSVGElement>(null);
  const inView = useInView(ref, { once: true, threshold: 0.3 });
  const label = formatPercent(percent, decimals);
  return (
    <div className={`ring ring--${size}`}>
      <svg
        ref={ref}
        className="ring__svg"
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        width={SIZE}
        height={SIZE}
        role="img"
        aria-label={`達成率 ${label}`}
      >
        <circle className="ring__track" cx={SIZE / 2} cy={SIZE / 2} r={RADIUS} />
        <circle
          className="ring__bar"
          data-testid="ring-bar"
          cx={SIZE / 2}
          cy={SIZE / 2}
          r={RADIUS}
          strokeDasharray={RING_CIRCUMFERENCE}
          strokeDashoffset={inView ? ringOffset(capped) : RING_CIRCUMFERENCE}
          transform={`rotate(-90 ${SIZE / 2} ${SIZE / 2})`}
        />
      </svg>
      <p className="ring__label" aria-hidden="true">
        <span className="ring__caption">達成率</span>
        <span className="ring__value">{label}</span>
      </p>
    </div>
  );
}
