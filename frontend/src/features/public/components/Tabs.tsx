import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  panel: ReactNode;
}

/** An accessible tablist (WAI-ARIA tabs with automatic activation and roving focus). */
export function Tabs<K extends string>({
  items,
  active,
  onChange,
  label,
}: {
  items: Array<TabItem<K>>;
  active: K;
  onChange: (key: K) => void;
  label: string;
}) {
  const id = useId();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const index = Math.max(0, items.findIndex((item) => item.key === active));

  const move = (next: number) => {
    const wrapped = (next + items.length) % items.length;
    const item = items[wrapped];
    if (!item) return;
    onChange(item.key);
    refs.current[wrapped]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const keys: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: items.length - 1 };
    const next = keys[event.key];
    if (next === undefined) return;
    event.preventDefault();
    move(next);
  };

  return (
    <div className="tabs">
      <div className="tabs__list" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {items.map((item, i) => (
          <button
            key={item.key}
            ref={(element) => {
              refs.current[i] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${item.key}`}
            className="tabs__tab"
            aria-selected={item.key === active}
            aria-controls={`${id}-panel-${item.key}`}
            tabIndex={item.key === active ? 0 : -1}
            onClick={() => onChange(item.key)}
          >
            {item.label}
          </button>
        ))}
      </div>
      {items.map((item) => (
        <div
          key={item.key}
          role="tabpanel"
          id={`${id}-panel-${item.key}`}
          aria-labelledby={`${id}-tab-${item.key}`}
          className="tabs__panel"
          hidden={item.key !== active}
          tabIndex={0}
        >
          {item.key === active && item.panel}
        </div>
      ))}
    </div>
  );
}
