import { useId } from 'react';
import type { FundingPoint } from '../api/dashboardApi';
import { formatDay, formatShortDay, formatYen } from '../format';

export const CHART_EMPTY = 'まだ入金された支援はありません。';

const WIDTH = 320;
const HEIGHT = 140;
const PAD = { top: 12, right: 12, bottom: 22, left: 12 };

const dayNumber = (day: string): number => Date.UTC(...(day.split('-').map(Number) as [number, number, number])) / 86_400_000;

/** The polyline of the cumulative amount: flat between funding days, a step up on each. */
export const chartPoints = (series: FundingPoint[]): string => {
  const start = series[0];
  const end = series.at(-1);
  if (!start || !end) return '';
  const first = dayNumber(start.day);
  const span = Math.max(1, dayNumber(end.day) - first);
  const top = Math.max(1, end.cumulative);
  const x = (day: string) => PAD.left + ((dayNumber(day) - first) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (yen: number) => HEIGHT - PAD.bottom - (yen / top) * (HEIGHT - PAD.top - PAD.bottom);
  // Before the first point of the window: what the earlier days had raised.
  let previous = start.cumulative - start.amount;
  const coords: string[] = [];
  for (const point of series) {
    coords.push(`${x(point.day).toFixed(1)},${y(previous).toFixed(1)}`);
    coords.push(`${x(point.day).toFixed(1)},${y(point.cumulative).toFixed(1)}`);
    previous = point.cumulative;
  }
  return coords.join(' ');
};

/**
 * A project's funding over time, cumulative by day: a small SVG for the eye, a sentence for screen
 * readers, and the same figures as a table for anyone who wants the numbers.
 */
export function FundingChart({ title, series }: { title: string; series: FundingPoint[] }) {
  const titleId = useId();
  const descId = useId();
  const first = series[0];
  const last = series.at(-1);
  if (!first || !last) return <p className="admin-chart__empty">{CHART_EMPTY}</p>;
  const summary = `${formatDay(first.day)}から${formatDay(last.day)}までの${series.length}日に支援があり、累計${formatYen(last.cumulative)}です。`;
  return (
    <figure className="admin-chart">
      <svg
        className="admin-chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descId}`}
        preserveAspectRatio="none"
      >
        <title id={titleId}>{`${title}の累計支援額の推移`}</title>
        <desc id={descId}>{summary}</desc>
        <line
          className="admin-chart__axis"
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={HEIGHT - PAD.bottom}
          y2={HEIGHT - PAD.bottom}
        />
        <polyline className="admin-chart__line" points={chartPoints(series)} fill="none" />
        <text className="admin-chart__label" x={PAD.left} y={HEIGHT - 6}>
          {formatShortDay(first.day)}
        </text>
        <text className="admin-chart__label" x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end">
          {formatShortDay(last.day)}
        </text>
      </svg>
      <figcaption className="admin-chart__caption">{summary}</figcaption>
      <details className="admin-chart__details">
        <summary>日ごとの金額を表で見る</summary>
        {/* Focusable so a keyboard can scroll it sideways on a narrow screen. */}
        <div className="admin-table-wrap admin-scroll" tabIndex={0} role="region" aria-label={`${title}の日ごとの支援額`}>
          <table className="admin-table">
            <caption className="visually-hidden">{`${title}の日ごとの支援額と累計`}</caption>
            <thead>
              <tr>
                <th scope="col">日付</th>
                <th scope="col">その日の支援額</th>
                <th scope="col">累計</th>
              </tr>
            </thead>
            <tbody>
              {series.map((point) => (
                <tr key={point.day}>
                  <th scope="row">{formatDay(point.day)}</th>
                  <td className="admin-num">{formatYen(point.amount)}</td>
                  <td className="admin-num">{formatYen(point.cumulative)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
